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
    /// The import fails once more rows than this were rejected, as a product import does.
    public var maxErrors = ImportOptions().maxErrors
    /// Lets a replacing import empty the stock: from a header-only file, or one whose rows were all rejected.
    public var allowEmpty = false
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
                var reporter = ProgressReporter(source: source, interval: progressInterval, estimate: .stock,
                                                progress: progress, isCancelled: isCancelled)
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
        // The same checks as a product upsert's: a catalog, a regular file, writable (even by root).
        try CatalogCompanions(catalogPath: self.databasePath).check(output: resolvedRejectsPath)
        let databasePath = try ImportDestination(databasePath: self.databasePath, mode: .upsert).path
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
            CREATE TABLE scratch.rows (productKey BLOB NOT NULL, storeKey BLOB NOT NULL, productId TEXT NOT NULL, store TEXT NOT NULL,
              quantity INTEGER NOT NULL, line INTEGER NOT NULL, fields TEXT NOT NULL);
            """)

        let rejects = RejectsFile(path: resolvedRejectsPath, header: header)
        var unknownProducts = 0
        var invalidUTF8 = 0
        /// Writes a record the reading rejects, and stops the import past ``maxErrors``.
        func reject(_ rejection: StockRowRejection, line: Int, fields: CSVRecord.Fields) throws {
            if case .notText(_, .invalidUTF8) = rejection { invalidUTF8 += 1 }
            try rejects.write(line: line, reason: rejection.reason, fields: fields)
            reporter.counts.rowsRejected += 1
            if reporter.counts.rowsRejected > maxErrors {
                throw ImportError.tooManyRejects(limit: maxErrors, line: line, rejectsPath: rejects.path)
            }
        }
        do {
            // Reading: each record checked and staged with its line and fields, in the scratch file only.
            try connection.begin(.deferred)
            let stage = try connection.prepare("""
                INSERT INTO scratch.rows (productKey, storeKey, productId, store, quantity, line, fields) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                """)
            var record = CSVRecord()
            while try ImportReading.readNext(reader, into: &record) {
                reporter.counts.rowsRead += 1
                let line = record.position.line
                if record.count < header.count, record.malformation == nil, record.count > 0 { record.padFields(to: header.count) }
                if let malformation = record.malformation {
                    try record.withFields { try reject(.malformed("the row is not valid CSV: \(malformation)"), line: line, fields: $0) }
                } else if record.count != header.count {
                    try record.withFields { try reject(.malformed("the row has \(record.count) fields; the header has \(header.count)"), line: line, fields: $0) }
                } else if let rejection = record.withFields(Self.textProblem) {
                    try record.withFields { try reject(rejection, line: line, fields: $0) }
                } else {
                    switch layout.row(record.strings) {
                    case .failure(let rejection):
                        try record.withFields { try reject(rejection, line: line, fields: $0) }
                    case .success(let row):
                        try stage.using {
                            try stage.bind(1, blob: row.productId.utf8.map(ProductIdOrder.fold))
                            try stage.bind(2, blob: row.store.utf8.map(ProductIdOrder.fold))
                            try stage.bind(3, row.productId)
                            try stage.bind(4, row.store)
                            try stage.bind(5, row.quantity)
                            try stage.bind(6, Int64(line))
                            try stage.bind(7, utf8: record.withFields(Self.packed))
                            _ = try stage.step()
                        }
                    }
                }
                if reporter.counts.rowsRead & 1023 == 0 { try reporter.reportIfDue(.loading) }
            }
            try connection.commit()
            try reporter.stopIfCancelled()
            if mode == .replace, reporter.counts.rowsRead == 0, !allowEmpty { throw ImportError.noStockRows(source: source.name) }
            reporter.rowsToWrite = reporter.counts.rowsRead - reporter.counts.rowsRejected
            reporter.report(.writing)
            // Writing takes the catalog's write lock: searches read the old stock until the commit.
            try connection.begin(.immediate)
            do {
                let rejectedBefore = reporter.counts.rowsRejected
                var unknown = 0
                let written = try write(connection, reporter: &reporter) { productId, line, fields in
                    try rejects.write(line: line, reason: StockRowRejection.unknownProduct(productId).reason, fields: fields)
                    unknown += 1
                    if rejectedBefore + unknown > maxErrors {
                        throw ImportError.tooManyRejects(limit: maxErrors, line: line, rejectsPath: rejects.path)
                    }
                }
                reporter.counts.rowsRejected += unknown
                unknownProducts = unknown
                try rejects.finish()
                // Every row rejected (unknown products, another encoding): replacing would empty the stock.
                if written == 0, reporter.counts.rowsRejected > 0, !allowEmpty {
                    throw ImportError.nothingImported(rowsRead: reporter.counts.rowsRead, invalidUTF8: invalidUTF8, rejectsPath: rejects.path)
                }
                reporter.report(.finishing)
                let rows = Int(try connection.scalarInt("SELECT count(*) FROM \(StockTable.table)") ?? 0)
                let stores = try StockTable.stores(connection)
                try connection.commit()
                try? connection.execute("DETACH DATABASE scratch")
                let counts = reporter.counts
                let summary = StockImportSummary(
                    format: layout.format, rowsRead: counts.rowsRead, rowsWritten: written, rowsRejected: counts.rowsRejected,
                    unknownProducts: unknownProducts, duplicates: counts.duplicates, stockRows: rows, stores: stores.count,
                    bytesRead: source.bytesRead, elapsed: reporter.elapsed,
                    databasePath: self.databasePath, rejectsPath: counts.rowsRejected > 0 ? rejects.path : nil)
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

    /// Moves the staged rows into the catalog's stock in productId order: a product the catalog
    /// does not hold goes to `rejectUnknown` (its productId, line and fields), and of the rows
    /// naming one product and store the last wins. Sorted, the products are looked up once each,
    /// in the catalog's own order (random lookups cost ten times as much: 6.6 s against 0.6 s for
    /// two million rows). Returns how many product–store pairs it wrote.
    private func write(
        _ connection: Connection, reporter: inout ProgressReporter, rejectUnknown: (String, Int, CSVRecord.Fields) throws -> Void
    ) throws -> Int {
        // Replacing drops the table, which frees its pages at once, and counts the stores after;
        // upserting keeps the triggers that count them row by row.
        if mode == .replace { try connection.execute("DROP TABLE IF EXISTS \(StockTable.table)") }
        try connection.execute(StockTable.createStatements)
        if mode == .replace { try connection.execute(StockTable.dropCountTriggers) }
        // The keys are folded (ASCII lowercase) bytes: sorting them compares bytes, in NOCASE's order, with none of its cost.
        let sorted = try connection.prepare("""
            SELECT productKey, storeKey, productId, store, quantity, rowid FROM scratch.rows ORDER BY productKey, storeKey, rowid
            """)
        // What the sort leaves out, for the rows of a product the catalog does not hold: sorting fewer bytes spills less.
        let rejected = try connection.prepare("SELECT line, fields FROM scratch.rows WHERE rowid = ?1")
        let known = try connection.prepare("SELECT 1 FROM \(CatalogSchema.table) WHERE productId = ?1")
        // Sorted by key then by line, a later row for the same product and store overwrites the earlier.
        let insert = try connection.prepare(mode == .replace
            ? "INSERT OR REPLACE INTO \(StockTable.table) (productId, store, quantity) VALUES (?1, ?2, ?3)"
            : "INSERT INTO \(StockTable.table) (productId, store, quantity) VALUES (?1, ?2, ?3) ON CONFLICT (productId, store) DO UPDATE SET quantity = excluded.quantity")
        var written = 0
        var productKey: [UInt8] = [], storeKey: [UInt8] = []
        var productKnown = false
        // Replacing tallies the products in stock at each store as it writes them, by folded name: counting
        // them from the table after took 143 s for two hundred million rows.
        var inStock: [[UInt8]: (store: String, products: Int)] = [:]
        var pairInStock = false
        // The first step sorts every staged row (seven minutes for two hundred million rows), reporting as it goes.
        var sorting = true
        while try sorting ? Self.firstStep(of: sorted, on: connection, reporter: &reporter) : sorted.step() {
            sorting = false
            let sameProduct = sorted.withBytes(at: 0) { $0.elementsEqual(productKey) }
            if !sameProduct {
                productKey = sorted.withBytes(at: 0) { Array($0) }
                storeKey = []
                productKnown = try sorted.withBytes(at: 2) { id in
                    try known.using {
                        try known.bind(1, utf8: Array(id))
                        return try known.step()
                    }
                }
            }
            guard productKnown else {
                let productId = sorted.text(at: 2) ?? ""
                try rejected.using {
                    try rejected.bind(1, sorted.int64(at: 5))
                    guard try rejected.step() else { return }
                    let line = Int(rejected.int64(at: 0))
                    try rejected.withBytes(at: 1) { packed in try Self.unpacked(packed) { try rejectUnknown(productId, line, $0) } }
                }
                continue
            }
            let quantity = sorted.int64(at: 4)
            if sameProduct, sorted.withBytes(at: 1, { $0.elementsEqual(storeKey) }) {
                reporter.counts.duplicates += 1
                // A later row for the pair decides: the store's tally follows it, even from 0 to some.
                if mode == .replace, pairInStock != (quantity > 0) {
                    inStock[storeKey, default: (sorted.text(at: 3) ?? "", 0)].products += quantity > 0 ? 1 : -1
                }
            } else {
                storeKey = sorted.withBytes(at: 1) { Array($0) }
                written += 1
                if mode == .replace, quantity > 0 { inStock[storeKey, default: (sorted.text(at: 3) ?? "", 0)].products += 1 }
            }
            pairInStock = quantity > 0
            try sorted.withBytes(at: 2) { id in
                try sorted.withBytes(at: 3) { store in
                    try insert.execute { bindings in
                        try bindings.bindText(1, unsafeBytes: id.bindMemory(to: UInt8.self))
                        try bindings.bindText(2, unsafeBytes: store.bindMemory(to: UInt8.self))
                        try bindings.bind(3, quantity)
                    }
                }
            }
            reporter.counts.rowsInserted = written
            if written & 1023 == 0 {
                // Written rows are final at once: the writing rate is measured from them.
                reporter.noteCommit()
                try reporter.reportIfDue(.writing)
            }
        }
        if mode == .replace {
            try StockTable.writeCounts(inStock.values, connection)
            try connection.execute(StockTable.countTriggers)
        }
        return written
    }

    /// Steps `statement` the first time, which sorts all its rows, sending progress as the sort goes
    /// and stopping it with ``ImportError/cancelled`` when the caller cancels.
    private static func firstStep(of statement: Statement, on connection: Connection, reporter: inout ProgressReporter) throws -> Bool {
        var cancelled = false
        do {
            defer { reporter.noteFirstWrite() }
            return try connection.reportingProgress(every: 1 << 16, {
                do {
                    try reporter.reportIfDue(.writing)
                    return true
                } catch {
                    cancelled = true
                    return false
                }
            }) { try statement.step() }
        } catch let error as SQLiteError where cancelled && error.isInterrupted {
            throw ImportError.cancelled
        }
    }

    /// Why a record's fields are not text a catalog keeps (the rules of a product import: valid
    /// UTF-8, no NUL byte), or nil when they are.
    private static func textProblem(_ fields: CSVRecord.Fields) -> StockRowRejection? {
        for column in 0..<fields.count {
            if let problem = TextValidation.problem(in: fields[column]) { return .notText(column: column + 1, problem) }
        }
        return nil
    }

    /// A record's fields, each its byte count (4 bytes, little-endian) then its bytes, for the rejects file.
    private static func packed(_ fields: CSVRecord.Fields) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(fields.allBytes.count + 4 * fields.count)
        for index in 0..<fields.count {
            let field = fields[index]
            withUnsafeBytes(of: UInt32(field.count).littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: field)
        }
        return bytes
    }

    /// Calls `body` with the fields `packed(_:)` made.
    private static func unpacked(_ packed: UnsafeRawBufferPointer, _ body: (CSVRecord.Fields) throws -> Void) throws {
        var fields: [String] = []
        var offset = 0
        while offset + 4 <= packed.count {
            let count = Int(UInt32(littleEndian: packed.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            offset += 4
            fields.append(String(decoding: packed[offset..<min(packed.count, offset + count)], as: UTF8.self))
            offset += count
        }
        try CSVRecord(fields).withFields(body)
    }
}
