import Foundation
import NIOCore
import PostgresNIO
import ProductCatalog

/// An import's ``CatalogSink`` on PostgreSQL: `COPY` into a new table, indexed, then renamed over
/// the live one in one transaction; or, for an upsert, `COPY` into a temporary table and one
/// `INSERT … ON CONFLICT DO UPDATE` into the live one.
///
/// ```swift
/// let location = try PostgresLocation(url: "postgres://shop@db.internal/catalog")
/// let summary = try CatalogImporter(options: options).run(source: source, into: PostgresCatalogSink(location: location))
/// ```
///
/// Readers see the old catalog or the new, never half: the new table is invisible until the
/// transaction that renames it commits. An import killed before then leaves the live table as it
/// was and a half-filled `products_importing`, which the next import drops. One import at a time
/// per catalog: each holds a session-level advisory lock, which the server drops when the
/// connection ends, however it ends; edits take it shared and are refused meanwhile. The calls
/// block their thread, as ``CatalogSink`` calls do: run the import on a thread of its own
/// (``CatalogImporter/start(input:into:)`` does).
public final class PostgresCatalogSink: CatalogSink {
    public let location: PostgresLocation
    private var session: PostgresSession?
    private var copy: CopyStream?
    private var mode = ImportMode.replace
    private var columns: [CheckedColumn] = []
    private var extraColumns: [String] = []
    private var written = 0
    private var bufferSize = 1 << 20
    /// True while an upsert's transaction is open, between ``finish()`` and ``install()``.
    private var inTransaction = false
    public private(set) var productsBefore = 0
    public private(set) var editsReplaced = 0

    public init(location: PostgresLocation) {
        self.location = location
    }

    public var catalogName: String { location.description }

    /// `<database>.rejects.csv` (or `<database>.<schema>.rejects.csv`) in the current folder.
    public var defaultRejectsPath: String {
        location.database + (location.schema == "public" ? "" : "." + location.schema) + ".rejects.csv"
    }

    /// In the temporary folder, named for the catalog: the import lock makes it this import's alone.
    public var spillPathPrefix: String {
        let name = "\(location.host)-\(location.port)-\(location.database)-\(location.schema)".map { $0.isLetter || $0.isNumber ? $0 : "_" }
        return FileManager.default.temporaryDirectory.appendingPathComponent("productcatalog-\(String(name)).importing").path
    }

    public func claim(mode: ImportMode) throws {
        self.mode = mode
        let location = self.location
        let session = try blocking { try await PostgresSession.open(location) }
        self.session = session
        do {
            try blocking { try await Self.lock(session) }
            let state = try blocking { try await PostgresCatalogState.read(session) }
            switch state {
            case .catalog: break
            case .missing: if mode == .upsert { throw CatalogError.noCatalog(path: catalogName) }
            case .otherTable: throw PostgresCatalogError.notACatalog(location: catalogName, table: PostgresSchema.table)
            }
        } catch {
            release()
            throw error
        }
    }

    /// Takes the import lock, waiting up to 3 s for edits (which hold it briefly) to finish.
    private static func lock(_ session: PostgresSession) async throws {
        let key = PostgresSchema.lockKey(schema: session.location.schema)
        for _ in 0..<300 {
            if try await session.scalar(PostgresQuery(unsafeSQL: "SELECT pg_try_advisory_lock(\(key))"), as: Bool.self, doing: "take the import lock") == true {
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw CatalogError.importRunning(path: session.location.description)
    }

    public func begin(mode: ImportMode, columns: [CheckedColumn], extraColumns: [String]) throws {
        guard let session else { preconditionFailure("begin before claim") }
        self.columns = columns
        self.extraColumns = extraColumns
        let target = mode == .replace ? PostgresSchema.buildTable : PostgresSchema.upsertTable
        let schema = location.schema
        try blocking {
            if mode == .replace {
                if schema != "public" {
                    try await session.execute("CREATE SCHEMA IF NOT EXISTS \(PostgresSchema.quote(schema))", doing: "create the schema")
                }
                try await session.execute("DROP TABLE IF EXISTS \(PostgresSchema.buildTable)", doing: "drop the table an interrupted import left")
                try await session.execute(PostgresSchema.createTable(target, columns: columns), doing: "create the new catalog table")
            } else {
                try await session.execute("DROP TABLE IF EXISTS pg_temp.\(target)", doing: "drop an earlier upsert's rows")
                try await session.execute(PostgresSchema.createTable(target, columns: columns, temporary: true), doing: "create the upsert's table")
            }
        }
        copy = CopyStream(session: session, table: target)
    }

    public func write(_ rows: CheckedRows) throws {
        guard let copy else { return }
        var buffer = ByteBufferAllocator().buffer(capacity: bufferSize)
        CopyTextEncoder.append(rows, to: &buffer)
        bufferSize = max(bufferSize, buffer.readableBytes)
        try copy.send(buffer)
        written += rows.count
    }

    /// Nothing to do: the rows go into a table nobody reads until ``install()``.
    public func commitAndContinue() throws {}

    public func finish() throws -> Int {
        guard let session else { return 0 }
        try copy?.finish()
        copy = nil
        let columns = self.columns
        let extraColumns = self.extraColumns
        switch mode {
        case .replace:
            try blocking { try await Self.completeBuild(session, columns: columns) }
            return written
        case .upsert:
            inTransaction = true
            let (before, stored) = try blocking { try await Self.upsert(session, columns: columns, extraColumns: extraColumns) }
            productsBefore = before
            return stored
        }
    }

    /// Adds the known fields the file lacked, builds the indexes and marks the table as a catalog.
    ///
    /// The word index takes longest to build; a second connection builds it while this one
    /// builds the productId index and analyzes the table, so the server uses two cores.
    private static func completeBuild(_ session: PostgresSession, columns: [CheckedColumn]) async throws {
        let table = PostgresSchema.buildTable
        let present = Set(columns.map { $0.name.lowercased() })
        for field in PostgresSchema.fieldColumns where !present.contains(field.name.lowercased()) {
            try await session.execute(
                "ALTER TABLE \(table) ADD COLUMN \(PostgresSchema.quote(field.name)) \(PostgresSchema.type(isInteger: field.isInteger))",
                doing: "add the column \(field.name)")
        }
        let helper = try await PostgresSession.open(session.location)
        async let words: Void = buildWordIndex(helper, table: table)
        do {
            try await session.execute("SET maintenance_work_mem = '256MB'", doing: "set the memory for building indexes")
            try await session.execute(
                "CREATE UNIQUE INDEX \(PostgresSchema.keyIndex(table)) ON \(table) (\(PostgresSchema.key))", doing: "index the productIds")
            try await session.execute("ANALYZE \(table)", doing: "analyze the new table")
        } catch {
            // Closing the helper's connection stops its index build.
            await helper.close()
            _ = try? await words
            throw error
        }
        do {
            try await words
        } catch {
            await helper.close()
            throw error
        }
        await helper.close()
        try await session.execute("COMMENT ON TABLE \(table) IS \(PostgresSchema.literal(PostgresSchema.marker))", doing: "mark the new table")
    }

    /// Builds the word index of `table` on `helper`, the second connection of ``completeBuild(_:columns:)``.
    private static func buildWordIndex(_ helper: PostgresSession, table: String) async throws {
        try await helper.execute("SET maintenance_work_mem = '256MB'", doing: "set the memory for building indexes")
        try await helper.execute(
            "CREATE INDEX \(PostgresSchema.wordsIndex(table)) ON \(table) USING gin (\(PostgresSchema.words))", doing: "index the words")
    }

    /// Begins the upsert's transaction and merges the copied rows into the live table; returns
    /// the products before and after.
    private static func upsert(_ session: PostgresSession, columns: [CheckedColumn], extraColumns: [String]) async throws -> (Int, Int) {
        let table = PostgresSchema.table
        try await session.execute("BEGIN", doing: "begin the upsert")
        let before = try await session.scalar("SELECT count(*) FROM products", as: Int.self, doing: "count the products") ?? 0
        var live = try await PostgresCatalogState.columns(session)
        for name in extraColumns where live[name.lowercased()] == nil {
            try await session.execute("ALTER TABLE \(table) ADD COLUMN \(PostgresSchema.quote(name)) text", doing: "add the column \(name)")
            live[name.lowercased()] = name
        }
        let target = columns.map { PostgresSchema.quote(live[$0.name.lowercased()] ?? $0.name) }
        let source = columns.map { PostgresSchema.quote($0.name) }
        let updates = target.dropFirst().map { "\($0) = EXCLUDED.\($0)" }
        try await session.execute("""
            INSERT INTO \(table) (\(target.joined(separator: ", "))) SELECT \(source.joined(separator: ", ")) FROM pg_temp.\(PostgresSchema.upsertTable)
            ON CONFLICT ((\(PostgresSchema.key))) DO \(updates.isEmpty ? "NOTHING" : "UPDATE SET " + updates.joined(separator: ", "))
            """, doing: "add and update the products")
        let after = try await session.scalar("SELECT count(*) FROM products", as: Int.self, doing: "count the products") ?? 0
        return (before, after)
    }

    public func install() throws {
        guard let session else { return }
        switch mode {
        case .replace:
            editsReplaced = try blocking { try await Self.swap(session) }
        case .upsert:
            try blocking { try await session.execute("COMMIT", doing: "commit the upsert") }
            inTransaction = false
        }
    }

    /// Renames the new table over the live one in one transaction, keeping the stars of the
    /// products it still has; returns how many hand edits it replaced.
    private static func swap(_ session: PostgresSession) async throws -> Int {
        let build = PostgresSchema.buildTable
        let live = PostgresSchema.table
        let old = PostgresSchema.replacedTable
        try await session.execute("BEGIN", doing: "begin the swap")
        do {
            try await session.execute("SET LOCAL lock_timeout = '60s'", doing: "set the swap's lock timeout")
            try await session.execute(PostgresSchema.createEdits, doing: "create the edits table")
            try await session.execute(PostgresSchema.createFavorites, doing: "create the favorites table")
            let edits = try await session.scalar(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(PostgresSchema.editsTable)"), as: Int.self, doing: "count the hand edits") ?? 0
            for statement in [
                "DELETE FROM \(PostgresSchema.editsTable)",
                "DROP TABLE IF EXISTS \(old)",
                "ALTER TABLE IF EXISTS \(live) RENAME TO \(old)",
                "DROP TABLE IF EXISTS \(old)",
                "ALTER TABLE \(build) RENAME TO \(live)",
                "ALTER INDEX \(PostgresSchema.keyIndex(build)) RENAME TO \(PostgresSchema.keyIndex(live))",
                "ALTER INDEX \(PostgresSchema.wordsIndex(build)) RENAME TO \(PostgresSchema.wordsIndex(live))",
                """
                DELETE FROM \(PostgresSchema.favoritesTable) f
                WHERE NOT EXISTS (SELECT 1 FROM \(live) p WHERE \(PostgresSchema.key) = f."productKey")
                """,
            ] {
                try await session.execute(statement, doing: "swap the new catalog in")
            }
            try await session.execute("COMMIT", doing: "commit the swap")
            return edits
        } catch {
            try? await session.execute("ROLLBACK", doing: "roll back the swap")
            throw error
        }
    }

    public func abandon() {
        copy?.cancel()
        copy = nil
        guard let session else { return }
        let mode = self.mode
        let inTransaction = self.inTransaction
        self.inTransaction = false
        try? blocking {
            if inTransaction { try? await session.execute("ROLLBACK", doing: "roll back the upsert") }
            if mode == .replace {
                try? await session.execute("DROP TABLE IF EXISTS \(PostgresSchema.buildTable)", doing: "drop the new table")
            }
        }
    }

    public func release() {
        guard let session else { return }
        self.session = nil
        try? blocking { await session.close() }
    }
}
