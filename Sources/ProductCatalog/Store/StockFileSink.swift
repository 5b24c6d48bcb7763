/// A catalog file's stock by store (``StockTable``) as a ``StockSink``: the rows wait in a scratch
/// file beside the catalog, without a journal; at the end they go into the live catalog in
/// productId order, in one transaction through the live file's log (``LiveJournal``). So memory
/// stays constant whatever the file's size, searches read the old stock until the commit without
/// waiting for it, and a failed, cancelled or killed import leaves the stock as it was (SQLite
/// ignores a log's pages that no commit ends). Replacing empties the stock first; upserting keeps
/// the rows the file does not name.
public final class StockFileSink: StockSink {
    public let databasePath: String
    private var mode = ImportMode.replace
    private var lock: ImportLock?
    private var connection: Connection?
    private var stageStatement: Statement?
    private var scratchPath: String?
    private var inWrite = false

    public init(databasePath: String) {
        self.databasePath = databasePath
    }

    public var catalogName: String { databasePath }

    /// The catalog's path with `.stock-rejects.csv`.
    public var defaultRejectsPath: String { databasePath + ".stock-rejects.csv" }

    /// The same checks as a product upsert's.
    public func check(output: String) throws {
        try CatalogCompanions(catalogPath: databasePath).check(output: output)
    }

    /// A catalog, a regular file, writable (even by root); its import lock; the scratch file.
    public func claim(mode: ImportMode) throws {
        self.mode = mode
        let databasePath = try ImportDestination(databasePath: self.databasePath, mode: .upsert).path
        lock = try ImportLock(importInto: databasePath)
        let scratchPath = databasePath + ".importing-stock"
        try? FileSystem.removeIfPresent(scratchPath)
        self.scratchPath = scratchPath
        // The catalog is opened without the right to create files, which ATTACH would need.
        _ = try Connection(path: scratchPath, mode: .create)
        let connection = try Connection(path: databasePath, mode: .readWrite)
        self.connection = connection
        connection.setBusyTimeout(milliseconds: 30_000)
        try LiveJournal.prepareWriter(connection)
        try connection.execute("PRAGMA cache_size = -\(64 << 10);")
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
        // Staging writes the scratch file only.
        try connection.begin(.deferred)
        stageStatement = try connection.prepare("""
            INSERT INTO scratch.rows (productKey, storeKey, productId, store, quantity, line, fields) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            """)
    }

    public func stage(_ row: StagedStockRow) throws {
        guard let stage = stageStatement else { preconditionFailure("stage before claim") }
        try stage.using {
            try stage.bind(1, blob: row.productId.utf8.map(ProductIdOrder.fold))
            try stage.bind(2, blob: row.store.utf8.map(ProductIdOrder.fold))
            try stage.bind(3, row.productId)
            try stage.bind(4, row.store)
            try stage.bind(5, row.quantity)
            try stage.bind(6, Int64(row.line))
            try stage.bind(7, utf8: row.fields)
            _ = try stage.step()
        }
    }

    public func endStaging() throws {
        stageStatement = nil
        try connection?.commit()
    }

    /// Moves the staged rows into the catalog's stock in productId order, under the catalog's
    /// write lock: searches read the old stock until the commit. Sorted, the products are looked
    /// up once each, in the catalog's own order (random lookups cost ten times as much: 6.6 s
    /// against 0.6 s for two million rows).
    public func write(_ progress: StockWriteProgress) throws -> Int {
        guard let connection else { preconditionFailure("write before claim") }
        try connection.begin(.immediate)
        inWrite = true
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
        while try sorting ? Self.firstStep(of: sorted, on: connection, progress: progress) : sorted.step() {
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
                    try rejected.withBytes(at: 1) { packed in try progress.unknownProduct(productId, line: line, fields: packed.bindMemory(to: UInt8.self)) }
                }
                continue
            }
            let quantity = sorted.int64(at: 4)
            if sameProduct, sorted.withBytes(at: 1, { $0.elementsEqual(storeKey) }) {
                progress.duplicate()
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
            // Written rows are final at once: the writing rate is measured from them.
            if written & 1023 == 0 { try progress.wrote(written) }
        }
        try progress.wrote(written)
        if mode == .replace {
            try StockTable.writeCounts(inStock.values, connection)
            try connection.execute(StockTable.countTriggers)
        }
        return written
    }

    /// Steps `statement` the first time, which sorts all its rows, sending progress as the sort goes
    /// and stopping it with ``ImportError/cancelled`` when the caller cancels.
    private static func firstStep(of statement: Statement, on connection: Connection, progress: StockWriteProgress) throws -> Bool {
        var cancelled = false
        do {
            defer { progress.startedWriting() }
            return try connection.reportingProgress(every: 1 << 16, {
                do {
                    try progress.tick()
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

    public func counts() throws -> (rows: Int, stores: Int) {
        guard let connection else { preconditionFailure("counts before claim") }
        let rows = Int(try connection.scalarInt("SELECT count(*) FROM \(StockTable.table)") ?? 0)
        return (rows, try StockTable.stores(connection).count)
    }

    public func commit() throws {
        guard let connection else { preconditionFailure("commit before claim") }
        try connection.commit()
        inWrite = false
        try? connection.execute("DETACH DATABASE scratch")
    }

    public func abandon() {
        stageStatement = nil
        if inWrite { try? connection?.rollback() }
        inWrite = false
        connection?.rollBackAfterFailure()
    }

    public func release() {
        stageStatement = nil
        connection = nil
        if let scratchPath { try? FileSystem.removeIfPresent(scratchPath) }
        scratchPath = nil
        lock = nil
    }
}
