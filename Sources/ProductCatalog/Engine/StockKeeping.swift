/// A catalog that keeps stock by store beside its products: each product's quantity at each
/// store, imported from local inventory files (``StockImporter``).
///
/// ```swift
/// if let stock = catalog.stockKeeping {
///     let byStore = try await stock.stock(of: ["A-1"])   // ["A-1": [StoreQuantity(store: "Berlin", quantity: 4)]]
/// }
/// ```
public protocol StockKeeping: CatalogEngine {
    /// The stores of each of `productIds` and the product's quantity at each; products without
    /// stock by store are left out.
    func stock(of productIds: [String]) async throws -> [String: [StoreQuantity]]
    /// The stores with at least one product in stock, by name.
    func stores() async throws -> [String]
    /// An import of a local inventory file into this catalog's stock, `.replace` or `.upsert`, to
    /// set its limits on and start.
    func stockImporter(mode: ImportMode) -> StockImporter
}
