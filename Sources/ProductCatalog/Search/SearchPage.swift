/// One page of search results and where the next one starts.
public struct SearchPage: Sendable, Hashable {
    /// Up to the page size of products, ordered by productId.
    public var products: [Product]
    /// The cursor for the next page, nil when this page is the last.
    public var nextCursor: KeysetCursor?

    public init(products: [Product], nextCursor: KeysetCursor?) {
        self.products = products
        self.nextCursor = nextCursor
    }
}

extension SearchPage {
    /// `{"products":[…],"nextCursor":"…"}`, with `nextCursor` null on the last page.
    public var jsonValue: JSONValue {
        .object([
            "products": .array(products.map(\.jsonValue)),
            "nextCursor": .string(nextCursor?.description),
        ])
    }
}
