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
        for (name, values) in filters.namedValues { pairs += values.map { (name, $0) } }
        if sort != .relevance { pairs.append(("sort", sort.rawValue)) }
        return pairs.map { Self.encode($0.0) + "=" + Self.encode($0.1) }.joined(separator: "&")
    }

    /// The search `parameters` spell (as ``parameters`` writes them, each filter by its name in
    /// ``SearchSchema/filters``); names it does not know, and values that are not valid, are left out.
    public init(parameters: String) {
        self.init()
        for pair in parameters.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]), let value = parts.count > 1 ? Self.decode(parts[1]) : "" else { continue }
            switch name {
            case "q": text = value
            case "prefix": (text, byPrefix) = (value, true)
            case "sort": sort = SearchSort(rawValue: value) ?? .relevance
            default:
                // A value that is not valid leaves its filter as it was.
                guard let filter = SearchSchema.filter(named: name) else { continue }
                var read = filters
                if (try? filter.apply([value], to: &read)) != nil { filters = read }
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
