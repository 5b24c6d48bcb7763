extension ProductSearch {
    /// The most favorites ``favorites(limit:)`` returns by default.
    public static let favoritesLimit = 1_000

    /// The starred products, in productId order (ASCII case ignored), at most `limit` of them.
    public func favorites(limit: Int = favoritesLimit) throws -> [Product] {
        guard try hasTable(CatalogSchema.favoritesTable) else { return [] }
        let statement = try prepared("""
            SELECT p.* FROM \(CatalogSchema.favoritesTable) f JOIN \(CatalogSchema.table) p ON p.productId = f.productId
            ORDER BY f.productId LIMIT ?1
            """)
        return try statement.using {
            try statement.bind(1, Int64(limit))
            var products: [Product] = []
            let columns = ProductColumn.columns(of: statement)
            while try statement.step() { products.append(ProductColumn.product(from: statement, columns: columns)) }
            return products
        }
    }

    /// The catalog's product types, the most used first, at most `limit` (spellings that differ
    /// only in ASCII case count as one, shown as the first met).
    ///
    /// It reads every product: callers keep the answer until the catalog changes.
    public func productTypes(limit: Int = 500) throws -> [String] {
        let column = ProductField.productType.columnName
        guard try productColumnNames.contains(where: { $0.lowercased() == column.lowercased() }) else { return [] }
        let statement = try prepared("""
            SELECT \(column) FROM \(CatalogSchema.table) WHERE ifnull(\(column), '') <> ''
            GROUP BY \(column) COLLATE NOCASE ORDER BY count(*) DESC, \(column) COLLATE NOCASE LIMIT ?1
            """)
        return try statement.using {
            try statement.bind(1, Int64(limit))
            var types: [String] = []
            while try statement.step() { types.append(statement.text(at: 0) ?? "") }
            return types
        }
    }

    func hasTable(_ name: String) throws -> Bool {
        let statement = try prepared("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1")
        return try statement.using {
            try statement.bind(1, name)
            return try statement.step() && statement.int64(at: 0) > 0
        }
    }
}

extension ProductSearch {
    /// The products of the family `groupId` (variants share it), in productId order, at most `limit`.
    ///
    /// No index serves it (one would slow every import): it reads the catalog until it has
    /// `limit` products, which for a small family means reading every product.
    public func variants(groupId: String, limit: Int = 100) throws -> [Product] {
        let column = ProductField.groupId.columnName
        guard try productColumnNames.contains(where: { $0.lowercased() == column.lowercased() }) else { return [] }
        let statement = try prepared("SELECT * FROM \(CatalogSchema.table) WHERE \(column) = ?1 ORDER BY productId LIMIT ?2")
        return try statement.using {
            try statement.bind(1, groupId)
            try statement.bind(2, Int64(limit))
            var products: [Product] = []
            let columns = ProductColumn.columns(of: statement)
            while try statement.step() { products.append(ProductColumn.product(from: statement, columns: columns)) }
            return products
        }
    }
}
