import Foundation
import ProductCatalog
import ProductCatalogPostgres

/// The catalog on a PostgreSQL server as the routes see it: one connection for searches, one for edits.
///
/// Every statement reads the table as it is, so an import's swap (by this server or any other
/// process) shows at the next request, and several `catalog serve` processes can serve one
/// catalog. A connection that fails is dropped and opened again at the next request. Counts stop
/// at ``ReadingSide/queryCountCap`` for every search, prefixes included: an exact count of ten
/// million rows takes the server a second.
public actor PostgresCatalogStore: CatalogStoring {
    public let location: PostgresLocation
    public nonisolated let imagesFolder: String
    private var search: PostgresProductSearch?
    private var editor: PostgresCatalogEditor?

    /// A store for the catalog at `location`, which need not exist yet; pictures go to `imagesFolder`.
    public init(location: PostgresLocation, imagesFolder: String) {
        self.location = location
        self.imagesFolder = imagesFolder
    }

    /// Typos and sort orders other than relevance are the catalog file's alone, so far: a query
    /// matches as typed, and a sort is refused with a message.
    public func page(_ text: String, byPrefix: Bool, filters: SearchFilters, typos: Bool, sort: SearchSort, after cursor: KeysetCursor?,
                     limit: Int) async throws -> (page: SearchPage, count: Int, complete: Bool) {
        guard sort == .relevance else {
            throw APIError(.badRequest, "A catalog on PostgreSQL lists matches in productId order only; sorting by \(sort.rawValue) needs a catalog file.",
                           fields: ["sort": "Leave out sort on a PostgreSQL catalog."])
        }
        let cap = ReadingSide.queryCountCap
        return try await reading((SearchPage(products: [], nextCursor: nil), 0, true)) { search in
            if byPrefix {
                let page = try await search.page(prefix: text, filters: filters, after: cursor, limit: limit)
                let count = try await search.count(prefix: text, filters: filters, upTo: cap + 1)
                return (page, min(count, cap), count <= cap)
            }
            let page = try await search.page(query: text, filters: filters, after: cursor, limit: limit)
            let count = try await search.count(query: text, filters: filters, upTo: cap + 1)
            return (page, min(count, cap), count <= cap)
        }
    }

    public func facets(_ text: String, byPrefix: Bool, filters: SearchFilters, typos: Bool) async throws -> FacetCounts? {
        try await reading(nil) { search in
            byPrefix ? try await search.facets(prefix: text, filters: filters) : try await search.facets(query: text, filters: filters)
        }
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

    public func productTypes() async throws -> [String] {
        try await reading([]) { try await $0.productTypes() }
    }

    public func productCount() async throws -> Int {
        try await reading(0) { try await $0.productCount() }
    }

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
                case .set: _ = try await replace(productId: current.productId, with: try change.applied(to: current))
                }
                outcome.changed.append(productId)
            } catch let error as EditError {
                switch error {
                case .invalid, .notFound, .duplicate: outcome.refused.append(.init(productId: productId, reason: error.description))
                default: throw error
                }
            } catch let error as APIError where [.notFound, .conflict, .unprocessableContent].contains(error.status) {
                outcome.refused.append(.init(productId: productId, reason: error.message))
            }
        }
        return outcome
    }

    public func handEditsSinceImport() async throws -> Int {
        do {
            return try await writing { try await $0.handEditsSinceImport() }
        } catch let error as APIError where error.status == .notFound {
            return 0
        }
    }

    /// Nothing to drop: the connections read whichever table has the name now.
    public func catalogReplaced() async {}

    /// Nothing to read ahead: the server keeps its own caches.
    public func warmUp() async {}

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
                    throw Self.answer(error)
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
                if attempt == 1 { throw Self.answer(error) }
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
                    throw APIError(.notFound, "There is no catalog yet: import a CSV file or add a product first.")
                } catch let error as PostgresCatalogError {
                    throw Self.answer(error)
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
                if attempt == 1 { throw Self.answer(error) }
            }
        }
        throw APIError.busy("The catalog's PostgreSQL server did not answer; try again.")
    }

    /// The answer for a failure of the server: 503 when it cannot be reached, else 500 with what it said.
    private static func answer(_ error: PostgresCatalogError) -> APIError {
        switch error {
        case .cannotConnect:
            return .busy("The catalog's PostgreSQL server cannot be reached; try again in a moment. The server's output says why.", retryAfter: 5)
        case .server(_, let doing, let message, _):
            return APIError(.internalServerError, "PostgreSQL could not \(doing) (\(message)); nothing was changed. Try again; if it keeps failing, see the server's output.")
        case .invalidURL, .notACatalog, .earlierLayout:
            return APIError(.internalServerError, error.description)
        }
    }
}
