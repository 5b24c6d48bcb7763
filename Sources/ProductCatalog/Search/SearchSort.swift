/// The order of a search's results.
///
/// ``relevance`` is the search's own order (productId matches, then word matches tier by tier;
/// see ``ProductSearch/page(query:filters:typos:sort:after:limit:)``). The others list the same
/// products by a value of theirs, products without one last, ties in productId order (reversed
/// for ``priceDescending``, which reads the price order backwards).
public enum SearchSort: String, Sendable, CaseIterable, Hashable {
    case relevance
    /// What the product sells for (its sale price when it has one, else its list price), cheapest first.
    case price
    /// The same, dearest first.
    case priceDescending = "-price"
    /// Title, ignoring ASCII case.
    case title
    /// The products added last first: those added since the last replacing import, latest first,
    /// then that import's in reverse productId order.
    case newest

    /// The names `--sort` and `sort=` take, in a sentence.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// What a person calls it, as a menu lists it.
    public var label: String {
        switch self {
        case .relevance: "Best match"
        case .price: "Price, low to high"
        case .priceDescending: "Price, high to low"
        case .title: "Title, A to Z"
        case .newest: "Newest first"
        }
    }

    /// The field it orders by; nil for the search's own order and for the order products were added in.
    public var field: ProductField? {
        switch self {
        case .relevance, .newest: nil
        case .price, .priceDescending: .salesPrice
        case .title: .title
        }
    }

    /// True when the largest value (the latest product, for ``newest``) comes first, and ties
    /// are in reverse productId order.
    public var isDescending: Bool { self == .priceDescending || self == .newest }
}

/// Where a sorted page ends: its last product's value and productId.
public struct SortPosition: Sendable, Hashable {
    public var sort: SearchSort
    /// The value sorted on: a number (a price in thousandths, a place), a title, or nil for a
    /// product without one (those come last).
    public var value: SortValue?
    public var productId: String

    public enum SortValue: Sendable, Hashable {
        case number(Int64)
        case text(String)
    }

    public init(sort: SearchSort, value: SortValue?, productId: String) {
        self.sort = sort
        self.value = value
        self.productId = productId
    }
}
