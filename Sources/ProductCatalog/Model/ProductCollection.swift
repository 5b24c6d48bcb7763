/// A named group of products: manual (the products put in it) or smart (a saved search, evaluated when browsed).
public struct ProductCollection: Sendable, Hashable {
    public var name: String
    /// A smart collection's search; nil for a manual collection.
    public var search: SavedSearch?
    /// How many products a manual collection holds; nil for a smart one (its search counts them).
    public var products: Int?

    public init(name: String, search: SavedSearch?, products: Int?) {
        self.name = name
        self.search = search
        self.products = products
    }

    /// True for a manual collection.
    public var isManual: Bool { search == nil }

    /// The search that lists the collection: a smart one's own, or its members in productId order.
    public var browsing: SavedSearch {
        if let search { return search }
        var filters = SearchFilters()
        filters.collection = name
        return SavedSearch(filters: filters)
    }

    /// The longest name, in UTF-8 bytes.
    public static let maxNameBytes = 200

    /// `name` trimmed, or why it cannot name a collection.
    public static func checkedName(_ name: String) -> Result<String, CollectionNameError> {
        let trimmed = ProductRules.trimmed(name)
        if trimmed.isEmpty { return .failure(.empty) }
        if trimmed.utf8.count > maxNameBytes { return .failure(.tooLong(bytes: trimmed.utf8.count)) }
        if trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return .failure(.controlCharacter) }
        return .success(trimmed)
    }
}

/// Why a text cannot name a collection.
public enum CollectionNameError: Error, Sendable, Hashable, CustomStringConvertible {
    case empty
    case tooLong(bytes: Int)
    case controlCharacter

    public var description: String {
        switch self {
        case .empty: "a collection needs a name"
        case .tooLong(let bytes): "a collection's name has at most \(ProductCollection.maxNameBytes) bytes; this one has \(bytes)"
        case .controlCharacter: "a collection's name cannot hold control characters such as tabs or line breaks"
        }
    }
}

extension ProductCollection: JSONRepresentable {
    /// `{"name": "Summer", "kind": "manual", "products": 12, "search": "collection=Summer"}`; a smart
    /// one's `search` is its own (`q=linen&sort=price`) and its `products` null.
    public var jsonValue: JSONValue {
        .object([
            "name": .string(name),
            "kind": .string(isManual ? "manual" : "smart"),
            "products": products.map { .int($0) } ?? .null,
            "search": .string(browsing.parameters),
        ])
    }
}
