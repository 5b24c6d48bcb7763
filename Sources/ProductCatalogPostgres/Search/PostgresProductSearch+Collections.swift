import PostgresNIO
import ProductCatalog

/// The collections of a catalog on PostgreSQL, read as the catalog file's are: by name (ASCII
/// case ignored), manual ones with their counts, their members in productId order.
extension PostgresProductSearch {
    /// Every collection, by name.
    public func collections() async throws -> [ProductCollection] {
        guard try await hasTable(PostgresSchema.collectionsTable) else { return [] }
        return try await collections(where: "", PostgresStatement())
    }

    /// The collection named `name` (ASCII case ignored, spaces around it trimmed), if any.
    public func collection(named name: String) async throws -> ProductCollection? {
        guard try await hasTable(PostgresSchema.collectionsTable) else { return nil }
        var statement = PostgresStatement()
        let key = statement.bind(ProductRules.trimmed(name).asciiLowercased)
        return try await collections(where: "WHERE c.\"nameKey\" = \(key)", statement).first
    }

    /// Up to `limit` productIds of the manual collection `name`, in productId order (ASCII case ignored), after `productId`.
    public func members(of name: String, after productId: String? = nil, limit: Int) async throws -> [String] {
        guard try await hasTable(PostgresSchema.collectionMembersTable) else { return [] }
        var statement = PostgresStatement()
        let collection = statement.bind(ProductRules.trimmed(name).asciiLowercased)
        let after = statement.bind((productId ?? "").asciiLowercased)
        statement.sql = """
            SELECT p."productId" FROM \(PostgresSchema.collectionMembersTable) m JOIN products p ON \(PostgresSchema.key) = m."productKey"
            WHERE m."collectionKey" = \(collection) AND m."productKey" > \(after) ORDER BY m."productKey" LIMIT \(max(0, limit))
            """
        return try await session.rows(statement.query, doing: "read the collection's products").map { try $0.makeRandomAccess()[0].decode(String.self) }
    }

    /// The collections `condition` (on `c`) keeps, by name, each manual one with its members' count.
    private func collections(where condition: String, _ statement: PostgresStatement) async throws -> [ProductCollection] {
        var statement = statement
        statement.sql = """
            SELECT c.name, c.search, (SELECT count(*) FROM \(PostgresSchema.collectionMembersTable) m WHERE m."collectionKey" = c."nameKey")
            FROM \(PostgresSchema.collectionsTable) c \(condition) ORDER BY c."nameKey"
            """
        return try await session.rows(statement.query, doing: "read the collections").map { row in
            let cells = row.makeRandomAccess()
            let name = try cells[0].decode(String.self)
            if let search = try cells[1].decode(String?.self) {
                return ProductCollection(name: name, search: SavedSearch(parameters: search), products: nil)
            }
            return ProductCollection(name: name, search: nil, products: try cells[2].decode(Int.self))
        }
    }
}
