/// Imports a local inventory file into a catalog's stock by store (``StockTable``):
/// bytes → records → stock rows → a sorted scratch file → the live catalog, in one transaction.
///
/// ```swift
/// let importer = StockImporter(databasePath: "catalog.sqlite")
/// let summary = try importer.run(source: try FileByteSource(path: "local-inventory.csv"))
/// ```
///
/// The file's format is recognised from its header (``StockFormat``). Each record becomes one
/// product's quantity at one store, is rejected with its line and reason (a product the catalog
/// does not hold, no store, a quantity that is not a whole number), or, naming a product and store
/// a later record names again, gives way to it. The rows wait in a scratch file beside the
/// catalog, without a journal; at the end they go into the live catalog in productId order, in one
/// transaction under SQLite's rollback journal. So memory stays constant whatever the file's
/// size, searches read the old stock until the commit, and a failed, cancelled or killed import
/// leaves the stock as it was (the next connection rolls a hot journal back). Replacing empties
/// the stock first; upserting keeps the rows the file does not name.
public struct StockImporter: Sendable {
    public var databasePath: String
    /// `.replace` makes the stock the file's; `.upsert` changes only the product–store pairs it names.
    public var mode: ImportMode = .replace
    /// How bytes become records: delimiter, encoding, chunk size (the format is recognised from the header).
    public var reading = FeedReading()
    /// Where rejected rows go; by default the catalog's path with `.stock-rejects.csv`.
    public var rejectsPath: String?
    /// The import fails once more rows than this were rejected.
    public var maxErrors = Int.max
    /// How often `progress` is called.
    public var progressInterval: Duration = .milliseconds(200)

    public init(databasePath: String, mode: ImportMode = .replace) {
        self.databasePath = databasePath
        self.mode = mode
    }

    /// Where rejected rows go.
    public var resolvedRejectsPath: String { rejectsPath ?? databasePath + ".stock-rejects.csv" }

    /// Imports `source` on the calling thread, calling `progress` about every ``progressInterval``;
    /// when `isCancelled` turns true the import stops with ``ImportError/cancelled``.
    public func run(
        source: any ByteSource,
        progress: (ImportProgress) -> Void = { _ in },
        isCancelled: () -> Bool = { false }
    ) throws -> StockImportSummary {
        try withoutActuallyEscaping(progress) { progress in
            try withoutActuallyEscaping(isCancelled) { isCancelled in
                let source = reading.encoding == .utf8 ? source : TranscodingByteSource(source, encoding: reading.encoding)
                var reporter = ProgressReporter(source: source, interval: progressInterval, progress: progress, isCancelled: isCancelled)
                do {
                    return try run(source, reporter: &reporter)
                } catch let error as CatalogError {
                    throw ImportError.catalog(error)
                } catch let error as SQLiteError {
                    throw ImportError.catalog(.database(path: databasePath, error))
                }
            }
        }
    }

    private func run(_ source: any ByteSource, reporter: inout ProgressReporter) throws -> StockImportSummary {
        switch try CatalogSchema.kind(ofFileAt: databasePath) {
        case .catalog: break
        case .missing: throw CatalogError.noCatalog(path: databasePath)
        case .empty, .otherDatabase, .notADatabase: throw CatalogError.notACatalog(path: databasePath)
        }
        let lock = try ImportLock(importInto: databasePath)
        defer { _ = lock }
        let reader = CSVReader(source: source, options: CSVReader.Options(
            delimiter: reading.delimiter, chunkSize: reading.chunkSize, maxFieldBytes: reading.maxFieldBytes))
        let header = try ImportReading.readHeader(reader, source: source, options: reading).strings.map(HeaderName.clean)
        let layout: StockLayout
        do throws(StockLayoutError) {
            layout = try StockLayout(header: header)
        } catch {
            throw ImportError.stockHeader(source: source.name, error)
        }
        reporter.report(.loading)

        let scratchPath = databasePath + ".importing-stock"
        try? FileSystem.removeIfPresent(scratchPath)
        defer { try? FileSystem.removeIfPresent(scratchPath) }
        // The catalog is opened without the right to create files, which ATTACH would need.
        _ = try Connection(path: scratchPath, mode: .create)
        let connection = try Connection(path: databasePath, mode: .readWrite)
        connection.setBusyTimeout(milliseconds: 30_000)
        try connection.execute("PRAGMA journal_mode = DELETE; PRAGMA synchronous = FULL; PRAGMA cache_size = -\(64 << 10);")
        let attach = try connection.prepare("ATTACH DATABASE ?1 AS scratch")
        try attach.using {
            try attach.bind(1, scratchPath)
            _ = try attach.step()
        }
        try connection.execute("""
            PRAGMA scratch.journal_mode = OFF; PRAGMA scratch.synchronous = OFF;
            CREATE TABLE scratch.rows (productId TEXT NOT NULL COLLATE NOCASE, store TEXT NOT NULL COLLATE NOCASE, quantity INTEGER NOT NULL);
            """)

        let rejects = RejectsFile(path: resolvedRejectsPath, header: header)
        var unknownProducts = 0
        do {
            try connection.begin(.deferred)
            let known = try connection.prepare("SELECT 1 FROM \(CatalogSchema.table) WHERE productId = ?1")
            let stage = try connection.prepare("INSERT INTO scratch.rows (productId, store, quantity) VALUES (?1, ?2, ?3)")
            var record = CSVRecord()
            func reject(_ rejection: StockRowRejection, line: Int) throws {
                try record.withFields { try rejects.write(line: line, reason: rejection.reason, fields: $0) }
                reporter.counts.rowsRejected += 1
                if case .unknownProduct = rejection { unknownProducts += 1 }
                if reporter.counts.rowsRejected > maxErrors {
                    throw ImportError.tooManyRejects(limit: maxErrors, line: line, rejectsPath: rejects.path)
                }
            }
            while try ImportReading.readNext(reader, into: &record) {
                reporter.counts.rowsRead += 1
                let line = record.position.line
                if record.count < header.count, record.malformation == nil, record.count > 0 { record.padFields(to: header.count) }
                if let malformation = record.malformation {
                    try reject(.malformed("the row is not valid CSV: \(malformation)"), line: line)
                } else if record.count != header.count {
                    try reject(.malformed("the row has \(record.count) fields; the header has \(header.count)"), line: line)
                } else {
                    switch layout.row(record.strings) {
                    case .failure(let rejection):
                        try reject(rejection, line: line)
                    case .success(let row):
                        let exists = try known.using {
                            try known.bind(1, row.productId)
                            return try known.step()
                        }
                        if exists {
                            try stage.using {
                                try stage.bind(1, row.productId)
                                try stage.bind(2, row.store)
                                try stage.bind(3, row.quantity)
                                _ = try stage.step()
                            }
                            reporter.counts.rowsInserted += 1
                        } else {
                            try reject(.unknownProduct(row.productId), line: line)
                        }
                    }
                }
                if reporter.counts.rowsRead & 1023 == 0 { try reporter.reportIfDue(.loading) }
            }
            try rejects.finish()
            // Reading held only a shared lock; writing takes the catalog's write lock now.
            try connection.commit()
            try reporter.stopIfCancelled()
            reporter.report(.writing)
            try connection.begin(.immediate)
            do {
                let staged = reporter.counts.rowsInserted
                let written = try write(connection)
                reporter.counts.duplicates = staged - written
                reporter.counts.rowsInserted = written
                try reporter.stopIfCancelled()
                reporter.report(.finishing)
                let rows = Int(try connection.scalarInt("SELECT count(*) FROM \(StockTable.table)") ?? 0)
                let stores = try StockTable.stores(connection)
                try connection.commit()
                try? connection.execute("DETACH DATABASE scratch")
                let counts = reporter.counts
                let summary = StockImportSummary(
                    format: layout.format, rowsRead: counts.rowsRead, rowsWritten: written, rowsRejected: counts.rowsRejected,
                    unknownProducts: unknownProducts, duplicates: counts.duplicates, stockRows: rows, stores: stores.count, bytesRead: source.bytesRead, elapsed: reporter.elapsed,
                    databasePath: databasePath, rejectsPath: counts.rowsRejected > 0 ? rejects.path : nil)
                reporter.finish(progress: summary.progress)
                return summary
            } catch {
                try? connection.rollback()
                throw error
            }
        } catch {
            connection.rollBackAfterFailure()
            try? rejects.finish()
            throw error
        }
    }

    /// Moves the staged rows into the catalog's stock in productId order, the last row of each
    /// product and store winning; returns how many product–store pairs it wrote.
    private func write(_ connection: Connection) throws -> Int {
        // Replacing drops the table, which frees its pages at once, and counts the stores after;
        // upserting keeps the triggers that count them row by row.
        if mode == .replace { try connection.execute("DROP TABLE IF EXISTS \(StockTable.table)") }
        try connection.execute(StockTable.createStatements)
        if mode == .replace { try connection.execute(StockTable.dropCountTriggers) }
        try connection.execute("""
            INSERT INTO \(StockTable.table) (productId, store, quantity)
              SELECT productId, store, quantity FROM (
                SELECT productId, store, quantity, row_number() OVER (PARTITION BY productId, store ORDER BY rowid DESC) AS newest
                  FROM scratch.rows)
              WHERE newest = 1 ORDER BY productId, store
              ON CONFLICT (productId, store) DO UPDATE SET quantity = excluded.quantity
            """)
        let written = connection.changes
        if mode == .replace {
            try StockTable.recount(connection)
            try connection.execute(StockTable.countTriggers)
        }
        return written
    }
}
