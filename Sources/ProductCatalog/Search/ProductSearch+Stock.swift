extension ProductSearch {
    /// The stores of the product with `productId` (ASCII case ignored) and its quantity at each, by store.
    public func stock(of productId: String) throws -> [StoreQuantity] {
        try StockTable.stock(of: productId, connection)
    }

    /// The stores of each of `productIds`, keyed by the productId as given: for a page of products.
    public func stock(of productIds: [String]) throws -> [String: [StoreQuantity]] {
        var stock: [String: [StoreQuantity]] = [:]
        guard try StockTable.exists(connection) else { return stock }
        for productId in productIds {
            let stores = try StockTable.stock(of: productId, connection)
            if !stores.isEmpty { stock[productId] = stores }
        }
        return stock
    }

    /// The stores with at least one product in stock, by name.
    public func stores() throws -> [String] {
        try StockTable.stores(connection)
    }
}
