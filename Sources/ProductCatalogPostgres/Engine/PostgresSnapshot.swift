import PostgresNIO
import ProductCatalog

/// A catalog on PostgreSQL as one unchanging state (``CatalogSnapshot``): a search on a connection
/// of its own inside a `REPEATABLE READ READ ONLY` transaction, from ``PostgresCatalog/snapshot()``
/// until ``close()``.
///
/// Every page reads the rows as they were at the first statement. The transaction holds the
/// table's shared lock, so an import's swap (a rename that needs the table to itself) waits for
/// the snapshot to end, up to its lock timeout.
final class PostgresSnapshot: CollectionSnapshot, StockSnapshot {
    /// nil when there was no catalog to read: a snapshot of nothing.
    private let search: PostgresProductSearch?

    private init(search: PostgresProductSearch?) {
        self.search = search
    }

    /// Connects to `location` and begins the snapshot's transaction.
    static func open(_ location: PostgresLocation) async throws -> PostgresSnapshot {
        let session = try await PostgresSession.open(location)
        do {
            try await session.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", doing: "begin reading one state of the catalog")
            do {
                _ = try await PostgresCatalogState.requireCatalog(session)
            } catch CatalogError.noCatalog {
                await session.close()
                return PostgresSnapshot(search: nil)
            }
            // The first read of the table fixes the state every later page sees.
            _ = try await session.scalar("SELECT count(*) FROM (SELECT 1 FROM products LIMIT 1) AS first", as: Int.self,
                                         doing: "begin reading one state of the catalog")
            return PostgresSnapshot(search: try PostgresProductSearch(session: session))
        } catch {
            await session.close()
            throw error
        }
    }

    func products(_ request: SearchRequest, after cursor: KeysetCursor?, limit: Int) async throws -> SearchPage {
        guard let search else { return SearchPage(products: [], nextCursor: nil) }
        return try await search.page(request, after: cursor, limit: limit)
    }

    /// The members of the manual collection `name`, in the snapshot.
    func members(of name: String, after productId: String?, limit: Int) async throws -> [String] {
        guard let search else { return [] }
        return try await search.members(of: name, after: productId, limit: limit)
    }

    /// The stock of `productIds` by store, in the snapshot.
    func stock(of productIds: [String]) async throws -> [String: [StoreQuantity]] {
        guard let search else { return [:] }
        return try await search.stock(of: productIds)
    }

    /// Ends the transaction (it only read) and closes the connection.
    func close() async {
        guard let search else { return }
        try? await search.session.execute("COMMIT", doing: "end the snapshot")
        await search.close()
    }
}
