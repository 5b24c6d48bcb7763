import Testing
@testable import ProductCatalog

extension ProductSearch {
    /// The productIds of every page of `query` with `filters`, read `pageSize` at a time,
    /// checking that no page is longer than asked.
    /// Every variant unless `listing` says families.
    func allPages(query: String, filters: SearchFilters = SearchFilters(), typos: Bool = true, sort: SearchSort = .relevance,
                  listing: ResultListing = .variants, pageSize: Int = 20) throws -> [String] {
        try allPages(pageSize: pageSize) { try page(query: query, filters: filters, typos: typos, sort: sort, listing: listing, after: $0, limit: pageSize) }
    }

    /// The productIds of every page of `prefix` with `filters`, read `pageSize` at a time.
    func allPages(prefix: String, filters: SearchFilters = SearchFilters(), listing: ResultListing = .variants, pageSize: Int = 20) throws -> [String] {
        try allPages(pageSize: pageSize) { try page(prefix: prefix, filters: filters, listing: listing, after: $0, limit: pageSize) }
    }

    private func allPages(pageSize: Int, _ next: (KeysetCursor?) throws -> SearchPage) throws -> [String] {
        var ids: [String] = []
        var cursor: KeysetCursor?
        repeat {
            let page = try next(cursor)
            #expect(page.products.count <= pageSize)
            ids += page.products.map(\.productId)
            cursor = page.nextCursor
        } while cursor != nil
        return ids
    }
}
