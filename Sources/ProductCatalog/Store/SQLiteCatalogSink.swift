/// The default ``CatalogSink``: a catalog file, rebuilt beside itself and swapped in (see
/// ``CatalogBuild``), or upserted in place (``CatalogUpdate``).
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
    private let aroundSwap: CatalogBuild.SwapHooks?

    /// A sink for the catalog at `databasePath`; `maxPages` and `facetValuesKept` are limits tests
    /// lower; `aroundSwap`, what the engine that made the sink does around a replacement's swap.
    init(databasePath: String, maxPages: Int? = nil, facetValuesKept: Int = FacetTotals.maxValues,
         aroundSwap: CatalogBuild.SwapHooks? = nil) {
        catalogName = databasePath
        self.maxPages = maxPages
        self.facetValuesKept = facetValuesKept
        self.aroundSwap = aroundSwap
    }

    var defaultRejectsPath: String { catalogName + ".rejects.csv" }
    var spillPathPrefix: String { (destination?.path ?? catalogName) + ".importing" }
    var productsBefore: Int { update?.productsBefore ?? 0 }
    var productsDeleted: Int { update?.productsDeleted ?? 0 }
    var editsReplaced: Int { build?.editsReplaced ?? 0 }

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
        switch mode {
        case .upsert:
            let update = try CatalogUpdate(livePath: path, rows: rows, maxPages: maxPages)
            self.update = update
            try update.prepare(extraColumns: extraColumns, insertColumns: names, deletingMissing: deletingMissing)
        case .replace:
            let pageSize = try CatalogBuild.pageSize(wanted: CatalogSchema.pageSize(for: rowLengths), livePath: path)
            let build = try CatalogBuild(livePath: path, pageSize: pageSize, maxPages: maxPages, facetValuesKept: facetValuesKept,
                                         aroundSwap: aroundSwap)
            self.build = build
            try build.createTable(extraColumns: extraColumns, insertColumns: names)
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
