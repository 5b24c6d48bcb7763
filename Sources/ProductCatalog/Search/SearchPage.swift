/// One page of search results and where the next one starts.
public struct SearchPage: Sendable, Hashable {
    /// Up to the page size of products, ordered by productId.
    public var products: [Product]
    /// The cursor for the next page, nil when this page is the last.
    public var nextCursor: KeysetCursor?
    /// For a search with words, where each product holds them (in the order of ``products``).
    public var highlights: [Highlights]?
    /// When the search lists families (``ResultListing/families``), the family of each listed
    /// product that has more than itself, by groupId.
    public var families: [String: FamilySummary]?
    /// True when the count an engine gives with this page is an estimate (see ``MatchCount/isEstimate``).
    public var countIsEstimate = false

    public init(products: [Product], nextCursor: KeysetCursor?, highlights: [Highlights]? = nil) {
        self.products = products
        self.nextCursor = nextCursor
        self.highlights = highlights
    }

    /// The family listed as `product`, when the page lists families and it has other variants.
    public func family(of product: Product) -> FamilySummary? {
        guard let groupId = product.groupId, let family = families?[groupId], family.variants > 1 else { return nil }
        return family
    }
}

extension SearchPage: JSONRepresentable {
    /// `{"products":[…],"nextCursor":"…"}`, with `nextCursor` null on the last page; for a search
    /// with words each product ends with `"highlights"` (see ``Highlights``), and a product listed
    /// for a family of several variants with `"family"` (see ``FamilySummary``).
    public var jsonValue: JSONValue {
        let products = products.enumerated().map { index, product -> JSONValue in
            guard case .object(var members) = product.jsonValue else { return product.jsonValue }
            if let highlights, index < highlights.count { members.append(.init("highlights", highlights[index].jsonValue)) }
            if let family = family(of: product) { members.append(.init("family", family.jsonValue(currency: product.currency))) }
            return .object(members)
        }
        return .object([
            "products": .array(products),
            "nextCursor": .string(nextCursor?.description),
        ])
    }
}

extension SearchPage: Decodable {
    private enum CodingKeys: String, CodingKey {
        case products, nextCursor
    }

    /// Reads a page as ``jsonValue`` writes it, such as an answer of `GET /api/products`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        products = try container.decode([Product].self, forKey: .products)
        if let text = try container.decodeIfPresent(String.self, forKey: .nextCursor) {
            guard let cursor = KeysetCursor(text) else {
                throw DecodingError.dataCorruptedError(forKey: .nextCursor, in: container, debugDescription: "not a cursor this catalog wrote")
            }
            nextCursor = cursor
        } else {
            nextCursor = nil
        }
    }
}

/// How many products a search matches, and whether counting reached the end.
public struct MatchCount: Sendable, Hashable {
    /// The products counted: all of them when ``isComplete``, otherwise a lower bound.
    public var count: Int
    /// False when counting stopped before the last match (at a limit, or after a budget of work).
    public var isComplete: Bool
    /// True when ``count`` is an estimate rather than a lower bound: the families of a sample of
    /// the word matches, scaled to all of them (see ``ResultListing/families``).
    public var isEstimate: Bool

    public init(count: Int, isComplete: Bool, isEstimate: Bool = false) {
        self.count = count
        self.isComplete = isComplete
        self.isEstimate = isEstimate
    }
}
