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
    /// Options, each `Name:Value` (``OptionChoice``): any value of one option matches, and
    /// options of different names must all match. `Length:14 Inches` finds the variants whose
    /// option *Length* is *14 Inches*.
    public var options: [String] = []
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
        productTypes.isEmpty && colors.isEmpty && sizes.isEmpty && brands.isEmpty && options.isEmpty
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
        // One condition per option name (ASCII case ignored), in the order the names first come.
        var byName: [(name: String?, values: [String])] = []
        for choice in options.compactMap(OptionChoice.init) {
            if let index = byName.firstIndex(where: { $0.name?.asciiLowercased == choice.name?.asciiLowercased }) {
                byName[index].values.append(choice.value)
            } else {
                byName.append((choice.name, [choice.value]))
            }
        }
        conditions += byName.map { .option(name: $0.name, values: $0.values) }
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

extension SearchFilters {
    /// One value of ``SearchFilters/options``: `Name:Value`, split at the first colon and trimmed;
    /// with nothing before the colon (`:Red`), or no colon at all, a value of any option.
    public struct OptionChoice: Sendable, Hashable {
        /// The option's name, as the feed names it; nil for any option.
        public var name: String?
        public var value: String

        public init(name: String?, value: String) {
            self.name = name
            self.value = value
        }

        /// The choice `text` spells; nil when it has no value.
        public init?(_ text: String) {
            var name: String?
            var value = Substring(text)
            if let colon = text.firstIndex(of: ":") {
                let before = ProductRules.trimmed(String(text[..<colon]))
                name = before.isEmpty ? nil : before
                value = text[text.index(after: colon)...]
            }
            let trimmed = ProductRules.trimmed(String(value))
            guard !trimmed.isEmpty else { return nil }
            self.name = name
            self.value = trimmed
        }

        /// What the stored options (``ProductOptions/text``), between `"; "` before and after,
        /// hold when they have this choice, ASCII case folded: `; name: value; `, or `: value; `
        /// for any option.
        public var needle: String {
            (name.map { "; " + $0.asciiLowercased } ?? "") + ": " + value.asciiLowercased + "; "
        }
    }
}
