/// One condition of ``SearchFilters``: the description each engine compiles into its own SQL
/// (``FilterClause`` for the file, PostgresFilters for PostgreSQL), so a filter on another field
/// is a line in ``SearchFilters/conditions`` and no engine changes.
public enum FilterCondition: Sendable, Hashable {
    /// The field's value is one of `values`, ASCII case ignored (none: any value), or, with
    /// `orMissing`, the product has no value for it.
    case oneOf(ProductField, values: [String], orMissing: Bool)
    /// The product has one of `values` (ASCII case ignored) for its option named `name` (see
    /// ``ProductOptions``), or for any option when `name` is nil.
    case option(name: String?, values: [String])
    /// The price `basis` looks at is at least this many thousandths.
    case priceAtLeast(SearchFilters.PriceBasis, Int64)
    /// The price `basis` looks at is at most this many thousandths.
    case priceAtMost(SearchFilters.PriceBasis, Int64)
    /// The sale price is below the list price.
    case onSale
    /// The product's total quantity (its own, else the sum of its stores) is above 0.
    case inStock
    /// The product has a quantity above 0 at one of these stores (ASCII case ignored).
    case inStockAt(stores: [String])
    /// The product is in the manual collection with this name (ASCII case ignored).
    case inCollection(String)
}
