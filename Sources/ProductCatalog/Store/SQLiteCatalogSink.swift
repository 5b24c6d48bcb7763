/// The default ``CatalogSink``: a catalog file, rebuilt beside itself and renamed over it (see ``CatalogBuild``).
final class SQLiteCatalogSink: CatalogSink {
    /// The path as given, for messages.
    let catalogName: String
    private var destination: ImportDestination?
    private var lock: ImportLock?
    private var build: CatalogBuild?
    private let maxPages: Int?

    init(databasePath: String, maxPages: Int? = nil) {
        catalogName = databasePath
        self.maxPages = maxPages
    }

    var defaultRejectsPath: String { catalogName + ".rejects.csv" }
    var spillPathPrefix: String { (destination?.path ?? catalogName) + ".importing" }
    var productsBefore: Int { build?.productsBefore ?? 0 }
    var editsReplaced: Int { build?.editsReplaced ?? 0 }

    func claim(mode: ImportMode) throws {
        let destination = try ImportDestination(databasePath: catalogName, mode: mode)
        lock = try ImportLock(importInto: destination.path)
        self.destination = destination
    }

    func begin(mode: ImportMode, columns: [CheckedColumn], extraColumns: [String]) throws {
        guard let path = destination?.path else { preconditionFailure("begin before claim") }
        let build = try CatalogBuild(livePath: path, copyingLive: mode == .upsert, maxPages: maxPages)
        self.build = build
        let names = columns.map(\.name)
        switch mode {
        case .replace: try build.createTable(extraColumns: extraColumns, insertColumns: names)
        case .upsert: try build.prepareUpsert(extraColumns: extraColumns, insertColumns: names)
        }
    }

    func write(_ rows: CheckedRows) throws {
        try build?.insert(rows.batch, parameters: rows.parameters)
    }

    func commitAndContinue() throws {
        try build?.commitAndContinue()
    }

    func finish() throws -> Int {
        try build?.finish() ?? 0
    }

    func install() throws {
        try build?.install()
    }

    func abandon() {
        build?.abandon()
    }

    func release() {
        lock = nil
    }
}
