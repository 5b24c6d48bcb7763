/// An upsert written into the live catalog in one transaction, under SQLite's rollback journal.
///
/// Its cost is the rows it changes and their index entries (the triggers keep the word index,
/// the facet counts and the edit log exact), whatever the catalog's size, and it needs no disk
/// beyond the journal of the pages it changes. Readers go on reading the catalog as it was until
/// the commit; a killed upsert leaves a hot journal that the next connection able to write rolls
/// back (``CatalogSchema/rollBackInterruptedWrite(_:)`` for readers that cannot), so the catalog
/// is exactly as before it. The live file keeps `journal_mode=DELETE`: the swap of a replacing
/// import relies on no `-wal` beside it. ``SQLiteCatalogSink`` chooses this over ``CatalogBuild``
/// for upserts small beside the catalog (``writesInPlace(rows:catalogProducts:)``).
final class CatalogUpdate {
    let livePath: String
    private var connection: Connection?
    private var inserter: BatchInserter?
    /// Products the catalog held before the upsert.
    private(set) var productsBefore = 0

    /// Opens the live catalog and takes its write lock (waiting up to 30 s for an edit in progress).
    init(livePath: String, maxPages: Int? = nil) throws {
        self.livePath = livePath
        let opened = try database {
            let connection = try Connection(path: livePath, mode: .readWrite)
            connection.setBusyTimeout(milliseconds: 30_000)
            try connection.execute("""
                PRAGMA journal_mode = DELETE;
                PRAGMA synchronous = FULL;
                PRAGMA cache_size = -\(Self.cacheKiB);
                """)
            if let maxPages { _ = try connection.scalarInt("PRAGMA max_page_count = \(maxPages)") }
            try connection.begin(.immediate)
            return connection
        }
        connection = opened
        do {
            productsBefore = try database { try Self.productCount(opened) }
        } catch {
            abandon()
            throw error
        }
    }

    /// The page cache of the transaction: changed pages stay in memory until the commit, so readers
    /// are not shut out by an early write to the file (64 MiB holds the pages of about 10,000
    /// scattered products).
    static let cacheKiB = 64 << 10

    /// Whether an upsert of `rows` into a catalog of `catalogProducts` writes in place: up to 10,000
    /// rows always, and up to a twentieth of the catalog. Past that the copy and swap of
    /// ``CatalogBuild`` is about as fast and never holds readers off while pages are written.
    static func writesInPlace(rows: Int, catalogProducts: Int) -> Bool {
        rows <= max(10_000, catalogProducts / 20)
    }

    /// Adds the extra columns the catalog lacks and prepares inserts that update on conflict.
    func prepare(extraColumns: [String], insertColumns: [String]) throws {
        guard let connection else { return }
        try database {
            try CatalogSchema.upgrade(connection)
            var existing = Set<String>()
            let columns = try connection.prepare("SELECT name FROM pragma_table_info('\(CatalogSchema.table)')")
            while try columns.step() { existing.insert(columns.text(at: 0)?.lowercased() ?? "") }
            for name in extraColumns where !existing.contains(name.lowercased()) {
                try connection.execute("ALTER TABLE \(CatalogSchema.table) ADD COLUMN \(quoteIdentifier(name)) TEXT")
            }
            let updates = insertColumns.dropFirst().map { "\(quoteIdentifier($0)) = excluded.\(quoteIdentifier($0))" }
            inserter = try BatchInserter(
                connection: connection, columns: insertColumns,
                conflictClause: updates.isEmpty
                    ? "ON CONFLICT (productId) DO NOTHING"
                    : "ON CONFLICT (productId) DO UPDATE SET " + updates.joined(separator: ", "))
        }
    }

    /// Writes rows sorted by productId; `parameters` says how each slot of a row is bound.
    func insert(_ rows: RowBatch, parameters: UnsafeBufferPointer<EncodedRow.Parameter>) throws {
        try database { try inserter?.insert(rows, parameters: parameters) }
    }

    /// Settles the word index and returns how many products the catalog will hold; the commit is ``install()``'s.
    func finish() throws -> Int {
        guard let connection else { return 0 }
        return try database {
            inserter = nil
            try WordIndex.settlePending(connection)
            return try Self.productCount(connection)
        }
    }

    /// Commits: the one moment the catalog changes, all at once.
    func install() throws {
        guard let connection else { return }
        try database { try connection.commit() }
        self.connection = nil
    }

    /// Rolls back whatever was written, leaving the catalog as it was.
    func abandon() {
        inserter = nil
        try? connection?.rollback()
        connection = nil
    }

    /// The catalog's products, from the facet counts when it keeps them (a count of ten million
    /// rows takes a second), else counted.
    static func productCount(_ connection: Connection) throws -> Int {
        if let counted = try FacetIndex.productCount(connection) { return counted }
        return Int(try connection.scalarInt("SELECT count(*) FROM \(CatalogSchema.table)") ?? 0)
    }

    /// Runs `body`, naming the catalog in any SQLite error.
    private func database<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw CatalogError.database(path: livePath, error)
        }
    }
}
