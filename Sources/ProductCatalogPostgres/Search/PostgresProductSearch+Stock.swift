import PostgresNIO
import ProductCatalog

/// The stock by store of a catalog on PostgreSQL, read as a catalog file's is: each product's
/// quantity at each store (ASCII case ignored), the stores with a product in stock, and whether
/// the catalog keeps stock at all (a stock import made its table).
extension PostgresProductSearch {
    /// True when the catalog keeps stock by store. Asked of the server until the answer is yes,
    /// which stays: a stock import by another process shows at the next search.
    func keepsStock() async throws -> Bool {
        if stockSeen.withLock({ $0 }) { return true }
        let kept = try await hasTable(PostgresSchema.stockTable)
        if kept { stockSeen.withLock { $0 = true } }
        return kept
    }

    /// Notes whether the catalog keeps stock, when `filters` ask for stock, so that
    /// ``filterConditions(_:in:)`` reads the stock table only when there is one.
    func noteStock(_ filters: SearchFilters) async throws {
        if filters.inStock || !filters.stores.isEmpty { _ = try await keepsStock() }
    }

    /// `AND …` for each condition of `filters`, as this catalog keeps them (see ``PostgresFilters``).
    func filterConditions(_ filters: SearchFilters, in statement: inout PostgresStatement) -> String {
        PostgresFilters.conditions(filters, keepsStock: stockSeen.withLock { $0 }, in: &statement)
    }

    /// The stores of each of `productIds` and the quantity at each, by store (ASCII case
    /// ignored), keyed by the productId as given; products without stock are left out.
    public func stock(of productIds: [String]) async throws -> [String: [StoreQuantity]] {
        guard !productIds.isEmpty, try await keepsStock() else { return [:] }
        var statement = PostgresStatement()
        let keys = statement.bind(productIds.map(\.asciiLowercased))
        statement.sql = """
            SELECT "productKey", store, quantity FROM \(PostgresSchema.stockTable)
            WHERE "productKey" = ANY(\(keys)) ORDER BY "productKey", "storeKey"
            """
        var byKey: [String: [StoreQuantity]] = [:]
        for row in try await session.rows(statement.query, doing: "read the stock") {
            let cells = row.makeRandomAccess()
            byKey[try cells[0].decode(String.self), default: []].append(
                StoreQuantity(store: try cells[1].decode(String.self), quantity: try cells[2].decode(Int64.self)))
        }
        var stock: [String: [StoreQuantity]] = [:]
        for productId in productIds { if let stores = byKey[productId.asciiLowercased] { stock[productId] = stores } }
        return stock
    }

    /// The stores with at least one product in stock, by name (ASCII case ignored), each spelled
    /// as its first product in stock in productId order spells it: one seek of the stock's store
    /// index per store, whatever the number of rows (a catalog file reads its own the same way).
    public func stores() async throws -> [String] {
        guard try await keepsStock() else { return [] }
        let rows = try await session.rows(PostgresQuery(unsafeSQL: """
            WITH RECURSIVE next(key) AS (
              SELECT min("storeKey") FROM \(PostgresSchema.stockTable) WHERE quantity > 0
              UNION ALL
              SELECT (SELECT min("storeKey") FROM \(PostgresSchema.stockTable) WHERE quantity > 0 AND "storeKey" > next.key)
              FROM next WHERE next.key IS NOT NULL)
            SELECT \(Self.spelling("next.key")) FROM next WHERE key IS NOT NULL
            """), doing: "list the stores")
        return try rows.map { try $0.makeRandomAccess()[0].decode(String.self) }
    }

    /// The products in stock at each store with any, spelled as ``stores()`` spells them, from the
    /// counts each stock import keeps (``PostgresSchema/stockStoresTable``); none without stock.
    func storeCounts() async throws -> [(store: String, products: Int)] {
        guard try await keepsStock() else { return [] }
        let counted = try await hasTable(PostgresSchema.stockStoresTable)
        let rows = try await session.rows(PostgresQuery(unsafeSQL: counted
            ? "SELECT \(Self.spelling("t.\"storeKey\"")), t.products FROM \(PostgresSchema.stockStoresTable) t WHERE t.products > 0"
            : """
              SELECT (array_agg(store ORDER BY "productKey"))[1], count(*) FROM \(PostgresSchema.stockTable)
              WHERE quantity > 0 GROUP BY "storeKey"
              """), doing: "count the products in stock at each store")
        return try rows.map { row in
            let cells = row.makeRandomAccess()
            return (try cells[0].decode(String.self), try cells[1].decode(Int.self))
        }
    }

    /// The store `key` (a folded name) as its first product in stock, in productId order, spells it.
    private static func spelling(_ key: String) -> String {
        """
        (SELECT s.store FROM \(PostgresSchema.stockTable) s WHERE s."storeKey" = \(key) AND s.quantity > 0 ORDER BY s."productKey" LIMIT 1)
        """
    }
}
