/// Conditions a search's products must also meet: values of type, color, size and brand, a price
/// range, being on sale, being in stock (anywhere, or at given stores), and being in a collection.
///
/// ```swift
/// var filters = SearchFilters()
/// filters.colors = ["Navy", "Black"]      // navy or black
/// filters.maxPrice = Price("50")          // and selling for 50.00 or less
/// let page = try search.page(query: "linen", filters: filters)
/// ```
///
/// A value matches ignoring ASCII case (`navy` finds `Navy`); several values of one field match
/// any of them, and different fields must all match. Prices compare amounts whatever their
/// currency. Empty filters let every product through.
public struct SearchFilters: Sendable, Hashable {
    /// Which price a price range looks at.
    public enum PriceBasis: String, Sendable, Hashable, CaseIterable {
        /// What the product sells for: its sale price when it has one, else its list price.
        case effective
        /// The list price.
        case list
    }

    /// Product types, any of which matches.
    public var productTypes: [String] = []
    /// Colors, any of which matches.
    public var colors: [String] = []
    /// Sizes, any of which matches.
    public var sizes: [String] = []
    /// Brands, any of which matches.
    public var brands: [String] = []
    /// The lowest price, included.
    public var minPrice: Price?
    /// The highest price, included.
    public var maxPrice: Price?
    /// The price that `minPrice` and `maxPrice` look at.
    public var priceBasis: PriceBasis = .effective
    /// Only products with a sale price below their list price.
    public var onSale = false
    /// Only products in stock at one of these stores (see ``StockImporter``), any of which matches.
    public var stores: [String] = []
    /// Only products in stock: their total quantity, their own or else the sum of their stores, is above 0.
    public var inStock = false
    /// Only products in this manual collection (``ProductCollection``; ASCII case ignored).
    public var collection: String?

    public init() {}

    /// True when no condition is set.
    public var isEmpty: Bool {
        productTypes.isEmpty && colors.isEmpty && sizes.isEmpty && brands.isEmpty
            && minPrice == nil && maxPrice == nil && !onSale && stores.isEmpty && !inStock && collection == nil
    }
}

extension SearchFilters {
    /// The conditions a product must all meet, in the order the engines write them.
    public var conditions: [FilterCondition] {
        var conditions: [FilterCondition] = []
        for (field, asked) in [(ProductField.productType, productTypes), (.color, colors), (.size, sizes), (.brand, brands)] where !asked.isEmpty {
            let wanted = asked.map(ProductRules.trimmed)
            let given = wanted.filter { !$0.isEmpty }
            // An empty value asks for the products without one.
            conditions.append(.oneOf(field, values: given, orMissing: given.count < wanted.count))
        }
        if let minPrice { conditions.append(.priceAtLeast(priceBasis, minPrice.thousandths)) }
        if let maxPrice { conditions.append(.priceAtMost(priceBasis, maxPrice.thousandths)) }
        if onSale { conditions.append(.onSale) }
        if inStock { conditions.append(.inStock) }
        let stores = stores.map(ProductRules.trimmed).filter { !$0.isEmpty }
        if !stores.isEmpty { conditions.append(.inStockAt(stores: stores)) }
        if let collection { conditions.append(.inCollection(ProductRules.trimmed(collection))) }
        return conditions
    }
}
