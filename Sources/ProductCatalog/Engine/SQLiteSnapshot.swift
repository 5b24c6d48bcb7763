/// A catalog file's ``CatalogSnapshot``: a read transaction on a connection of its own, on a
/// queue of its own, from ``SQLiteCatalog/snapshot()`` until ``close()``.
///
/// The connection keeps reading the file it opened, so a replacing import that renames a new file
/// over the path meanwhile does not touch what it reads; the transaction keeps writers of the same
/// file (edits, upserts in place) from committing until it ends.
final class SQLiteSnapshot: StockSnapshot, CollectionSnapshot {
    private let queue: DatabaseQueue<ProductSearch?>

    private init(queue: DatabaseQueue<ProductSearch?>) {
        self.queue = queue
    }

    /// Opens the catalog at `databasePath` and begins the snapshot's read transaction.
    static func open(databasePath: String) async throws -> SQLiteSnapshot {
        let queue = DatabaseQueue<ProductSearch?>(label: "sqlite-catalog.snapshot", state: nil)
        try await queue.run { search in
            search = try Self.begin(databasePath)
        }
        return SQLiteSnapshot(queue: queue)
    }

    /// A search on the file at `databasePath` inside a read transaction that holds its shared lock
    /// (nil when there is no catalog yet: a snapshot of nothing); a hot journal a killed writer
    /// left is rolled back first, as readers do.
    private static func begin(_ databasePath: String) throws -> ProductSearch? {
        do {
            return try beginOnce(databasePath)
        } catch let error as SQLiteError where error.isHotJournal {
            try CatalogSchema.rollBackInterruptedWrite(databasePath)
            return try beginOnce(databasePath)
        }
    }

    private static func beginOnce(_ databasePath: String) throws -> ProductSearch? {
        switch try CatalogSchema.kind(ofFileAt: databasePath) {
        case .missing, .empty: return nil
        case .catalog, .otherDatabase, .notADatabase: break
        }
        let search = try ProductSearch(databasePath: databasePath)
        try search.connection.begin(.deferred)
        // The first read takes the shared lock: from here on the transaction sees one state.
        _ = try search.connection.scalarInt("SELECT count(*) FROM sqlite_master")
        return search
    }

    func products(_ request: SearchRequest, after cursor: KeysetCursor?, limit: Int) async throws -> SearchPage {
        try await reading(SearchPage(products: [], nextCursor: nil)) { try $0.page(request, after: cursor, limit: limit) }
    }

    func stock(of productIds: [String]) async throws -> [String: [StoreQuantity]] {
        try await reading([:]) { try $0.stock(of: productIds) }
    }

    func members(of name: String, after productId: String?, limit: Int) async throws -> [String] {
        try await reading([]) { try $0.members(of: name, after: productId, limit: limit) }
    }

    func close() async {
        _ = try? await queue.run { search in
            try? search?.connection.rollback()
            search = nil
        }
    }

    /// `body`'s answer from the snapshot's search; `empty` when there is no catalog (or the snapshot was closed).
    private func reading<T: Sendable>(_ empty: T, _ body: @escaping @Sendable (ProductSearch) throws -> T) async throws -> T {
        try await queue.run { search in try search.map(body) ?? empty }
    }
}
