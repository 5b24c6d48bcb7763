import NIOCore
import PostgresNIO
import ProductCatalog

/// A stock import's ``StockSink`` on PostgreSQL: the rows are copied (`COPY`) into a temporary
/// table of the import's session as they are read, then written into `catalog_stock` by one
/// `INSERT … SELECT` in one transaction, under the catalog's import lock.
///
/// ```swift
/// let location = try PostgresLocation(url: "postgres://shop@db.internal/catalog")
/// let importer = StockImporter { PostgresStockSink(location: location) }
/// let summary = try importer.run(source: try FileByteSource(path: "local-inventory.csv"))
/// ```
///
/// The answers are a catalog file's (``StockFileSink``): of the rows naming one product and store
/// (ASCII case ignored) the last read wins; replacing, the stock becomes the file's; upserting,
/// a pair the stock holds keeps its store's spelling and takes the new quantity. Readers see the
/// old stock until the commit, and an import that fails or is killed leaves it as it was (the
/// server rolls back the transaction and drops the temporary table with the session). The calls
/// block their thread: run the import on a thread of its own.
public final class PostgresStockSink: StockSink {
    public let location: PostgresLocation
    private var session: PostgresSession?
    private var copy: CopyStream?
    private var buffer: [UInt8] = []
    private var mode = ImportMode.replace
    private var inTransaction = false
    /// Rows staged so far.
    private var staged = 0

    public init(location: PostgresLocation) {
        self.location = location
    }

    public var catalogName: String { location.description }

    /// `<database>.stock-rejects.csv` (or `<database>.<schema>.stock-rejects.csv`) in the current folder.
    public var defaultRejectsPath: String {
        location.database + (location.schema == "public" ? "" : "." + location.schema) + ".stock-rejects.csv"
    }

    /// The catalog must exist (stock belongs to its products); the import lock; the staging table and its `COPY`.
    public func claim(mode: ImportMode) throws {
        self.mode = mode
        let location = self.location
        let session = try blocking { try await PostgresSession.open(location) }
        self.session = session
        try blocking {
            try await PostgresCatalogSink.lock(session)
            _ = try await PostgresCatalogState.requireCatalog(session)
            try await session.execute("""
                CREATE TEMPORARY TABLE \(PostgresSchema.stagedStockTable) (
                  "productKey" text COLLATE "C" NOT NULL, "storeKey" text COLLATE "C" NOT NULL, "productId" text NOT NULL,
                  store text NOT NULL, quantity bigint NOT NULL, line bigint NOT NULL, fields bytea NOT NULL)
                """, doing: "make the stock's staging table")
        }
        copy = CopyStream(session: session, table: PostgresSchema.stagedStockTable)
        buffer.reserveCapacity(Self.bufferSize + 4096)
    }

    /// The digits of `bytea`'s hex form, made once rather than for each row.
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Bytes of rows sent to the server at a time.
    private static let bufferSize = 1 << 20

    /// Appends the row in `COPY`'s text format: tab-separated, the packed fields as `bytea` in hex.
    public func stage(_ row: StagedStockRow) throws {
        func text(_ value: String) {
            var value = value
            value.withUTF8 { CopyTextEncoder.appendEscaped(UnsafeRawBufferPointer($0), to: &buffer) }
            buffer.append(0x09)
        }
        text(row.productId.asciiLowercased)
        text(row.store.asciiLowercased)
        text(row.productId)
        text(row.store)
        CopyTextEncoder.appendDigits(row.quantity, to: &buffer)
        buffer.append(0x09)
        CopyTextEncoder.appendDigits(Int64(row.line), to: &buffer)
        buffer.append(0x09)
        // `\\x` then two hex digits a byte; the backslash itself escaped for COPY.
        buffer.append(contentsOf: [0x5C, 0x5C, UInt8(ascii: "x")])
        for byte in row.fields {
            buffer.append(Self.hexDigits[Int(byte >> 4)])
            buffer.append(Self.hexDigits[Int(byte & 0x0F)])
        }
        buffer.append(0x0A)
        staged += 1
        if buffer.count >= Self.bufferSize { try send() }
    }

    private func send() throws {
        guard let copy, !buffer.isEmpty else { return }
        try copy.send(ByteBuffer(bytes: buffer))
        buffer.removeAll(keepingCapacity: true)
    }

    public func endStaging() throws {
        try send()
        try copy?.finish()
        copy = nil
    }

    /// One transaction: the rows of unknown products handed back in productId order, then every
    /// pair's last row written. Replacing builds a new table beside the live one, indexes it and
    /// renames it over the live one (readers see the old stock until the commit, and the new
    /// table's indexes are built once, not row by row); upserting writes into the live table.
    public func write(_ progress: StockWriteProgress) throws -> Int {
        guard let session else { preconditionFailure("write before claim") }
        let mode = self.mode
        try progress.tick()
        try blocking {
            try await session.execute("BEGIN", doing: "begin the stock's write")
            // The pairs are sorted once, by the write: in memory rather than in files on the server's disk.
            try await session.execute("SET LOCAL work_mem = '64MB'", doing: "begin the stock's write")
        }
        inTransaction = true
        let stagedTable = "pg_temp.\(PostgresSchema.stagedStockTable)"
        let known = "EXISTS (SELECT 1 FROM \(PostgresSchema.table) p WHERE \(PostgresSchema.key) = s.\"productKey\")"
        // The rows of unknown products, a thousand at a time in the order a file's import meets them.
        var unknown = 0
        var after: (product: String, store: String, line: Int64)?
        repeat {
            var statement = PostgresStatement()
            var sql = "SELECT \"productKey\", \"storeKey\", line, \"productId\", fields FROM \(stagedTable) s WHERE NOT \(known)"
            if let after {
                sql += " AND (\"productKey\", \"storeKey\", line) > (\(statement.bind(after.product)), \(statement.bind(after.store)), \(statement.bind(after.line)))"
            }
            statement.sql = sql + " ORDER BY \"productKey\", \"storeKey\", line LIMIT 1000"
            let query = statement.query
            let rows = try blocking { try await session.rows(query, doing: "find the rows of unknown products") }
            after = nil
            for row in rows {
                let cells = row.makeRandomAccess()
                let line = try cells[2].decode(Int64.self)
                let fields = try cells[4].decode(ByteBuffer.self)
                try progress.unknownProduct(try cells[3].decode(String.self), line: Int(line), fields: fields.readableBytesView)
                after = (try cells[0].decode(String.self), try cells[1].decode(String.self), line)
            }
            unknown += rows.count
            if rows.count < 1000 { after = nil }
        } while after != nil
        progress.startedWriting()
        // Replacing, a pair is its last row; upserting, a new pair is spelled as its first row and
        // takes its last row's quantity, and a pair the stock holds keeps its spelling.
        let store = mode == .replace ? "store" : "first_value(store) OVER (PARTITION BY \"productKey\", \"storeKey\" ORDER BY line)"
        let target = mode == .replace ? PostgresSchema.buildStockTable : PostgresSchema.stockTable
        let conflict = mode == .replace ? "" : "ON CONFLICT (\"productKey\", \"storeKey\") DO UPDATE SET quantity = EXCLUDED.quantity"
        let written = try blocking {
            if mode == .replace {
                try await session.execute("DROP TABLE IF EXISTS \(PostgresSchema.buildStockTable)", doing: "make the new stock table")
                try await session.execute(PostgresSchema.createStockTable(PostgresSchema.buildStockTable), doing: "make the new stock table")
            } else {
                for statement in PostgresSchema.createStock { try await session.execute(statement, doing: "make the stock table") }
            }
            return try await session.scalar(PostgresQuery(unsafeSQL: """
                WITH written AS (
                  INSERT INTO \(target) ("productKey", "storeKey", store, quantity)
                  SELECT DISTINCT ON ("productKey", "storeKey") "productKey", "storeKey", \(store), quantity FROM \(stagedTable) s
                  WHERE \(known) ORDER BY "productKey", "storeKey", line DESC
                  \(conflict) RETURNING 1)
                SELECT count(*) FROM written
                """), as: Int.self, doing: "write the stock") ?? 0
        }
        // Each staged row of a known product is written or gives way to a later one.
        for _ in 0..<max(0, self.staged - unknown - written) { progress.duplicate() }
        try progress.wrote(written)
        try progress.tick()
        try blocking {
            if mode == .replace {
                for statement in PostgresSchema.indexStock(PostgresSchema.buildStockTable) + PostgresSchema.swapStock {
                    try await session.execute(statement, doing: "swap the new stock in")
                }
            }
            for statement in PostgresSchema.recountStockStores { try await session.execute(statement, doing: "count the products at each store") }
        }
        return written
    }

    public func counts() throws -> (rows: Int, stores: Int) {
        guard let session else { preconditionFailure("counts before claim") }
        return try blocking {
            let rows = try await session.scalar(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(PostgresSchema.stockTable)"),
                                                as: Int.self, doing: "count the stock") ?? 0
            let stores = try await session.scalar(PostgresQuery(unsafeSQL: """
                SELECT count(*) FROM \(PostgresSchema.stockStoresTable) WHERE products > 0
                """), as: Int.self, doing: "count the stores") ?? 0
            return (rows, stores)
        }
    }

    public func commit() throws {
        guard let session else { preconditionFailure("commit before claim") }
        try blocking { try await session.execute("COMMIT", doing: "commit the stock") }
        inTransaction = false
    }

    public func abandon() {
        copy?.cancel()
        copy = nil
        guard let session, inTransaction else { return }
        inTransaction = false
        try? blocking { try await session.execute("ROLLBACK", doing: "roll back the stock") }
    }

    /// Closes the session: the server drops the staging table and the import lock with it.
    public func release() {
        copy?.cancel()
        copy = nil
        guard let session else { return }
        self.session = nil
        try? blocking { await session.close() }
    }
}
