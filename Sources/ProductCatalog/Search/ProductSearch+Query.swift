extension ProductSearch {
    /// Up to `limit` products matching `query` and meeting `filters`, after `cursor`: first those
    /// whose productId starts with the query (ASCII case ignored), in productId order; then those
    /// with a word starting with each of its words in their title, brand or type (case and
    /// accents ignored), in word-index order.
    ///
    /// Word-index order is productId order for the products of the last replacing import, then
    /// those added since, in the order they were added. A product is listed once. Each page is one
    /// range of the primary key or one seek in the word index, so a deep page costs what the first
    /// does; filters skip the products they leave out on the way. A catalog without a word index
    /// (see ``hasWordIndex``) gives productId matches only.
    public func page(query: String, filters: SearchFilters = SearchFilters(), after cursor: KeysetCursor? = nil, limit: Int = defaultPageSize) throws -> SearchPage {
        precondition(limit > 0, "a page holds at least one product")
        var products: [Product] = []
        if cursor?.lastWordRow == nil {
            let prefixPage = try page(prefix: query, filters: filters, after: cursor, limit: limit)
            if prefixPage.nextCursor != nil { return prefixPage }
            products = prefixPage.products
        }
        guard let match = try wordMatch(query) else {
            return SearchPage(products: products, nextCursor: nil)
        }
        // One more than fits, to know whether a next page exists.
        let matches = try wordMatches(match, excludingPrefix: query, filters: filters,
                                      after: cursor?.lastWordRow ?? 0, limit: limit - products.count + 1)
        let fitting = matches.prefix(limit - products.count)
        for (_, productId) in fitting {
            if let product = try product(id: productId) { products.append(product) }
        }
        guard matches.count > fitting.count else { return SearchPage(products: products, nextCursor: nil) }
        return SearchPage(products: products, nextCursor: KeysetCursor(afterWordRow: fitting.last?.wordRow ?? cursor?.lastWordRow ?? 0))
    }

    /// How many products ``page(query:filters:after:limit:)`` lists in all, or, with `limit`,
    /// `limit` when it lists at least that many: counting stops there, so a broad query on a
    /// large catalog costs what `limit` matches cost.
    public func count(query: String, filters: SearchFilters = SearchFilters(), upTo limit: Int? = nil) throws -> Int {
        precondition(limit.map { $0 >= 0 } ?? true, "a count stops at 0 or more")
        let byId = try count(prefix: query, filters: filters, upTo: limit)
        if let limit, byId >= limit { return limit }
        guard let match = try wordMatch(query) else { return byId }
        let range = PrefixRange(prefix: query)
        let statement = try prepared(Self.counting(try wordMatchClauses(excluding: range, filters), limited: limit != nil))
        return try statement.using {
            try bindWordMatch(match, excluding: range, filters, to: statement)
            if let limit { try statement.bind(9, Int64(limit - byId)) }
            try statement.step()
            return byId + Int(statement.int64(at: 0))
        }
    }

    /// `SELECT count(*)` of the rows `clauses` select, stopping at `?9` rows when `limited`.
    static func counting(_ clauses: String, limited: Bool) -> String {
        limited ? "SELECT count(*) FROM (SELECT 1 " + clauses + " LIMIT ?9)" : "SELECT count(*) " + clauses
    }

    /// True when `query` has words (runs of letters or digits), so that it finds products by
    /// their words as well as by productId.
    public static func hasWords(_ query: String) -> Bool {
        !WordQuery(query).words.isEmpty
    }

    /// True when the catalog has a word index; one made before it gets one at its next import or edit.
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

    /// The word index's rows matching `match` after `wordRow`, but not those whose productId
    /// starts with `prefix` nor those `filters` leave out.
    private func wordMatches(_ match: String, excludingPrefix prefix: String, filters: SearchFilters,
                             after wordRow: Int64, limit: Int) throws -> [(wordRow: Int64, productId: String)] {
        let range = PrefixRange(prefix: prefix)
        let statement = try prepared("SELECT w.wordRow, w.productId " + (try wordMatchClauses(excluding: range, filters))
            + " AND \(WordIndex.table).rowid > ?4 ORDER BY \(WordIndex.table).rowid LIMIT ?5")
        return try statement.using {
            try bindWordMatch(match, excluding: range, filters, to: statement)
            try statement.bind(4, wordRow)
            try statement.bind(5, Int64(limit))
            var rows: [(Int64, String)] = []
            while try statement.step() { rows.append((statement.int64(at: 0), statement.text(at: 1) ?? "")) }
            return rows
        }
    }
}
