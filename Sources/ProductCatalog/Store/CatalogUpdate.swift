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
    private var writer: UpsertWriter?
    /// Products the catalog held before the upsert.
    private(set) var productsBefore = 0

    /// Opens the live catalog and takes its write lock (waiting up to 30 s for an edit in
    /// progress), with a page cache sized for an upsert of about `rows` rows.
    init(livePath: String, rows: Int = 0, maxPages: Int? = nil) throws {
        self.livePath = livePath
        let opened = try database {
            let connection = try Connection(path: livePath, mode: .readWrite)
            connection.setBusyTimeout(milliseconds: 30_000)
            try connection.execute("""
                PRAGMA journal_mode = DELETE;
                PRAGMA synchronous = FULL;
                PRAGMA cache_size = -\(Self.cacheKiB(rows: rows));
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

    /// The page cache of an upsert of `rows` rows, in KiB: 160 KiB a product, at least 64 MiB and
    /// at most 512 MiB. A product whose title gains a word changes about 21 pages of 4 KiB (its
    /// row, its index entries, its word row and that row's indexes, and the pages they split),
    /// 90 KiB with the cache's own bookkeeping. Changed pages stay in the cache until the commit,
    /// so searches go on reading the catalog as it was; an upsert that outgrows it (past about
    /// 5,000 scattered products; fewer in a catalog made with 16 KiB pages) writes pages to the
    /// file early, under the exclusive lock, and searches wait for its commit.
    static func cacheKiB(rows: Int) -> Int {
        min(512 << 10, max(64 << 10, rows * 160))
    }

    /// The page cache of a copy being upserted (``CatalogBuild``), in KiB.
    static let cacheKiB = 64 << 10

    /// Whether an upsert of `rows` into a catalog of `catalogProducts` writes in place: up to 2,000
    /// rows, and up to one row in 500 of the catalog. Each changed product rewrites its pages twice
    /// (to the journal, then to the file), so past that the copy and swap of ``CatalogBuild``, which
    /// writes the file once without a journal, is faster. Measured at 16 KiB pages (Benchmarks/upserts.sh:
    /// at a million products, 10,000 took 1.4 to 1.6 times as long in place as copied; at ten
    /// million, 1,000 took a quarter of the copy's time and 10,000 about 0.85 of it) and again at
    /// 4 KiB (Benchmarks/measurements/upserts-20261125.md: in place, 10,000 into a million took 1.4
    /// times as long as the copy, 100,000 into a million 1.2 times, and 100,000 into ten million 1.2 to 1.3 times).
    static func writesInPlace(rows: Int, catalogProducts: Int) -> Bool {
        rows <= max(2_000, catalogProducts / 500)
    }

    /// Readies the upsert's writes (see ``UpsertWriter``); with `deletingMissing` it also deletes
    /// the products the file does not list.
    func prepare(extraColumns: [String], insertColumns: [String], deletingMissing: DeletionOfMissing?) throws {
        guard let connection else { return }
        try database {
            writer = try UpsertWriter(connection: connection, extraColumns: extraColumns, insertColumns: insertColumns,
                                      deletingMissing: deletingMissing)
        }
    }

    /// Writes rows sorted by productId; `parameters` says how each slot of a row is bound.
    func insert(_ rows: RowBatch, parameters: UnsafeBufferPointer<EncodedRow.Parameter>) throws {
        try database { try writer?.write(rows, parameters: parameters) }
    }

    /// Products the file did not list, deleted (0 unless asked); final after ``finish()``.
    private(set) var productsDeleted = 0

    /// Builds the word index anew when enough changed since it was built, and returns how many products the catalog will hold; the commit is ``install()``'s.
    func finish() throws -> Int {
        guard let connection else { return 0 }
        return try database {
            try writer?.finish()
            productsDeleted = writer?.deleted ?? 0
            changedNothing = writer?.changedNothing ?? false
            writer = nil
            let products = try Self.productCount(connection)
            listsRebuilt = try WordLists.compactIfWanted(connection, products: products)
            return products
        }
    }

    /// True when ``finish()`` built the word index and the sort lists anew (``WordLists/compactIfWanted(_:products:)``).
    private(set) var listsRebuilt = false

    /// True when the upsert changed no product, so ``install()`` leaves the file untouched.
    private var changedNothing = false

    /// Commits: the one moment the catalog changes, all at once. An upsert that changed nothing
    /// rolls back instead, so even the bookkeeping of its deferred words leaves no trace.
    func install() throws {
        guard let connection else { return }
        try database { try changedNothing ? connection.rollback() : connection.commit() }
        self.connection = nil
    }

    /// Rolls back whatever was written, leaving the catalog as it was.
    func abandon() {
        writer = nil
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
