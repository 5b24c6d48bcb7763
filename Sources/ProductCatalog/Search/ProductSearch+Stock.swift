extension ProductSearch {
    /// The stores of the product with `productId` (ASCII case ignored) and its quantity at each, by store.
    public func stock(of productId: String) throws -> [StoreQuantity] {
        try StockTable.stock(of: [productId], connection)[productId] ?? []
    }

    /// The stores of each of `productIds`, keyed by the productId as given: for a page of products.
    public func stock(of productIds: [String]) throws -> [String: [StoreQuantity]] {
        try StockTable.stock(of: productIds, connection)
    }

    /// The stores with at least one product in stock, by name.
    public func stores() throws -> [String] {
        try StockTable.stores(connection)
    }
}
