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
    /// A replacing import's second connection: the second `COPY`, then the word index.
    private var helper: PostgresSession?
    /// The `COPY` streams, which take the batches in turn: one per connection.
    private var copies: [CopyStream] = []
    private var batches = 0
    private var encoder: CopyTextEncoder?
    private var mode = ImportMode.replace
    private var columns: [CheckedColumn] = []
    private var extraColumns: [String] = []
    private var written = 0
    private var bufferSize = 1 << 20
    /// True while an upsert's transaction is open, between ``finish()`` and ``install()``.
    private var inTransaction = false
    public private(set) var productsBefore = 0
    public private(set) var productsDeleted = 0
    /// Whether the upsert deletes the products its file does not list, and which it spares.
    private var deletingMissing: DeletionOfMissing?
    public private(set) var editsReplaced = 0
    /// The place after the last product a replacing import wrote.
    private var nextPlace: Int64 = 1

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
            case .earlierLayout: if mode == .upsert { throw PostgresCatalogError.earlierLayout(location: catalogName) }
            case .otherTable: throw PostgresCatalogError.notACatalog(location: catalogName, table: PostgresSchema.table)
            }
        } catch {
            release()
            throw error
        }
    }

    /// Takes the import lock, waiting up to 3 s for edits (which hold it briefly) to finish.
    static func lock(_ session: PostgresSession) async throws {
        let key = PostgresSchema.lockKey(schema: session.location.schema)
        for _ in 0..<300 {
            if try await session.scalar(PostgresQuery(unsafeSQL: "SELECT pg_try_advisory_lock(\(key))"), as: Bool.self, doing: "take the import lock") == true {
                return
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw CatalogError.importRunning(path: session.location.description)
    }

    public func begin(mode: ImportMode, columns: [CheckedColumn], extraColumns: [String], rows: Int, rowLengths: RowLengths, deletingMissing: DeletionOfMissing?) throws {
        self.deletingMissing = deletingMissing
        guard let session else { preconditionFailure("begin before claim") }
        let names = Set(columns.map { $0.name.lowercased() })
        let columns = columns.map { CheckedColumn(name: PostgresSchema.storedName($0.name, among: names), isInteger: $0.isInteger) }
        self.columns = columns
        self.extraColumns = extraColumns.map { PostgresSchema.storedName($0, among: names) }
        // A replacing import places its rows in the order they come, productId order; an upsert's get theirs when stored.
        encoder = try CopyTextEncoder(columns: columns, firstPlace: mode == .replace ? 1 : nil)
        let target = mode == .replace ? PostgresSchema.buildTable : PostgresSchema.upsertTable
        let schema = location.schema
        try blocking {
            if mode == .replace {
                if schema != "public" {
                    try await session.execute("CREATE SCHEMA IF NOT EXISTS \(PostgresSchema.quote(schema))", doing: "create the schema")
                }
                try await session.execute("DROP TABLE IF EXISTS \(PostgresSchema.buildTable)", doing: "drop the table an interrupted import left")
                try await session.execute("DROP TABLE IF EXISTS \(PostgresSchema.buildTermsTable)", doing: "drop the terms an interrupted import left")
                try await session.execute(PostgresSchema.createTable(target, columns: columns), doing: "create the new catalog table")
            } else {
                try await session.execute("DROP TABLE IF EXISTS pg_temp.\(target)", doing: "drop an earlier upsert's rows")
                try await session.execute(PostgresSchema.createTable(target, columns: columns, temporary: true), doing: "create the upsert's table")
            }
        }
        copies = [CopyStream(session: session, table: target)]
        if mode == .replace {
            // A second COPY on a second connection: the server parses the rows on two cores.
            let location = self.location
            let helper = try blocking { try await PostgresSession.open(location) }
            self.helper = helper
            copies.append(CopyStream(session: helper, table: target))
        }
    }

    public func write(_ rows: CheckedRows) throws {
        guard !copies.isEmpty, var encoder else { return }
        defer { self.encoder = encoder }
        let copy = copies[batches % copies.count]
        batches += 1
        var buffer = ByteBufferAllocator().buffer(capacity: bufferSize)
        try encoder.append(rows, to: &buffer)
        bufferSize = max(bufferSize, buffer.readableBytes)
        try copy.send(buffer)
        written += rows.count
    }

    /// Nothing to do: the rows go into a table nobody reads until ``install()``.
    public func commitAndContinue() throws {}

    public func finish() throws -> Int {
        guard let session else { return 0 }
        do {
            for copy in copies { try copy.finish() }
        } catch {
            copies.forEach { $0.cancel() }
            throw error
        }
        copies = []
        let columns = self.columns
        let extraColumns = self.extraColumns
        switch mode {
        case .replace:
            guard let helper else { preconditionFailure("a replacing import has a second connection") }
            try blocking { try await Self.completeBuild(session, helper: helper, columns: columns) }
            nextPlace = Int64(written) + 1
            return written
        case .upsert:
            inTransaction = true
            let deletingMissing = self.deletingMissing
            let (before, deleted, stored) = try blocking {
                try await Self.upsert(session, columns: columns, extraColumns: extraColumns, deletingMissing: deletingMissing)
            }
            productsBefore = before
            productsDeleted = deleted
            let words = Self.wordColumns(in: columns)
            if words == .some { try refoldUpsertedWords(session) }
            if words != .none { try blocking { try await Self.listUpsertedTerms(session) } }
            return stored
        }
    }

    /// Adds the known fields the file lacked, builds the indexes and marks the table as a catalog.
    ///
    /// The word index takes longest to build; `helper`, the second connection, builds it while
    /// this one builds the productId index and analyzes the table, so the server uses two cores.
    private static func completeBuild(_ session: PostgresSession, helper: PostgresSession, columns: [CheckedColumn]) async throws {
        let table = PostgresSchema.buildTable
        let present = Set(columns.map { $0.name.lowercased() })
        for field in PostgresSchema.fieldColumns where !present.contains(field.name.lowercased()) {
            try await session.execute(
                "ALTER TABLE \(table) ADD COLUMN \(PostgresSchema.quote(field.name)) \(PostgresSchema.type(isInteger: field.isInteger))",
                doing: "add the column \(field.name)")
        }
        async let words: Void = buildWordIndex(helper, table: table)
        do {
            try await session.execute("SET maintenance_work_mem = '256MB'", doing: "set the memory for building indexes")
            // Parallel workers for this index would take the core the word index is built on:
            // 1M rows, both at once, 2.0 s with them and 1.1 s without on two cores.
            try await session.execute("SET max_parallel_maintenance_workers = 0", doing: "build the productId index on one core")
            try await session.execute(
                "CREATE UNIQUE INDEX \(PostgresSchema.keyIndex(table)) ON \(table) (\(PostgresSchema.key))", doing: "index the productIds")
            try await session.execute("ANALYZE \(table)", doing: "analyze the new table")
            try await session.execute(PostgresSchema.createTitleKeyIndex(table), doing: "index the title keys")
            try await session.execute(PostgresSchema.createFamilyIndex(table), doing: "index the families")
            try await listTerms(session, of: table)
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
        try await session.execute("COMMENT ON TABLE \(table) IS \(PostgresSchema.literal(PostgresSchema.marker))", doing: "mark the new table")
    }

    /// Lists every word of the new table `table` with the products holding it (`ts_stat`), in the new term list.
    private static func listTerms(_ session: PostgresSession, of table: String) async throws {
        let terms = PostgresSchema.buildTermsTable
        for statement in [
            "DROP TABLE IF EXISTS \(terms)",
            PostgresSchema.createTerms(terms),
            "INSERT INTO \(terms) (term, docs) SELECT word, ndoc FROM ts_stat('SELECT \(PostgresSchema.wordsColumn) FROM \(table)')",
            PostgresSchema.keyTerms(terms),
        ] {
            try await session.execute(statement, doing: "list the words")
        }
    }

    /// Adds the words of the products an upsert wrote to the term list, each counted once more
    /// per product (as a catalog file's writers count them), in the upsert's transaction.
    private static func listUpsertedTerms(_ session: PostgresSession) async throws {
        let upserted = """
            SELECT \(PostgresSchema.wordsColumn) FROM \(PostgresSchema.table) \
            WHERE \(PostgresSchema.key) IN (SELECT lower("productId") FROM pg_temp.\(PostgresSchema.upsertTable))
            """
        try await session.execute("""
            INSERT INTO \(PostgresSchema.termsTable) (term, docs) SELECT word, ndoc FROM ts_stat(\(PostgresSchema.literal(upserted)))
            ON CONFLICT (term) DO UPDATE SET docs = \(PostgresSchema.termsTable).docs + EXCLUDED.docs
            """, doing: "list the products' words")
        try await session.execute(PostgresSchema.bumpTermsVersion, doing: "list the products' words")
    }

    /// Builds the word index of `table` and the index of its word rows on `helper`, the second connection of ``completeBuild(_:helper:columns:)``.
    private static func buildWordIndex(_ helper: PostgresSession, table: String) async throws {
        try await helper.execute("SET maintenance_work_mem = '256MB'", doing: "set the memory for building indexes")
        try await helper.execute(PostgresSchema.createWordsIndex(table), doing: "index the words")
        // Here rather than on the first connection, which also lists the terms: 1M rows, about 0.3 s each.
        try await helper.execute(PostgresSchema.createWordRowIndex(table), doing: "index the word rows")
    }

    /// Begins the upsert's transaction and merges the copied rows into the live table; returns
    /// the products before, deleted (with `deletingMissing`, those the file does not list) and after.
    private static func upsert(_ session: PostgresSession, columns: [CheckedColumn], extraColumns: [String],
                               deletingMissing: DeletionOfMissing?) async throws -> (Int, Int, Int) {
        let table = PostgresSchema.table
        try await session.execute("BEGIN", doing: "begin the upsert")
        // A catalog made by an earlier build gets the fields' columns and the families' index it lacks (a no-op after).
        try await PostgresCatalogState.addMissingFieldColumns(session)
        try await session.execute(PostgresSchema.createFamilyIndex(table), doing: "index the families")
        let before = try await session.scalar("SELECT count(*) FROM products", as: Int.self, doing: "count the products") ?? 0
        var live = try await PostgresCatalogState.columns(session)
        for name in extraColumns where live[name.lowercased()] == nil {
            try await session.execute("ALTER TABLE \(table) ADD COLUMN \(PostgresSchema.quote(name)) text", doing: "add the column \(name)")
            live[name.lowercased()] = name
        }
        let (words, row, titleKey) = (PostgresSchema.wordsColumn, PostgresSchema.wordRowColumn, PostgresSchema.titleKeyColumn)
        let fields = columns.map { PostgresSchema.quote(live[$0.name.lowercased()] ?? $0.name) }
        let target = fields + [words, row, titleKey]
        // Added products take the next places, in productId order; a changed one keeps its place.
        let nextPlace = try await session.scalar(PostgresQuery(unsafeSQL: """
            SELECT coalesce((SELECT value FROM \(PostgresSchema.metaTable) WHERE name = 'nextPlace'),
                            (SELECT max(\(row) & \(WordFolder.placeMask)) + 1 FROM \(table)), 1)
            """), as: Int64.self, doing: "read the next place") ?? 1
        let source = columns.map { PostgresSchema.quote($0.name) }
            + [words, "\(row) + \(nextPlace) - 1 + row_number() OVER (ORDER BY lower(\"productId\"))", titleKey]
        // The copied words are an added product's own, and a changed one's when the file has all
        // their fields; with none, a changed product keeps its words; with some, they are refolded
        // after. A title changes the class and key.
        let wordColumns = wordColumns(in: columns)
        var updates = fields.dropFirst().map { "\($0) = EXCLUDED.\($0)" }
        if wordColumns == .all { updates.append("\(words) = EXCLUDED.\(words)") }
        if columns.contains(where: { $0.name.lowercased() == ProductField.title.columnName.lowercased() }) {
            let mask = WordFolder.placeMask
            updates += ["\(row) = (EXCLUDED.\(row) & ~\(mask)) | (\(table).\(row) & \(mask))", "\(titleKey) = EXCLUDED.\(titleKey)"]
        }
        let upserted = try await session.scalar(PostgresQuery(unsafeSQL: "SELECT count(*) FROM pg_temp.\(PostgresSchema.upsertTable)"),
                                                as: Int64.self, doing: "count the products") ?? 0
        try await session.execute("""
            INSERT INTO \(table) (\(target.joined(separator: ", "))) SELECT \(source.joined(separator: ", ")) FROM pg_temp.\(PostgresSchema.upsertTable)
            ON CONFLICT ((\(PostgresSchema.key))) DO \(updates.isEmpty ? "NOTHING" : "UPDATE SET " + updates.joined(separator: ", "))
            """, doing: "add and update the products")
        try await session.execute(PostgresSchema.createMeta, doing: "create the catalog's counters")
        try await session.execute(PostgresSchema.setMeta("nextPlace", String(nextPlace + upserted)),
                                  doing: "count the places")
        var deleted = 0
        if let deletingMissing {
            // The products the rejected rows name are spared, as on SQLite.
            var delete = PostgresStatement()
            let spared = delete.bind(deletingMissing.spared)
            delete.sql = """
                WITH gone AS (
                  DELETE FROM \(table) p WHERE NOT EXISTS (
                    SELECT 1 FROM pg_temp.\(PostgresSchema.upsertTable) u WHERE lower(u."productId") = lower(p."productId"))
                  AND NOT lower(p."productId") = ANY (SELECT lower(id) FROM unnest(\(spared)::text[]) AS s(id))
                  RETURNING 1)
                SELECT count(*) FROM gone
                """
            deleted = try await session.scalar(delete.query, as: Int.self, doing: "delete the products the file does not list") ?? 0
            if deleted > 0 {
                // Their places in collections and their stock go with them, as a catalog file's triggers take them.
                for statement in PostgresSchema.createCollections + [PostgresSchema.dropGoneMembers, PostgresSchema.dropGoneStock] {
                    try await session.execute(statement, doing: "drop the deleted products from their collections")
                }
            }
        }
        let after = try await session.scalar("SELECT count(*) FROM products", as: Int.self, doing: "count the products") ?? 0
        return (before, deleted, after)
    }

    /// The product fields whose words the word index holds.
    private static let wordFields = Set(WordFolder.indexedFields.map { $0.columnName.lowercased() })

    private enum WordColumns { case none, some, all }

    /// How many of the title, brand and type `columns` hold: for an upsert, whether the words of
    /// the products it changes stay, are the file's, or must be folded from old and new fields.
    private static func wordColumns(in columns: [CheckedColumn]) -> WordColumns {
        switch columns.filter({ wordFields.contains($0.name.lowercased()) }).count {
        case 0: .none
        case wordFields.count: .all
        default: .some
        }
    }

    /// Sets the words of every product the upsert added or changed from their fields as they now
    /// are, a thousand products at a time, in the upsert's transaction: for a file with some of
    /// the title, brand and type, whose products keep the fields it lacks.
    private func refoldUpsertedWords(_ session: PostgresSession) throws {
        let folder = try WordFolder()
        let key = PostgresSchema.key
        let upserted = "pg_temp.\(PostgresSchema.upsertTable)"
        try blocking {
            try await session.execute("""
                DECLARE catalog_refold NO SCROLL CURSOR FOR
                SELECT \(key), p.title, p.brand, p."productType", p.\(PostgresSchema.wordRowColumn) FROM \(PostgresSchema.table) p
                WHERE \(key) IN (SELECT lower("productId") FROM \(upserted))
                """, doing: "read the changed products' words")
        }
        while true {
            let rows = try blocking {
                try await session.rows("FETCH 1000 FROM catalog_refold", doing: "read the changed products' words").map { row in
                    let cells = row.makeRandomAccess()
                    return (try cells[0].decode(String.self), try (1...3).map { try cells[$0].decode(String?.self) }, try cells[4].decode(Int64.self))
                }
            }
            if rows.isEmpty { break }
            let keys = rows.map(\.0)
            let vectors = try rows.map { _, fields, _ in
                try PostgresSchema.tsvector(title: fields[0].map { try folder.words(in: $0) } ?? [],
                                            other: fields.dropFirst().compactMap { $0 }.flatMap { try folder.words(in: $0) })
            }
            let shapes = try rows.map { _, fields, row in try folder.titleShape(fields[0] ?? "", place: row & WordFolder.placeMask) }
            var update = PostgresStatement()
            update.sql = """
                UPDATE \(PostgresSchema.table) p SET \(PostgresSchema.wordsColumn) = v.words::tsvector,
                  \(PostgresSchema.wordRowColumn) = v.row, \(PostgresSchema.titleKeyColumn) = v.title_key
                FROM unnest(\(update.bind(keys))::text[], \(update.bind(vectors))::text[], \(update.bind(shapes.map(\.wordRow)))::bigint[],
                            \(update.bind(shapes.map(\.key)))::bigint[]) AS v(key, words, row, title_key) WHERE \(key) = v.key
                """
            try blocking { [update] in try await session.execute(update, doing: "store the changed products' words") }
        }
        try blocking { try await session.execute("CLOSE catalog_refold", doing: "read the changed products' words") }
    }

    public func install() throws {
        guard let session else { return }
        switch mode {
        case .replace:
            let nextPlace = self.nextPlace
            editsReplaced = try blocking { try await Self.swap(session, nextPlace: nextPlace) }
        case .upsert:
            try blocking { try await session.execute("COMMIT", doing: "commit the upsert") }
            inTransaction = false
        }
    }

    /// Renames the new table over the live one in one transaction, keeping the stars of the
    /// products it still has; returns how many hand edits it replaced.
    private static func swap(_ session: PostgresSession, nextPlace: Int64) async throws -> Int {
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
                "ALTER INDEX \(PostgresSchema.titleKeyIndex(build)) RENAME TO \(PostgresSchema.titleKeyIndex(live))",
                "ALTER INDEX \(PostgresSchema.wordRowIndex(build)) RENAME TO \(PostgresSchema.wordRowIndex(live))",
                "ALTER INDEX \(PostgresSchema.familyIndex(build)) RENAME TO \(PostgresSchema.familyIndex(live))",
                "DROP TABLE IF EXISTS \(PostgresSchema.termsTable)",
                "ALTER TABLE \(PostgresSchema.buildTermsTable) RENAME TO \(PostgresSchema.termsTable)",
                """
                ALTER TABLE \(PostgresSchema.termsTable) RENAME CONSTRAINT \(PostgresSchema.termsKey(PostgresSchema.buildTermsTable)) \
                TO \(PostgresSchema.termsKey(PostgresSchema.termsTable))
                """,
                PostgresSchema.createMeta,
                PostgresSchema.setMeta("nextPlace", String(nextPlace)),
                PostgresSchema.bumpTermsVersion,
                """
                DELETE FROM \(PostgresSchema.favoritesTable) f
                WHERE NOT EXISTS (SELECT 1 FROM \(live) p WHERE \(PostgresSchema.key) = f."productKey")
                """,
            ] + PostgresSchema.createCollections + [PostgresSchema.dropGoneMembers, PostgresSchema.dropGoneStock] {
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
        copies.forEach { $0.cancel() }
        copies = []
        closeHelper()
        guard let session else { return }
        let mode = self.mode
        let inTransaction = self.inTransaction
        self.inTransaction = false
        try? blocking {
            if inTransaction { try? await session.execute("ROLLBACK", doing: "roll back the upsert") }
            if mode == .replace {
                try? await session.execute("DROP TABLE IF EXISTS \(PostgresSchema.buildTable)", doing: "drop the new table")
                try? await session.execute("DROP TABLE IF EXISTS \(PostgresSchema.buildTermsTable)", doing: "drop the new terms")
            }
        }
    }

    public func release() {
        closeHelper()
        guard let session else { return }
        self.session = nil
        try? blocking { await session.close() }
    }

    /// Closes the second connection, which stops a `COPY` or index build still running on it.
    private func closeHelper() {
        guard let helper else { return }
        self.helper = nil
        try? blocking { await helper.close() }
    }
}
