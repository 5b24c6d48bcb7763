extension ProductSearch {
    /// Up to `limit` products matching `query` and meeting `filters`, after `cursor`: first those
    /// whose productId starts with the query (ASCII case ignored), in productId order; then those
    /// whose title, brand or type have its words (case and accents ignored), in the buckets of the
    /// ranking rules (``MatchRank``): exact titles, titles with every word (the last as the start
    /// of one), titles with words starting with each, then titles, brands and types together;
    /// then, with `typos`, the same again with one typo, two, and more. Within a bucket, the
    /// products with fewer title words come first, then the catalog's order (see ``WordLists``).
    ///
    /// A product is listed once. Each page starts at its cursor's bucket and row in the index, so
    /// a deep page costs what the first does; filters skip the products they leave out on the way.
    /// A query keeps its first ``WordQuery/maxWords`` words. A catalog without a word index of
    /// this layout (see ``hasWordIndex``) gives productId matches only.
    public func page(query: String, filters: SearchFilters = SearchFilters(), typos: Bool = true, listing: ResultListing = .families,
                     after cursor: KeysetCursor? = nil, limit: Int = defaultPageSize) throws -> SearchPage {
        precondition(limit > 0, "a page holds at least one product")
        // One read transaction: the many short reads of the lists take the file's lock once.
        return try connection.reading {
            var products: [Product] = []
            let position = cursor?.bucketPosition
            let plan = try indexPlan(query, typos: typos)
            let build = try indexView()?.epoch
            if let made = cursor?.wordBuild, let build, made != build {
                throw CursorOfAnotherBuild(cursorBuild: made, catalogBuild: build)
            }
            func highlighted(_ page: SearchPage) throws -> SearchPage {
                guard let plan else { return page }
                var page = page
                page.highlights = try page.products.map { try highlights(of: $0, plan: plan) }
                return page
            }
            if position == nil {
                let prefixPage = try page(prefix: query, filters: filters, listing: listing, after: cursor, limit: limit)
                if prefixPage.nextCursor != nil { return try highlighted(prefixPage) }
                products = prefixPage.products
            }
            guard let plan else {
                return SearchPage(products: products, nextCursor: nil)
            }
            let range = PrefixRange(prefix: query)
            var judge = try listsFamilies(listing) ? FamilyJudge(search: self, plan: plan, range: range, filters: filters, fromFirstMatch: position == nil) : nil
            // One more than fits, to know whether a next page exists; listing families, read on
            // until that many are listed, since a family's later matches are passed over.
            let room = limit - products.count
            var listed: [IndexHit] = []
            var from = position
            while listed.count <= room {
                let wanted = room + 1 - listed.count
                let read = judge == nil ? wanted : max(wanted, 32)
                let hits = try indexHits(plan, after: from, excluding: range, filters: filters, limit: read)
                let verdicts = try judge?.lists(hits) ?? hits.map { _ in true }
                for (hit, isListed) in zip(hits, verdicts) where isListed && listed.count <= room { listed.append(hit) }
                guard hits.count == read, let last = hits.last else { break }
                from = (last.rank, last.row)
            }
            let fitting = listed.prefix(room)
            for hit in fitting {
                if let product = try product(id: hit.productId) { products.append(product) }
            }
            guard listed.count > fitting.count else { return try highlighted(SearchPage(products: products, nextCursor: nil)) }
            let last = fitting.last.map { ($0.rank, $0.row) } ?? position ?? (MatchRank.first, 0)
            return try highlighted(SearchPage(products: products, nextCursor: KeysetCursor(afterWordBucket: last.0.code, row: last.1, build: build)))
        }
    }

    /// How many products ``page(query:filters:after:limit:)`` lists in all (families, when
    /// `listing` says so); with `limit`, counting stops at `limit`.
    public func countMatches(query: String, filters: SearchFilters = SearchFilters(), typos: Bool = true, listing: ResultListing = .families,
                             upTo limit: Int? = nil) throws -> MatchCount {
        precondition(limit.map { $0 >= 0 } ?? true, "a count stops at 0 or more")
        return try connection.reading {
            let byId = try count(prefix: query, filters: filters, listing: listing, upTo: limit)
            if let limit, byId >= limit { return MatchCount(count: limit, isComplete: false) }
            guard let plan = try indexPlan(query, typos: typos) else { return MatchCount(count: byId, isComplete: true) }
            let words = try indexCount(plan, excluding: PrefixRange(prefix: query), filters: filters, families: try listsFamilies(listing),
                                       limit: limit.map { $0 - byId })
            return MatchCount(count: byId + words.count, isComplete: words.isComplete, isEstimate: words.isEstimate)
        }
    }

    /// ``countMatches(query:filters:upTo:)``'s count alone: exact without `limit`, `limit` when at least that many match.
    public func count(query: String, filters: SearchFilters = SearchFilters(), typos: Bool = true, listing: ResultListing = .families,
                      upTo limit: Int? = nil) throws -> Int {
        try countMatches(query: query, filters: filters, typos: typos, listing: listing, upTo: limit).count
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

    /// True when the catalog has a word index of this layout; one made by an earlier version
    /// gets it at its next import or edit.
    public var hasWordIndex: Bool {
        get throws { try WordLists.exists(connection) }
    }
}
