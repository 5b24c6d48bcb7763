extension CatalogEditor {
    /// Stars or unstars the product with `productId`; starring a missing product throws ``EditError/notFound(productId:)``.
    ///
    /// Stars live in their own table, so imports that keep the product keep its star.
    public func setFavorite(_ productId: String, _ starred: Bool) throws {
        try write {
            guard starred else {
                try moveFavorite(from: productId, to: nil)
                return
            }
            let stored = try self.stored(productId)
            try connection.execute(CatalogSchema.createFavorites)
            let statement = try prepared(
                "INSERT OR IGNORE INTO \(CatalogSchema.favoritesTable) (productId, starredAt) VALUES (?1, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER))")
            try statement.using {
                try statement.bind(1, stored.productId)
                try statement.step()
            }
        }
    }

    /// Moves the star of `old` to `new` (a rename), or removes it when `new` is nil (a delete).
    func moveFavorite(from old: String, to new: String?) throws {
        let exists = try prepared("SELECT count(*) FROM sqlite_master WHERE name = ?1")
        guard try exists.using({
            try exists.bind(1, CatalogSchema.favoritesTable)
            return try exists.step() && exists.int64(at: 0) > 0
        }) else { return }
        let statement = try prepared(new == nil
            ? "DELETE FROM \(CatalogSchema.favoritesTable) WHERE productId = ?1"
            : "UPDATE \(CatalogSchema.favoritesTable) SET productId = ?2 WHERE productId = ?1")
        try statement.using {
            try statement.bind(1, old)
            if let new { try statement.bind(2, new) }
            try statement.step()
        }
    }
}
