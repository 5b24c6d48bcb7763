/// One unchanging state of a catalog, for reading all that a search finds (an export): what an
/// import swaps in or an edit commits after it was taken is not seen, so every product the search
/// finds comes once, in order, from one catalog.
///
/// ```swift
/// let snapshot = try await catalog.snapshot()
/// try await snapshot.forEachBatch(of: SavedSearch(text: "", byPrefix: false), typos: true, batchSize: 500) { products in … }
/// await snapshot.close()
/// ```
///
/// A catalog file's snapshot is one read transaction on a connection of its own: a replacing
/// import swaps its new file in meanwhile without waiting (the snapshot reads the old one), while
/// an edit or an upsert written into the file waits for the snapshot to end before it commits.
/// On PostgreSQL it is a `REPEATABLE READ` transaction, which an import's swap waits for. Close
/// it as soon as the reading is done; a snapshot released unclosed ends with its connection.
public protocol CatalogSnapshot: Sendable {
    /// As ``CatalogEngine/products(_:after:limit:)``, in the snapshot.
    func products(_ request: SearchRequest, after cursor: KeysetCursor?, limit: Int) async throws -> SearchPage
    /// Ends the snapshot and closes its connection.
    func close() async
}

/// A snapshot of a catalog that keeps stock by store (``StockKeeping``).
public protocol StockSnapshot: CatalogSnapshot {
    /// As ``StockKeeping/stock(of:)``, in the snapshot.
    func stock(of productIds: [String]) async throws -> [String: [StoreQuantity]]
}

/// A snapshot of a catalog that keeps collections (``CollectionKeeping``).
public protocol CollectionSnapshot: CatalogSnapshot {
    /// As ``CollectionKeeping/members(of:after:limit:)``, in the snapshot.
    func members(of name: String, after productId: String?, limit: Int) async throws -> [String]
}

extension CatalogSnapshot {
    /// Calls `body` with every product `search` finds, `batchSize` at a time, in the search's order:
    /// every variant, as an export writes them.
    public func forEachBatch(of search: SavedSearch, typos: Bool, batchSize: Int, _ body: ([Product]) async throws -> Void) async throws {
        var cursor: KeysetCursor?
        repeat {
            let page = try await products(SearchRequest(search, typos: typos, listing: .variants), after: cursor, limit: batchSize)
            try await body(page.products)
            cursor = page.nextCursor
        } while cursor != nil
    }
}
