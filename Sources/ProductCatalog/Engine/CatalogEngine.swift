/// A catalog, whatever holds it: search, edits and imports, the same for every engine.
///
/// ``SQLiteCatalog`` is a catalog file; ProductCatalogPostgres's `PostgresCatalog` is a table on a
/// PostgreSQL server. A program opens one from a ``CatalogLocation`` in one place and hands
/// the value to whatever searches, edits or imports:
///
/// ```swift
/// let catalog: any CatalogEngine = SQLiteCatalog(databasePath: "catalog.sqlite")
/// let (page, count, _) = try await catalog.page(SearchRequest("linen shirt"), after: nil, limit: 20)
/// ```
///
/// Failures are typed: ``EngineError`` for what only an engine can say (unreachable, busy, a
/// sort it does not offer), ``CatalogError``, ``EditError`` and ``ImportError`` for the rest.
///
/// Every engine reads and writes products. What some keep beside them is a protocol of its own,
/// which an interface asks for (``stockKeeping``, ``collectionKeeping``) and, when the engine
/// does not keep it, says so from that fact: ``StockKeeping``, ``CollectionKeeping``.
public protocol CatalogEngine: Sendable {
    /// The catalog as messages name it: a path, or a URL without its password.
    var name: String { get }
    /// Where pictures uploaded for products are kept.
    var imagesFolder: String { get }

    /// A page of the products `request` finds after `cursor`, and how many it finds in all,
    /// `complete` false when counting stopped early (a query with words counts up to
    /// ``ProductSearch/queryCountCap``); listing families, with their summaries.
    func page(_ request: SearchRequest, after cursor: KeysetCursor?, limit: Int) async throws -> (page: SearchPage, count: Int, complete: Bool)
    /// One unchanging state of the catalog to read a whole search from (an export); see ``CatalogSnapshot``.
    func snapshot() async throws -> any CatalogSnapshot
    /// The same page without counting the matches, for reading through all of them.
    func products(_ request: SearchRequest, after cursor: KeysetCursor?, limit: Int) async throws -> SearchPage
    /// How many of the products `request` finds have each type, color, size and option; nil for a catalog not made yet.
    func facets(_ request: SearchRequest) async throws -> FacetCounts?
    /// The product with this productId (ASCII case ignored), if any.
    func product(id: String) async throws -> Product?
    /// The starred products, in productId order.
    func favorites() async throws -> [Product]
    /// The products sharing the groupId of the product `productId` (it included); nil when there is no such product.
    func variants(of productId: String) async throws -> [Product]?
    /// The catalog's product types, the most used first.
    func productTypes() async throws -> [String]
    /// Every distinct `imageURL` that starts with `prefix`: the stored pictures some product still shows.
    func imageURLs(startingWith prefix: String) async throws -> Set<String>
    /// How many products the catalog holds (0 without a catalog).
    func productCount() async throws -> Int
    /// Whether searches look up words; false only for a catalog file made before the word index,
    /// which finds productIds by prefix until its next write indexes it.
    func indexesWords() async throws -> Bool

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

    /// Where an import with `options` writes: ``CatalogImporter/start(input:into:)`` calls it on the import's thread.
    func makeSink(for options: ImportOptions) -> any CatalogSink
    /// Throws when the catalog cannot be reached or is not a catalog, and with `requiringCatalog`
    /// ``CatalogError/noCatalog(path:)`` when none was made yet.
    func checkOpenable(requiringCatalog: Bool) async throws
    /// Called when an import replaced the catalog, so the next request reads the new one.
    func catalogReplaced() async
    /// Reads ahead what the first searches would otherwise wait for.
    func warmUp() async
    /// Closes the connections; a request after it opens them again.
    func close() async
}

extension CatalogEngine {
    /// The catalog's stock by store, when its engine keeps one (``StockKeeping``); nil when it keeps none.
    public var stockKeeping: (any StockKeeping)? { self as? any StockKeeping }

    /// The catalog's collections, when its engine keeps them (``CollectionKeeping``); nil when it keeps none.
    public var collectionKeeping: (any CollectionKeeping)? { self as? any CollectionKeeping }

    /// What the catalog keeps beyond its products.
    public var features: Set<CatalogFeature> {
        var kept: Set<CatalogFeature> = []
        if stockKeeping != nil { kept.insert(.stockByStore) }
        if collectionKeeping != nil { kept.insert(.collections) }
        return kept
    }

    /// The catalog's collections; throws ``EngineError/notKept(catalog:what:)`` when its engine keeps none.
    public func keptCollections() throws -> any CollectionKeeping {
        guard let kept = collectionKeeping else { throw EngineError.notKept(catalog: name, what: .collections) }
        return kept
    }

    /// The catalog's stock by store; throws ``EngineError/notKept(catalog:what:)`` when its engine keeps none.
    public func keptStock() throws -> any StockKeeping {
        guard let kept = stockKeeping else { throw EngineError.notKept(catalog: name, what: .stockByStore) }
        return kept
    }

    /// Throws when the catalog cannot be reached or is not a catalog; a catalog not made yet is fine.
    public func checkOpenable() async throws {
        try await checkOpenable(requiringCatalog: false)
    }

    /// `search` with a smart collection's own search in place of its name; unchanged without a
    /// collection or with a manual one. Throws ``EngineError/notKept(catalog:what:)`` when the
    /// catalog keeps no collections, ``CollectionError/notFound(name:)`` for a
    /// collection the catalog lacks, and ``CollectionError/searchGiven(name:)`` for a smart one
    /// asked for with anything else.
    public func resolvingCollection(_ search: SavedSearch) async throws -> SavedSearch {
        guard let name = search.filters.collection else { return search }
        guard let collection = try await keptCollections().collection(named: name) else { throw CollectionError.notFound(name: ProductRules.trimmed(name)) }
        guard let saved = collection.search else { return search }
        var others = search
        others.filters.collection = nil
        guard others.isEmpty else { throw CollectionError.searchGiven(name: collection.name) }
        return saved
    }

}
