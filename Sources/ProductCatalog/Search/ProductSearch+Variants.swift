extension ProductSearch {
    /// The products of the family `groupId` (variants share it), in productId order, at most `limit`.
    ///
    /// ``FamilyIndex`` finds them: a family costs what its own variants cost, at any catalog size.
    public func variants(groupId: String, limit: Int = 500) throws -> [Product] {
        let column = ProductField.groupId.columnName
        guard try hasColumn(.groupId) else { return [] }
        guard !groupId.isEmpty else { return [] }
        let statement = try prepared("SELECT * FROM \(CatalogSchema.table) WHERE \(FamilyIndex.inFamily(nil)) AND \(column) = ?1 ORDER BY productId LIMIT ?2")
        return try statement.using {
            try statement.bind(1, groupId)
            try statement.bind(2, Int64(limit))
            return try products(from: statement)
        }
    }
}
