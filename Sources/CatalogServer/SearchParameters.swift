import ProductCatalog

/// What `GET /api/products` and `GET /api/facets` search for: `q` (words or the start of a
/// productId) or `prefix` (the start of a productId only), the filters of
/// ``SearchSchema/filters`` by their names (`type`, `color`, `minPrice`, …; `GET /api/schema`
/// lists them), `typos`, `sort` and `variants=all`, every variant rather than one result per
/// product family.
struct SearchParameters {
    /// The query or prefix, trimmed.
    var text: String
    /// True for `prefix=`: productIds starting with `text`, and no word matches.
    var byPrefix: Bool
    var filters: SearchFilters
    /// `typos=0` turns typo tolerance off (words must match as typed).
    var typos = true
    /// `sort=`: relevance (the default), price, -price, title or newest.
    var sort = SearchSort.relevance
    /// `variants=all` lists every variant; by default a family is one result (``ResultListing``).
    var listing = ResultListing.families

    /// The longest `prefix`, or filter value: a productId's limit, which a useful one never passes.
    static var maxQueryBytes: Int { ProductRules.maxProductIdBytes }
    /// The longest `q`: a pasted title or more; its first ``WordQuery/maxWords`` words are used.
    static var maxWordQueryBytes: Int { WordQuery.maxBytes }

    /// What the engines take.
    var request: SearchRequest {
        SearchRequest(text, byPrefix: byPrefix, filters: filters, typos: typos, sort: sort, listing: listing)
    }

    /// True when `q` has more words than a search uses, so only the first were looked for.
    var isTruncated: Bool { !byPrefix && WordQuery(text).isTruncated }

    /// The parameters of `query`; throws a 400 naming the parameter at fault.
    init(_ query: FormQuery) throws {
        let names = ["q", "prefix"] + SearchSchema.filters.map(\.name) + ["typos", "sort", "variants"]
        for name in names where query.undecodable.contains(name) {
            throw APIError(.badRequest, "\(name) is not valid percent-encoded UTF-8; encode it with encodeURIComponent.",
                           fields: [name: "Encode it as UTF-8 with encodeURIComponent."])
        }
        guard query["q"] == nil || query["prefix"] == nil else {
            throw APIError(.badRequest, "Give q (words or the start of a productId) or prefix (the start of a productId only), not both.",
                           fields: ["q": "Leave out either q or prefix."])
        }
        byPrefix = query["prefix"] != nil
        // Spaces around a query are never meant: the page trims them too.
        text = ProductRules.trimmed(query["prefix"] ?? query["q"] ?? "")
        if byPrefix {
            guard text.utf8.count <= Self.maxQueryBytes else {
                throw APIError(.badRequest, "prefix is longer than \(Self.maxQueryBytes) bytes, longer than any productId.",
                               fields: ["prefix": "Use at most \(Self.maxQueryBytes) bytes."])
            }
        } else {
            guard text.utf8.count <= Self.maxWordQueryBytes else {
                throw APIError(.badRequest, "q is longer than \(Self.maxWordQueryBytes) bytes; a search uses its first \(WordQuery.maxWords) words, so shorten it to those.",
                               fields: ["q": "Use at most \(Self.maxWordQueryBytes) bytes."])
            }
        }

        do {
            filters = try SearchFilters(values: SearchSchema.filters.map { ($0.name, query.all($0.name)) })
        } catch {
            throw APIError(error)
        }
        switch query["typos"] {
        case nil, "", "1", "true": typos = true
        case "0", "false": typos = false
        default:
            throw APIError(.badRequest, "typos must be 1 (near words match too, the default) or 0 (words as typed only).", fields: ["typos": "Use 1 or 0."])
        }
        if let text = query["sort"], !text.isEmpty {
            guard let sort = SearchSort(rawValue: text) else {
                throw APIError(.badRequest, "sort must be one of \(SearchSort.names).", fields: ["sort": "Use one of \(SearchSort.names)."])
            }
            self.sort = sort
        }
        switch query["variants"] {
        case nil, "", "families": listing = .families
        case "all": listing = .variants
        default:
            throw APIError(.badRequest, "variants must be all (every variant) or families (one result per product, the default).",
                           fields: ["variants": "Use all or families."])
        }
    }

    /// The parameters of `query`, a smart collection's own search in place of its name (see
    /// ``CatalogEngine/resolvingCollection(_:)``); 404 for a collection the catalog lacks.
    static func read(_ query: FormQuery, in store: any CatalogEngine) async throws -> SearchParameters {
        var parameters = try SearchParameters(query)
        let search = try await store.resolvingCollection(
            SavedSearch(text: parameters.text, byPrefix: parameters.byPrefix, filters: parameters.filters, sort: parameters.sort))
        (parameters.text, parameters.byPrefix, parameters.filters, parameters.sort) = (search.text, search.byPrefix, search.filters, search.sort)
        return parameters
    }
}
