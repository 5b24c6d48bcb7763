extension ProductSearch {
    /// Every collection, by name (ASCII case ignored): manual ones with their counts.
    public func collections() throws -> [ProductCollection] {
        try CollectionTable.all(connection)
    }

    /// The collection named `name` (ASCII case ignored), if any.
    public func collection(named name: String) throws -> ProductCollection? {
        try CollectionTable.named(ProductRules.trimmed(name), connection)
    }

    /// The members of the manual collection `name`, in productId order, after `productId` (a page
    /// of an export of the collection itself, as `collection,productId` rows).
    public func members(of name: String, after productId: String? = nil, limit: Int) throws -> [String] {
        guard try CollectionTable.exists(connection) else { return [] }
        let statement = try prepared("""
            SELECT productId FROM \(CollectionTable.membersTable) WHERE collection = ?1 AND productId > ?2 ORDER BY productId LIMIT ?3
            """)
        return try statement.using {
            try statement.bind(1, ProductRules.trimmed(name))
            try statement.bind(2, productId ?? "")
            try statement.bind(3, Int64(limit))
            var ids: [String] = []
            while try statement.step() { ids.append(statement.text(at: 0) ?? "") }
            return ids
        }
    }
}
