extension ProductSearch {
    /// Up to `limit` products matching `query` and meeting `filters`, after `cursor`: first those
    /// whose productId starts with the query (ASCII case ignored), in productId order; then those
    /// whose title, brand or type have its words (case and accents ignored), tier by tier (see
    /// ``WordTier``): exact titles, titles with every word (the last as the start of one), titles
    /// with words starting with each, then titles, brands and types together. Within a tier, the
    /// products with fewer title words come first, then the catalog's order (see ``WordIndex``).
    ///
    /// Then, with `typos`, the products matched only with typos, fewest first (see ``WordPlan``).
    /// A product is listed once. Each page is one range of the primary key or one seek in the word
    /// index, so a deep page costs what the first does; filters skip the products they leave out on
    /// the way. A query keeps its first ``WordQuery/maxWords`` words. A catalog without a word index
    /// of this layout (see ``hasWordIndex``) gives productId matches only.
    public func page(query: String, filters: SearchFilters = SearchFilters(), typos: Bool = true,
                     after cursor: KeysetCursor? = nil, limit: Int = defaultPageSize) throws -> SearchPage {
        precondition(limit > 0, "a page holds at least one product")
        var products: [Product] = []
        let wordPosition = cursor?.wordPosition
        let plan = try wordPlan(query, typos: typos)
        func highlighted(_ page: SearchPage) throws -> SearchPage {
            guard let plan else { return page }
            var page = page
            page.highlights = try page.products.map { try highlights(of: $0, plan: plan) }
            return page
        }
        if wordPosition == nil {
            let prefixPage = try page(prefix: query, filters: filters, after: cursor, limit: limit)
            if prefixPage.nextCursor != nil { return try highlighted(prefixPage) }
            products = prefixPage.products
        }
        guard let plan else {
            return SearchPage(products: products, nextCursor: nil)
        }
        // One more than fits, to know whether a next page exists.
        let matches = try wordMatches(plan, after: wordPosition, excluding: PrefixRange(prefix: query), filters: filters,
                                      limit: limit - products.count + 1)
        let fitting = matches.prefix(limit - products.count)
        for match in fitting {
            if let product = try product(id: match.productId) { products.append(product) }
        }
        guard matches.count > fitting.count else { return try highlighted(SearchPage(products: products, nextCursor: nil)) }
        let last = fitting.last?.position ?? wordPosition ?? WordPosition(tier: .exactTitle, row: 0)
        return try highlighted(SearchPage(products: products, nextCursor: KeysetCursor(afterWordMatch: last.tier, row: last.row)))
    }

    /// How many products ``page(query:filters:after:limit:)`` lists in all; with `limit`,
    /// counting stops at `limit`, and also (for a query word that starts many terms held by many
    /// products, whose matches are checked one by one) after ``countBudget`` candidates: then
    /// `isComplete` is false and `count` is how many were found, a lower bound.
    public func countMatches(query: String, filters: SearchFilters = SearchFilters(), typos: Bool = true, upTo limit: Int? = nil) throws -> MatchCount {
        precondition(limit.map { $0 >= 0 } ?? true, "a count stops at 0 or more")
        let byId = try count(prefix: query, filters: filters, upTo: limit)
        if let limit, byId >= limit { return MatchCount(count: limit, isComplete: false) }
        guard let plan = try wordPlan(query, typos: typos) else { return MatchCount(count: byId, isComplete: true) }
        let words = try countWordMatches(plan, excluding: PrefixRange(prefix: query), rangeIsEmpty: byId == 0, filters: filters,
                                         limit: limit.map { $0 - byId }, budget: limit == nil ? nil : Self.countBudget)
        return MatchCount(count: byId + words.count, isComplete: words.isComplete)
    }

    /// ``countMatches(query:filters:upTo:)``'s count alone: exact without `limit`, `limit` when at least that many match.
    public func count(query: String, filters: SearchFilters = SearchFilters(), typos: Bool = true, upTo limit: Int? = nil) throws -> Int {
        try countMatches(query: query, filters: filters, typos: typos, upTo: limit).count
    }

    /// Candidates a count checks one by one before it gives a lower bound: 5 to 15 ms of work on a realistic million.
    public static let countBudget = 2_500

    /// `SELECT count(*)` of the rows `clauses` select, stopping at `?9` rows when `limited`.
    static func counting(_ clauses: String, limited: Bool) -> String {
        limited ? "SELECT count(*) FROM (SELECT 1 " + clauses + " LIMIT ?9)" : "SELECT count(*) " + clauses
    }

    /// True when `query` has words (runs of letters or digits), so that it finds products by
    /// their words as well as by productId.
    public static func hasWords(_ query: String) -> Bool {
        !WordQuery(query).words.isEmpty
    }

    /// True when the catalog has a word index of this layout; one made by an earlier version
    /// gets it at its next import or edit.
    public var hasWordIndex: Bool {
        get throws { try WordIndex.exists(connection) }
    }

    /// `FROM … WHERE …` for the word matches of `?1` whose productId is not in `range` (`?2`, `?3`)
    /// and whose product `p` meets `filters` (`?10` on); the product is joined only for filters.
    func wordMatchClauses(excluding range: PrefixRange, _ filters: SearchFilters, joiningProducts: Bool = false) throws -> String {
        let join = joiningProducts || !filters.isEmpty
        return """
            FROM \(WordIndex.table) JOIN \(WordIndex.rowsTable) w ON w.wordRow = \(WordIndex.table).rowid\
            \(join ? " JOIN \(CatalogSchema.table) p ON p.productId = w.productId" : "")
            WHERE \(WordIndex.table) MATCH ?1 AND NOT (w.productId >= ?2\(range.upper == nil ? "" : " AND w.productId < ?3"))\
            \(try filterClause(filters).sql)
            """
    }

    /// Binds the parameters of ``wordMatchClauses(excluding:_:joiningProducts:)``.
    func bindWordMatch(_ match: String, excluding range: PrefixRange, _ filters: SearchFilters, to statement: Statement) throws {
        try statement.bind(1, match)
        try statement.bind(2, utf8: range.lower)
        if let upper = range.upper { try statement.bind(3, utf8: upper) }
        try filterClause(filters).bind(to: statement)
    }
}
