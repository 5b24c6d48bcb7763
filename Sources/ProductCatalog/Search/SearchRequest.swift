/// What one search asks, as every engine takes it (``CatalogEngine``): the text, read as words
/// and the start of a productId or with `byPrefix` as the start of a productId only, the
/// filters, whether words may match with typos, the order, and whether a family is one result.
///
/// ```swift
/// var request = SearchRequest("linen shirt", sort: .price)
/// request.filters.colors = ["Navy"]
/// let (page, count, _) = try await catalog.page(request, after: nil, limit: 20)
/// ```
public struct SearchRequest: Sendable, Hashable {
    public var text: String
    public var byPrefix: Bool
    public var filters: SearchFilters
    public var typos: Bool
    public var sort: SearchSort
    public var listing: ResultListing

    public init(_ text: String = "", byPrefix: Bool = false, filters: SearchFilters = SearchFilters(), typos: Bool = true,
                sort: SearchSort = .relevance, listing: ResultListing = .families) {
        self.text = text
        self.byPrefix = byPrefix
        self.filters = filters
        self.typos = typos
        self.sort = sort
        self.listing = listing
    }

    /// A saved search (a smart collection's), with typos allowed or not and its listing.
    public init(_ saved: SavedSearch, typos: Bool = true, listing: ResultListing = .families) {
        self.init(saved.text, byPrefix: saved.byPrefix, filters: saved.filters, typos: typos, sort: saved.sort, listing: listing)
    }
}

extension ProductSearch {
    /// The page `request` asks for after `cursor`: ``page(prefix:filters:listing:after:limit:)``
    /// with `byPrefix`, else ``page(query:filters:typos:sort:listing:after:limit:)``; listing
    /// families, with their summaries (``familySummaries(of:)``).
    public func page(_ request: SearchRequest, after cursor: KeysetCursor? = nil, limit: Int = defaultPageSize) throws -> SearchPage {
        var page = request.byPrefix
            ? try page(prefix: request.text, filters: request.filters, listing: request.listing, after: cursor, limit: limit)
            : try page(query: request.text, filters: request.filters, typos: request.typos, sort: request.sort, listing: request.listing,
                       after: cursor, limit: limit)
        if request.listing == .families { page.families = try familySummaries(of: page.products) }
        return page
    }

    /// How many of the products `request` finds have each type, color, size and option.
    public func facets(_ request: SearchRequest) throws -> FacetCounts {
        request.byPrefix
            ? try facets(prefix: request.text, filters: request.filters)
            : try facets(query: request.text, filters: request.filters, typos: request.typos)
    }
}
