import ProductCatalog

/// What the routes read and write: the catalog file (``CatalogStore``) or a catalog on a
/// PostgreSQL server (``PostgresCatalogStore``).
public protocol CatalogStoring: Sendable {
    /// Where pictures uploaded for products are kept.
    var imagesFolder: String { get }

    /// A page of products matching `text` (a query, or with `byPrefix` the start of a productId)
    /// and `filters`, and how many match in all, `complete` false when counting stopped early.
    func page(_ text: String, byPrefix: Bool, filters: SearchFilters, typos: Bool, sort: SearchSort, after cursor: KeysetCursor?,
              limit: Int) async throws -> (page: SearchPage, count: Int, complete: Bool)
    /// How many of the products ``page(_:byPrefix:filters:typos:sort:after:limit:)`` finds have each type, color and size.
    func facets(_ text: String, byPrefix: Bool, filters: SearchFilters, typos: Bool) async throws -> FacetCounts?
    /// The product with this productId (ASCII case ignored), if any.
    func product(id: String) async throws -> Product?
    /// The starred products, in productId order.
    func favorites() async throws -> [Product]
    /// The products sharing the groupId of the product `productId` (it included); nil when there is no such product.
    func variants(of productId: String) async throws -> [Product]?
    /// The catalog's product types, the most used first.
    func productTypes() async throws -> [String]
    /// How many products the catalog holds (0 without a catalog).
    func productCount() async throws -> Int
    /// Stars or unstars the product with `productId`.
    func setFavorite(_ productId: String, _ starred: Bool) async throws
    /// Adds `product`, creating an empty catalog first when there is none yet.
    func add(_ product: Product) async throws -> Product
    /// Replaces the product with `productId` by `product`.
    func replace(productId: String, with product: Product) async throws -> Product
    /// Deletes the product with `productId`.
    func delete(productId: String) async throws
    /// Applies `change` to each of `productIds` (at most ``CatalogEditor/maxBatchProducts``), saying which it refused and why.
    func apply(_ change: BatchChange, to productIds: [String]) async throws -> BatchOutcome
    /// How many products were added, edited or deleted here since the last replacing import (0 without a catalog).
    func handEditsSinceImport() async throws -> Int
    /// Called when this server's own import replaced the catalog.
    func catalogReplaced() async
    /// Reads ahead what the first searches would otherwise wait for.
    func warmUp() async
}

extension CatalogStoring {
    /// A page in the search's own order, typos allowed.
    func page(_ text: String, byPrefix: Bool, filters: SearchFilters = SearchFilters(), after cursor: KeysetCursor?,
              limit: Int) async throws -> (page: SearchPage, count: Int, complete: Bool) {
        try await page(text, byPrefix: byPrefix, filters: filters, typos: true, sort: .relevance, after: cursor, limit: limit)
    }
}
