/// The default ``CatalogSink``: a catalog file, rebuilt beside itself and renamed over it (see ``CatalogBuild``).
final class SQLiteCatalogSink: CatalogSink {
    /// The path as given, for messages.
    let catalogName: String
    private var destination: ImportDestination?
    private var lock: ImportLock?
    private var build: CatalogBuild?
    /// An upsert small enough to be written into the live file; nil when ``build`` writes.
    private var update: CatalogUpdate?
    private let maxPages: Int?
    private let facetValuesKept: Int

    /// A sink for the catalog at `databasePath`; `maxPages` and `facetValuesKept` are limits tests lower.
    init(databasePath: String, maxPages: Int? = nil, facetValuesKept: Int = FacetTotals.maxValues) {
        catalogName = databasePath
        self.maxPages = maxPages
        self.facetValuesKept = facetValuesKept
    }

    var defaultRejectsPath: String { catalogName + ".rejects.csv" }
    var spillPathPrefix: String { (destination?.path ?? catalogName) + ".importing" }
    var productsBefore: Int { update?.productsBefore ?? build?.productsBefore ?? 0 }
    var productsDeleted: Int { update?.productsDeleted ?? build?.productsDeleted ?? 0 }
    var editsReplaced: Int { build?.editsReplaced ?? 0 }
    var listsRebuilt: Bool { update?.listsRebuilt ?? build?.listsRebuilt ?? false }

    func check(output: String) throws {
        try CatalogCompanions(catalogPath: catalogName).check(output: output)
    }

    func claim(mode: ImportMode) throws {
        let destination = try ImportDestination(databasePath: catalogName, mode: mode)
        lock = try ImportLock(importInto: destination.path)
        self.destination = destination
    }

    func begin(mode: ImportMode, columns: [CheckedColumn], extraColumns: [String], rows: Int, rowLengths: RowLengths, deletingMissing: DeletionOfMissing?) throws {
        guard let path = destination?.path else { preconditionFailure("begin before claim") }
        let names = columns.map(\.name)
        if mode == .upsert {
            let update = try CatalogUpdate(livePath: path, rows: rows, maxPages: maxPages)
            if CatalogUpdate.writesInPlace(rows: rows, catalogProducts: update.productsBefore) {
                try update.prepare(extraColumns: extraColumns, insertColumns: names, deletingMissing: deletingMissing)
                self.update = update
                return
            }
            update.abandon()
        }
        let build = try CatalogBuild(livePath: path, copyingLive: mode == .upsert, pageSize: CatalogSchema.pageSize(for: rowLengths),
                                     maxPages: maxPages, facetValuesKept: facetValuesKept)
        self.build = build
        switch mode {
        case .replace: try build.createTable(extraColumns: extraColumns, insertColumns: names)
        case .upsert: try build.prepareUpsert(extraColumns: extraColumns, insertColumns: names, deletingMissing: deletingMissing)
        }
    }

    func write(_ rows: CheckedRows) throws {
        try update?.insert(rows.batch, parameters: rows.parameters)
        try build?.insert(rows.batch, parameters: rows.parameters)
    }

    /// Commits a build's rows so far; an update in place stays one transaction to its end.
    func commitAndContinue() throws {
        try build?.commitAndContinue()
    }

    func finish() throws -> Int {
        if let update { return try update.finish() }
        return try build?.finish() ?? 0
    }

    func install() throws {
        try update?.install()
        try build?.install()
    }

    func abandon() {
        update?.abandon()
        build?.abandon()
    }

    func release() {
        lock = nil
    }
}
