import Foundation
import ProductCatalog

/// A catalog on a PostgreSQL server as an engine: one connection for searches, one for edits.
/// It keeps products, collections (``CollectionKeeping``) and stock by store (``StockKeeping``),
/// with the answers a catalog file gives.
///
/// Every statement reads the table as it is, so an import's swap (by this process or any other)
/// shows at the next request, and several `catalog serve` processes can serve one catalog. A
/// connection that fails is dropped and opened again at the next request. Counts stop at
/// ``ProductSearch/queryCountCap`` for every search, prefixes included (an exact count of ten
/// million rows takes the server a second), except a manual collection alone, which its members bound.
public actor PostgresCatalog: CatalogEngine, CollectionKeeping, StockKeeping {
    public let location: PostgresLocation
    public nonisolated let imagesFolder: String
    /// The URL without its password.
    public nonisolated var name: String { location.description }
    private var search: PostgresProductSearch?
    private var editor: PostgresCatalogEditor?

    /// The catalog at `location`, which need not exist yet; pictures go to `imagesFolder`.
    public init(location: PostgresLocation, imagesFolder: String) {
        self.location = location
        self.imagesFolder = imagesFolder
    }

    public func page(_ request: SearchRequest, after cursor: KeysetCursor?, limit: Int) async throws -> (page: SearchPage, count: Int, complete: Bool) {
        let cap = ProductSearch.queryCountCap
        // A manual collection alone is counted exactly, as a catalog file counts it from its kept
        // count: its members bound the count.
        var others = request.filters
        others.collection = nil
        let collectionAlone = request.filters.collection != nil && others.isEmpty && ProductRules.trimmed(request.text).isEmpty
        return try await reading((SearchPage(products: [], nextCursor: nil), 0, true)) { search in
            let page = try await search.page(request, after: cursor, limit: limit)
            let count = try await search.count(request, upTo: collectionAlone ? nil : cap + 1)
            return (page, collectionAlone ? count : min(count, cap), collectionAlone || count <= cap)
        }
    }

    /// A connection of its own in a `REPEATABLE READ` transaction (see ``PostgresSnapshot``).
    public func snapshot() async throws -> any CatalogSnapshot {
        do {
            return try await PostgresSnapshot.open(location)
        } catch let error as PostgresCatalogError {
            throw answer(error)
        }
    }

    public func products(_ request: SearchRequest, after cursor: KeysetCursor?, limit: Int) async throws -> SearchPage {
        try await reading(SearchPage(products: [], nextCursor: nil)) { try await $0.page(request, after: cursor, limit: limit) }
    }

    public func facets(_ request: SearchRequest) async throws -> FacetCounts? {
        try await reading(nil) { try await $0.facets(request) }
    }

    public func product(id: String) async throws -> Product? {
        try await reading(nil) { try await $0.product(id: id) }
    }

    public func favorites() async throws -> [Product] {
        try await reading([]) { try await $0.favorites() }
    }

    public func variants(of productId: String) async throws -> [Product]? {
        try await reading(nil) { search in
            guard let product = try await search.product(id: productId) else { return nil }
            guard let groupId = product.groupId, !groupId.isEmpty else { return [product] }
            return try await search.variants(groupId: groupId)
        }
    }

    public func imageURLs(startingWith prefix: String) async throws -> Set<String> {
        try await reading([]) { try await $0.imageURLs(startingWith: prefix) }
    }

    public func productTypes() async throws -> [String] {
        try await reading([]) { try await $0.productTypes() }
    }

    public func collections() async throws -> [ProductCollection] {
        try await reading([]) { try await $0.collections() }
    }

    public func collection(named name: String) async throws -> ProductCollection? {
        try await reading(nil) { try await $0.collection(named: name) }
    }

    public func members(of name: String, after productId: String?, limit: Int) async throws -> [String] {
        try await reading([]) { try await $0.members(of: name, after: productId, limit: limit) }
    }

    public func createCollection(_ name: String, search: SavedSearch?) async throws -> ProductCollection {
        try await writing { try await $0.createCollection(name, search: search) }
    }

    public func deleteCollection(_ name: String) async throws {
        try await writing { try await $0.deleteCollection(name) }
    }

    public func changeCollection(_ name: String, adding productIds: [String], removing: Bool) async throws -> CollectionChange {
        try await writing { try await $0.changeCollection(name, adding: productIds, removing: removing) }
    }

    public func collectionsFromColumn(_ column: String, separator: Character) async throws -> ColumnCollections {
        try await writing { try await $0.collectionsFromColumn(column, separator: separator) }
    }

    /// Reads the file on this task and writes each record in one transaction; rejected records go
    /// to a rejects file beside the file read (`…​.collection-rejects.csv`), as the summary says.
    public func importCollections(from source: InputSource, mode: ImportMode, rejectsPath: String?) async throws -> CollectionImportSummary {
        let bytes = try source.open()
        let records = try CollectionRecords(source: bytes, rejectsPath: rejectsPath ?? Self.rejectsPath(for: source), databasePath: name)
        do {
            return try await writing { editor in
                do {
                    _ = try await editor.importCollections(records, mode: mode)
                    return try records.finish()
                } catch let error as PostgresCatalogError {
                    // Not tried again: the file has been read this far.
                    throw answer(error)
                }
            }
        } catch {
            records.discard()
            throw error
        }
    }

    /// Where a collection import's rejected records go: beside the file, or in the temporary folder for a URL.
    private static func rejectsPath(for source: InputSource) -> String {
        if source.kind == .file { return source.description + ".collection-rejects.csv" }
        return NSTemporaryDirectory() + "collections-\(UInt64.random(in: 0...UInt64.max)).collection-rejects.csv"
    }

    public func stock(of productIds: [String]) async throws -> [String: [StoreQuantity]] {
        try await reading([:]) { try await $0.stock(of: productIds) }
    }

    public func stores() async throws -> [String] {
        try await reading([]) { try await $0.stores() }
    }

    /// A ``StockImporter`` into this catalog's stock (see ``PostgresStockSink``).
    public nonisolated func stockImporter(mode: ImportMode) -> StockImporter {
        StockImporter(mode: mode) { [location] in PostgresStockSink(location: location) }
    }

    public func productCount() async throws -> Int {
        try await reading(0) { try await $0.productCount() }
    }

    /// Always: the table's words are indexed as it is written.
    public func indexesWords() async throws -> Bool { true }

    public func setFavorite(_ productId: String, _ starred: Bool) async throws {
        try await writing { try await $0.setFavorite(productId, starred) }
    }

    public func add(_ product: Product) async throws -> Product {
        try await writing(creatingCatalog: true) { try await $0.add(product) }
    }

    public func replace(productId: String, with product: Product) async throws -> Product {
        try await writing { try await $0.replace(productId: productId, with: product) }
    }

    public func delete(productId: String) async throws {
        try await writing { try await $0.delete(productId: productId) }
    }

    /// Applies `change` to each of `productIds`, each product in a transaction of its own (the
    /// PostgreSQL editor writes one product at a time).
    public func apply(_ change: BatchChange, to productIds: [String]) async throws -> BatchOutcome {
        var outcome = BatchOutcome()
        for productId in productIds {
            do {
                guard let current = try await product(id: productId) else { throw EditError.notFound(productId: productId) }
                switch change {
                case .star(let starred): try await setFavorite(current.productId, starred)
                case .delete: try await delete(productId: current.productId)
                case .set:
                    _ = try await replace(productId: current.productId, with: try change.applied(to: current))
                    if outcome.replaced[productId] == nil { outcome.replaced[productId] = change.replacedValues(in: current) }
                }
                outcome.changed.append(productId)
            } catch let error as EditError {
                switch error {
                case .invalid, .notFound, .duplicate: outcome.refused.append(.init(productId: productId, error: error))
                default: throw error
                }
            }
        }
        return outcome
    }

    public func handEditsSinceImport() async throws -> Int {
        do {
            return try await writing { try await $0.handEditsSinceImport() }
        } catch EngineError.noCatalog {
            return 0
        }
    }

    /// A table on the server, built beside the live one and renamed over it, or an upsert.
    public nonisolated func makeSink(for options: ImportOptions) -> any CatalogSink {
        PostgresCatalogSink(location: location)
    }

    /// Opens the search connection once, throwing ``PostgresCatalogError`` as it comes; a server
    /// without the catalog yet is fine unless `requiringCatalog`.
    public func checkOpenable(requiringCatalog: Bool) async throws {
        do {
            try await PostgresProductSearch.open(location).close()
        } catch CatalogError.noCatalog where !requiringCatalog {
            // Made by the first import or the first product added.
        }
    }

    /// Closes both connections.
    public func close() async {
        await search?.close()
        await editor?.close()
        search = nil
        editor = nil
    }

    /// Nothing to drop: the connections read whichever table has the name now.
    public func catalogReplaced() async {}

    /// Nothing to read ahead: the server keeps its own caches.
    /// Reads the term list, which the first search with words would read otherwise.
    public func warmUp() async {
        _ = try? await reading(()) { try await $0.loadTermList() }
    }

    /// Runs `body` on the search connection; `empty` when there is no catalog yet.
    private func reading<T: Sendable>(_ empty: T, _ body: (PostgresProductSearch) async throws -> T) async throws -> T {
        for attempt in 0..<2 {
            let search: PostgresProductSearch
            if let open = self.search {
                search = open
            } else {
                do {
                    search = try await PostgresProductSearch.open(location)
                } catch CatalogError.noCatalog {
                    return empty
                } catch let error as PostgresCatalogError {
                    throw answer(error)
                }
                if let raced = self.search {
                    await search.close()
                    return try await body(raced)
                }
                self.search = search
            }
            do {
                return try await body(search)
            } catch let error as PostgresCatalogError {
                // A dropped connection is opened again once; a missing table means the catalog went away.
                self.search = nil
                await search.close()
                if case .server(_, _, _, let state) = error, state == "42P01" { return empty }
                if attempt == 1 { throw answer(error) }
            }
        }
        return empty
    }

    /// Runs `body` on the edit connection, opened (and, with `creatingCatalog`, the catalog created) at first use.
    private func writing<T: Sendable>(creatingCatalog: Bool = false, _ body: (PostgresCatalogEditor) async throws -> T) async throws -> T {
        for attempt in 0..<2 {
            let editor: PostgresCatalogEditor
            if let open = self.editor {
                editor = open
            } else {
                do {
                    editor = try await PostgresCatalogEditor.open(location, creatingCatalog: creatingCatalog)
                } catch EditError.catalog(.noCatalog) {
                    throw EngineError.noCatalog(catalog: name)
                } catch let error as PostgresCatalogError {
                    throw answer(error)
                }
                if let raced = self.editor {
                    await editor.close()
                    return try await body(raced)
                }
                self.editor = editor
            }
            do {
                return try await body(editor)
            } catch let error as PostgresCatalogError {
                self.editor = nil
                await editor.close()
                if attempt == 1 { throw answer(error) }
            }
        }
        throw EngineError.unreachable(catalog: name, reason: "the connection failed twice")
    }

    /// The engine's word for a failure of the server: unreachable, or what it refused.
    private nonisolated func answer(_ error: PostgresCatalogError) -> any Error {
        switch error {
        case .cannotConnect(_, let reason):
            return EngineError.unreachable(catalog: name, reason: reason)
        case .server(_, let doing, let message, _):
            return EngineError.serverFailed(catalog: name, doing: doing, message: message)
        case .invalidURL, .notACatalog, .earlierLayout:
            return EngineError.unreadable(catalog: name, reason: error.description)
        }
    }
}
