extension ProductSearch {
    /// The most favorites ``favorites(limit:)`` returns by default.
    public static let favoritesLimit = 1_000

    /// The starred products, in productId order (ASCII case ignored), at most `limit` of them.
    public func favorites(limit: Int = favoritesLimit) throws -> [Product] {
        guard try connection.hasTable(CatalogSchema.favoritesTable) else { return [] }
        let statement = try prepared("""
            SELECT p.* FROM \(CatalogSchema.favoritesTable) f JOIN \(CatalogSchema.table) p ON p.productId = f.productId
            ORDER BY f.productId LIMIT ?1
            """)
        return try statement.using {
            try statement.bind(1, Int64(limit))
            return try products(from: statement)
        }
    }
}
