extension ProductSearch {
    /// The catalog's product types, the most used first, at most `limit` (spellings that differ
    /// only in ASCII case count as one, shown as the first met).
    ///
    /// It reads every product: callers keep the answer until the catalog changes.
    public func productTypes(limit: Int = 500) throws -> [String] {
        let column = ProductField.productType.columnName
        guard try hasColumn(.productType) else { return [] }
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
}
