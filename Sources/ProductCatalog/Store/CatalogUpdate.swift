/// An upsert written into the live catalog in one transaction, in its write-ahead log (``LiveJournal``).
///
/// Its cost is the rows it changes and their index entries (the triggers keep the facet counts
/// and the edit log exact, and note the products changed), and the word index's segment of those
/// products (``SegmentWriter``), whatever the catalog's size; it needs no disk beyond the log of
/// the pages it changes, folded back into the file when it commits. Readers go on reading the
/// catalog as it was until the commit, and are never held up by it, however large it is; a killed
/// upsert leaves log pages no commit frame follows, which the next connection ignores, so the
/// catalog is exactly as before it.
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
            let connection = try LiveJournal.openWriter(at: livePath, busyTimeout: 30_000)
            try connection.execute("PRAGMA cache_size = -\(Self.cacheKiB(rows: rows))")
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
    /// at most 512 MiB. A product whose title gains a word changes a few pages of 4 KiB (its row,
    /// its index entries, the pages they split), and pages that stay in the cache until the commit
    /// are written to the log once; a larger upsert spills pages to the log as it goes.
    static func cacheKiB(rows: Int) -> Int {
        min(512 << 10, max(64 << 10, rows * 160))
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

    /// Writes the word index's segment of the upsert's changes (``SegmentWriter``), and returns
    /// how many products the catalog will hold; the commit is ``install()``'s.
    func finish() throws -> Int {
        guard let connection else { return 0 }
        return try database {
            try writer?.finish()
            productsDeleted = writer?.deleted ?? 0
            changedNothing = writer?.changedNothing ?? false
            writer = nil
            if !changedNothing {
                let views = IndexViews(connection: connection, prepare: connection.prepare, trustsDataVersion: false)
                postingsWritten = try SegmentWriter.flush(connection, views: views)?.postings ?? 0
            }
            return try Self.productCount(connection)
        }
    }

    /// True when the upsert changed no product, so ``install()`` leaves the file untouched.
    private var changedNothing = false
    /// The postings of the index's segment the upsert wrote.
    private var postingsWritten = 0

    /// Commits: the one moment the catalog changes, all at once. An upsert that changed nothing
    /// rolls back instead, so even the bookkeeping of its deferred words leaves no trace.
    func install() throws {
        guard let connection else { return }
        try database { try changedNothing ? connection.rollback() : connection.commit() }
        // Its share of the merges of the index's segments, then its own pages back into the file:
        // the next write, however small, pays for neither. (The upsert is committed: a merge
        // that fails now is done by a later write.)
        if postingsWritten > 0 {
            _ = try? SegmentMerge.work(connection, views: IndexViews(connection: connection, prepare: connection.prepare, trustsDataVersion: false),
                                       budget: SegmentMerge.budget(afterWriting: postingsWritten))
        }
        LiveJournal.checkpoint(connection)
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
