import Foundation

/// A search kept for later: its query, filters and sort, as a smart collection keeps it.
///
/// ```swift
/// var filters = SearchFilters()
/// filters.colors = ["Navy"]
/// let saved = SavedSearch(text: "linen", filters: filters, sort: .price)
/// saved.parameters  // "q=linen&color=Navy&sort=price"
/// ```
///
/// ``parameters`` spells it with the names `GET /api/products` and the page's address take, so
/// the page opens a smart collection by going to `?` followed by them.
public struct SavedSearch: Sendable, Hashable {
    /// Words or the start of a productId; with ``byPrefix``, the start of a productId only.
    public var text: String
    public var byPrefix: Bool
    public var filters: SearchFilters
    public var sort: SearchSort

    public init(text: String = "", byPrefix: Bool = false, filters: SearchFilters = SearchFilters(), sort: SearchSort = .relevance) {
        self.text = text
        self.byPrefix = byPrefix
        self.filters = filters
        self.sort = sort
    }

    /// True when it would find every product in the catalog's own order.
    public var isEmpty: Bool { text.isEmpty && filters.isEmpty && sort == .relevance }

    /// `q=linen&color=Navy&sort=price`: the search as URL query parameters, values percent-encoded.
    public var parameters: String {
        var pairs: [(String, String)] = []
        if !text.isEmpty { pairs.append((byPrefix ? "prefix" : "q", text)) }
        for (name, values) in [("type", filters.productTypes), ("color", filters.colors), ("size", filters.sizes),
                               ("brand", filters.brands), ("option", filters.options), ("store", filters.stores)] {
            pairs += values.map { (name, $0) }
        }
        if let minPrice = filters.minPrice { pairs.append(("minPrice", minPrice.description)) }
        if let maxPrice = filters.maxPrice { pairs.append(("maxPrice", maxPrice.description)) }
        if filters.priceBasis != .effective { pairs.append(("priceBasis", filters.priceBasis.rawValue)) }
        if filters.onSale { pairs.append(("onSale", "true")) }
        if filters.inStock { pairs.append(("inStock", "true")) }
        if let collection = filters.collection { pairs.append(("collection", collection)) }
        if sort != .relevance { pairs.append(("sort", sort.rawValue)) }
        return pairs.map { Self.encode($0.0) + "=" + Self.encode($0.1) }.joined(separator: "&")
    }

    /// The search `parameters` spell (as ``parameters`` writes them); names it does not know, and
    /// values that are not valid, are left out.
    public init(parameters: String) {
        self.init()
        for pair in parameters.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]), let value = parts.count > 1 ? Self.decode(parts[1]) : "" else { continue }
            switch name {
            case "q": text = value
            case "prefix": (text, byPrefix) = (value, true)
            case "type": filters.productTypes.append(value)
            case "color": filters.colors.append(value)
            case "size": filters.sizes.append(value)
            case "brand": filters.brands.append(value)
            case "option": filters.options.append(value)
            case "store": filters.stores.append(value)
            case "minPrice": filters.minPrice = Price(value)
            case "maxPrice": filters.maxPrice = Price(value)
            case "priceBasis": filters.priceBasis = SearchFilters.PriceBasis(rawValue: value) ?? .effective
            case "onSale": filters.onSale = value == "true" || value == "1"
            case "inStock": filters.inStock = value == "true" || value == "1"
            case "collection": filters.collection = value.isEmpty ? nil : value
            case "sort": sort = SearchSort(rawValue: value) ?? .relevance
            default: continue
            }
        }
    }

    /// What `encodeURIComponent` leaves as it is.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()")

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
