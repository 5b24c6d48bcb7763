extension ProductSearch {
    /// Up to `limit` products matching `query` and `filters` after `cursor`, in `sort`'s order
    /// (see ``SearchSort``); the products are those of ``page(query:filters:typos:after:limit:)``.
    ///
    /// A query that matches few products (up to ``sortedInMemory``, 5,000) has them all read and sorted;
    /// one that matches more (or none: every product, or a large collection) walks the sort's index and checks each
    /// product's productId and words, stopping once the page is full. Either way a page starts
    /// after the cursor's value, so page 1,000 reads what page 1 reads.
    public func page(query: String, filters: SearchFilters = SearchFilters(), typos: Bool = true, sort: SearchSort,
                     listing: ResultListing = .families, after cursor: KeysetCursor? = nil, limit: Int = defaultPageSize) throws -> SearchPage {
        guard sort != .relevance else {
            return try page(query: query, filters: filters, typos: typos, listing: listing, after: cursor, limit: limit)
        }
        precondition(limit > 0, "a page holds at least one product")
        let plan = try indexPlan(query, typos: typos)
        let range = PrefixRange(prefix: query)
        let tokenizer = try wordTokenizer
        let check = plan.map { WordMatchCheck(plan: $0, tokenizer: tokenizer) }
        let hasQuery = !ProductRules.trimmed(query).isEmpty
        /// Whether a product read in the sort's order matches the query.
        func matches(_ row: SortedRow) throws -> Bool {
            guard hasQuery else { return true }
            if range.contains(row.productId) { return true }
            return try check?.matches(row) ?? false
        }
        // The matches after `after`, in the sort's order, up to `limit`.
        var allKeys: [SortKey]?
        func keys(after: SortPosition?, limit: Int) throws -> [SortKey] {
            // A collection is counted first too: a small one is read and sorted, not found by walking the catalog.
            if !hasQuery, filters.collection == nil {
                return try walk(sort, filters: filters, after: after, limit: limit) { _ in true }
            }
            if allKeys == nil {
                let count = try countMatches(query: query, filters: filters, typos: typos, listing: .variants, upTo: sortedInMemory + 1)
                if count.isComplete { allKeys = try allMatches(query, plan: plan, filters: filters, sort: sort, count: count.count) }
            }
            if let allKeys {
                return Array(allKeys.lazy.filter { after.map($0.comes(after:)) ?? true }.prefix(limit))
            }
            return try walk(sort, filters: filters, after: after, limit: limit, matches)
        }
        var judge = try listsFamilies(listing) ? SortedFamilyJudge(search: self, sort: sort, filters: filters, matches: matches) : nil
        // One more than fits, to know whether a next page exists; listing families, read on until
        // that many are listed, since a family's later variants are passed over.
        var listed: [SortKey] = []
        var from = cursor?.sortPosition.flatMap { $0.sort == sort ? $0 : nil }
        while listed.count <= limit {
            let wanted = limit + 1 - listed.count
            let read = judge == nil ? wanted : max(wanted, 32)
            let found = try keys(after: from, limit: read)
            for key in found where listed.count <= limit {
                if try judge?.lists(key) ?? true { listed.append(key) }
            }
            guard found.count == read, let last = found.last else { break }
            from = last.position(sort)
        }
        let fitting = listed.prefix(limit)
        let products = try fitting.compactMap { try product(id: $0.productId) }
        let next = listed.count > limit ? fitting.last.map { KeysetCursor(after: $0.position(sort)) } : nil
        var page = SearchPage(products: products, nextCursor: next)
        if let plan { page.highlights = try products.map { try highlights(of: $0, plan: plan) } }
        return page
    }

    /// Tells which products of a sorted search are listed when families are: the first of each
    /// family in the sort's order among those that match and pass the filters.
    struct SortedFamilyJudge {
        let search: ProductSearch
        let sort: SearchSort
        let filters: SearchFilters
        let matches: (SortedRow) throws -> Bool
        /// The families met so far: each is listed at most at its first product.
        private var met = Set<String>()

        init(search: ProductSearch, sort: SearchSort, filters: SearchFilters, matches: @escaping (SortedRow) throws -> Bool) {
            self.search = search
            self.sort = sort
            self.filters = filters
            self.matches = matches
        }

        /// True when the product at `key` is listed.
        mutating func lists(_ key: SortKey) throws -> Bool {
            guard let groupId = try search.groupId(of: key.productId) else { return true }
            guard met.insert(groupId).inserted else { return false }
            var before = false
            try search.familyMembers(groupId, except: key.productId, filters: filters, columns: try search.walkColumns(sort),
                                     from: try search.sortSource(sort)) { statement in
                guard !before else { return }
                let row = SortedRow(statement: statement)
                let member = SortKey(value: try search.sortValue(statement, sort), productId: row.productId)
                if SortKey.before(member, key, sort), try matches(row) { before = true }
            }
            return !before
        }
    }

    /// A product's place in a sorted search.
    struct SortKey {
        var value: SortPosition.SortValue?
        var productId: String

        func position(_ sort: SearchSort) -> SortPosition {
            SortPosition(sort: sort, value: value, productId: productId)
        }

        /// True when this key comes after `position` in its sort's order.
        func comes(after position: SortPosition) -> Bool {
            SortKey.before(SortKey(value: position.value, productId: position.productId), self, position.sort)
        }

        /// The sort's order: values first (ascending, or descending for `-price`), those without last, ties by productId.
        static func before(_ a: SortKey, _ b: SortKey, _ sort: SearchSort) -> Bool {
            switch (a.value, b.value) {
            case (nil, nil): break
            case (nil, _): return false
            case (_, nil): return true
            case (.number(let x)?, .number(let y)?) where x != y:
                return sort.isDescending ? x > y : x < y
            case (.text(let x)?, .text(let y)?):
                let (foldedX, foldedY) = (x.utf8.map(ProductIdOrder.fold), y.utf8.map(ProductIdOrder.fold))
                if foldedX != foldedY { return foldedX.lexicographicallyPrecedes(foldedY) }
            default: break
            }
            let (idX, idY) = (a.productId.utf8.map(ProductIdOrder.fold), b.productId.utf8.map(ProductIdOrder.fold))
            return sort.isDescending ? idY.lexicographicallyPrecedes(idX) : idX.lexicographicallyPrecedes(idY)
        }
    }

    /// The sort keys of every match of `query` (there are `count`), sorted.
    private func allMatches(_ query: String, plan: WordPlan?, filters: SearchFilters, sort: SearchSort, count: Int) throws -> [SortKey] {
        var ids = try page(prefix: query, filters: filters, listing: .variants, limit: max(1, count)).products.map(\.productId)
        if let plan {
            ids += try indexHits(plan, after: nil, excluding: PrefixRange(prefix: query), filters: filters, limit: max(1, count)).map(\.productId)
        }
        let statement = try prepared("SELECT \(try sortExpression(sort)) \(try sortSource(sort)) WHERE p.productId = ?1")
        var keys: [SortKey] = []
        for id in ids {
            try statement.using {
                try statement.bind(1, id)
                guard try statement.step() else { return }
                keys.append(SortKey(value: try sortValue(statement, sort, productId: id), productId: id))
            }
        }
        return keys.sorted { SortKey.before($0, $1, sort) }
    }

    /// A product read in the sort's order, for a check.
    struct SortedRow {
        let statement: Statement
        var productId: String { statement.text(at: 1) ?? "" }
    }

    /// The products in `sort`'s order after `after` that `filters` keep and `keep` accepts, up to `limit`.
    ///
    /// By price and by title the index's sort lists (``SortLists``) give the order: every segment's,
    /// merged (``listWalk(_:filters:after:limit:_:)``); the newest first, the places of the word
    /// index from the last one given (``newestWalk(view:filters:after:limit:_:)``). A catalog without
    /// the lists (layout 6 until its first write) is read in the SQL order.
    private func walk(_ sort: SearchSort, filters: SearchFilters, after: SortPosition?, limit: Int,
                      _ keep: (SortedRow) throws -> Bool) throws -> [SortKey] {
        try connection.reading {
            guard try SortLists.exists(connection), let view = try indexView() else {
                return try tableWalk(sort, filters: filters, after: after, limit: limit, keep)
            }
            if sort == .newest { return try newestWalk(view: view, filters: filters, after: after, limit: limit, keep) }
            return try listWalk(sort, view: view, filters: filters, after: after, limit: limit, keep)
        }
    }

    /// ``walk(_:filters:after:limit:_:)`` newest first: the products by their places in the word
    /// index, from the last place given down (a product's place is given once, when it is added;
    /// a replacing import's products have theirs in productId order, see ``ChangeNotes``), each read by
    /// productId with the filters. PostgreSQL orders by the same places.
    private func newestWalk(view: IndexView, filters: SearchFilters, after: SortPosition?, limit: Int,
                            _ keep: (SortedRow) throws -> Bool) throws -> [SortKey] {
        let filter = try filterClause(filters)
        let row = try prepared("SELECT \(try walkColumns(.newest)) FROM \(CatalogSchema.table) p WHERE p.productId = ?1\(filter.sql)")
        var place = view.nextPlace - 1
        if let after {
            guard case .number(let last)? = after.value else { return [] }
            place = last - 1
        }
        var keys: [SortKey] = []
        while keys.count < limit, place >= 1 {
            defer { place -= 1 }
            guard let productId = try view.productId(at: place) else { continue }
            try row.using {
                try row.bind(1, productId)
                try filter.bind(to: row)
                guard try row.step(), try keep(SortedRow(statement: row)) else { return }
                keys.append(SortKey(value: .number(place), productId: row.text(at: 1) ?? productId))
            }
        }
        return keys
    }

    /// ``walk(_:filters:after:limit:_:)`` over the sort lists of `view`'s segments: each segment's
    /// keys in the sort's order, merged, a key passed over when a later segment took its product
    /// (changed it, or deleted it); each listed product read by productId, with the filters.
    private func listWalk(_ sort: SearchSort, view: IndexView, filters: SearchFilters, after: SortPosition?, limit: Int,
                          _ keep: (SortedRow) throws -> Bool) throws -> [SortKey] {
        let (valued, missing): (SortLists.List, SortLists.List) = sort == .title ? (.title, .titleMissing) : (.price, .priceMissing)
        let forward = sort != .priceDescending
        let filter = try filterClause(filters)
        let row = try prepared("SELECT \(try walkColumns(sort)) FROM \(CatalogSchema.table) p WHERE p.productId = ?1\(filter.sql)")

        // Where each list is read from: a cursor with a value starts in the list of values, one
        // without in the list of products without.
        var starts: [(SortLists.List, [UInt8]?)] = [(valued, nil), (missing, nil)]
        if let after {
            let id = Array(after.productId.utf8)
            switch after.value {
            case .number(let price)? where valued == .price:
                starts[0].1 = id.withUnsafeBytes { SortLists.priceKey(price, productId: $0) }
            case .text(let title)?:
                let title = Array(title.utf8)
                starts[0].1 = title.withUnsafeBytes { titleBytes in id.withUnsafeBytes { SortLists.titleKey(titleBytes, productId: $0) } }
            case .number?:
                break
            case nil:
                starts = [(missing, id.withUnsafeBytes { SortLists.missingKey(productId: $0) })]
            }
            // Forwards, past the cursor's product's own keys (they end with its place); backwards,
            // its keys come after the position already.
            if forward { starts = starts.map { ($0.0, $0.1.map(SortLists.position(after:))) } }
        }
        var keys: [SortKey] = []
        for (list, start) in starts where keys.count < limit {
            var cursors = try view.segments.map { try SortLists.Cursor(list, reader: $0.sortKeys, forward: forward, after: start) }
            var heads = try cursors.indices.map { try cursors[$0].next() }
            while keys.count < limit {
                // The segment whose next key comes first in the sort's order.
                var first: Int?
                for index in heads.indices {
                    guard let head = heads[index] else { continue }
                    if let best = first, let bestHead = heads[best],
                       forward ? !ByteOrder.precedes(head, bestHead) : !ByteOrder.precedes(bestHead, head) { continue }
                    first = index
                }
                guard let segment = first, let key = heads[segment] else { break }
                heads[segment] = try cursors[segment].next()
                // A key of a product a later segment took (changed or deleted) is passed over.
                guard view.isLive(SortLists.place(in: key), in: segment) else { continue }
                let productId = Array(SortLists.productId(in: key, of: list))
                try row.using {
                    try row.bind(1, utf8: productId)
                    try filter.bind(to: row)
                    guard try row.step(), try keep(SortedRow(statement: row)) else { return }
                    keys.append(SortKey(value: Self.sortValue(row, 0, sort), productId: row.text(at: 1) ?? ""))
                }
            }
        }
        return keys
    }

    /// The columns a walk reads: the sort's value, the productId, and the fields words are matched in.
    func walkColumns(_ sort: SearchSort) throws -> String {
        let fields = try WordLists.fields.map { ProductColumn.expression(for: $0, alias: "p", columnNames: try productColumnNames) }
        return "\(try sortExpression(sort)), p.productId, " + fields.joined(separator: ", ")
    }

    /// ``walk(_:filters:after:limit:_:)`` in SQL over the whole table (through its indexes, in a
    /// catalog of layout 6; by the order of additions for the newest first).
    private func tableWalk(_ sort: SearchSort, filters: SearchFilters, after: SortPosition?, limit: Int,
                           _ keep: (SortedRow) throws -> Bool) throws -> [SortKey] {
        let value = try sortExpression(sort)
        let columns = try walkColumns(sort)
        let from = try sortSource(sort)
        let filter = try filterClause(filters).sql
        let descending = sort.isDescending
        let order = descending ? "DESC" : "ASC"
        let comparison = descending ? "<" : ">"
        var keys: [SortKey] = []
        // The products with a value, from the cursor's on (first those sharing its value, after
        // its productId, then those past its value); then those without one. Two seeks of the
        // sort's index, (value, productId): a row value (value, productId) > (?1, ?2) is not one
        // SQLite 3.40 seeks an expression index by, and value >= ?1 alone reads every product
        // sharing the cursor's value (thousands share a price in ten million).
        var conditions: [(clause: String, ties: Bool)] = []
        if after?.value != nil {
            conditions = [(" AND \(value) = ?1 AND p.productId \(comparison) ?2", true), (" AND \(value) \(comparison) ?1", false)]
        } else if after == nil {
            conditions = [("", false)]
        }
        for (condition, ties) in conditions where keys.count < limit {
            // Among the cursor's ties the value is one: ordering by it too would make SQLite sort them all first.
            let ordering = ties ? "p.productId \(order)" : "\(value) \(order), p.productId \(order)"
            let sql = "SELECT \(columns) \(from) WHERE \(value) IS NOT NULL\(filter)\(condition) ORDER BY \(ordering)"
            let statement = try prepared(sql)
            try statement.using {
                if let after, let afterValue = after.value {
                    switch afterValue {
                    case .number(let number): try statement.bind(1, number)
                    case .text(let text): try statement.bind(1, text)
                    }
                    if ties { try statement.bind(2, after.productId) }
                }
                try filterClause(filters).bind(to: statement)
                while keys.count < limit, try statement.step() {
                    if try keep(SortedRow(statement: statement)) {
                        keys.append(SortKey(value: Self.sortValue(statement, 0, sort), productId: statement.text(at: 1) ?? ""))
                    }
                }
            }
        }
        if keys.count < limit {
            var sql = "SELECT \(columns) \(from) WHERE \(value) IS NULL\(filter)"
            if after != nil, after?.value == nil { sql += " AND p.productId \(comparison) ?2" }
            sql += " ORDER BY p.productId \(order)"
            let statement = try prepared(sql)
            try statement.using {
                if let after, after.value == nil { try statement.bind(2, after.productId) }
                try filterClause(filters).bind(to: statement)
                while keys.count < limit, try statement.step() {
                    if try keep(SortedRow(statement: statement)) {
                        keys.append(SortKey(value: nil, productId: statement.text(at: 1) ?? ""))
                    }
                }
            }
        }
        return keys
    }

    /// The SQL value `sort` orders by (NULL for a product without one).
    private func sortExpression(_ sort: SearchSort) throws -> String {
        let names = try productColumnNames
        switch sort {
        case .relevance, .price, .priceDescending:
            return "ifnull(\(ProductColumn.expression(for: .salesPrice, alias: "p", columnNames: names)), \(ProductColumn.expression(for: .listPrice, alias: "p", columnNames: names)))"
        case .title:
            return "nullif(\(ProductColumn.expression(for: .title, alias: "p", columnNames: names)), '') COLLATE NOCASE"
        case .newest:
            // Places are the word index's (``sortValue(_:_:productId:)``); a catalog of layout 6 has none.
            return "NULL"
        }
    }

    /// `FROM …` for the products `p` with what ``sortExpression(_:)`` reads.
    func sortSource(_ sort: SearchSort) throws -> String {
        "FROM \(CatalogSchema.table) p"
    }

    /// The value `sort` orders the product of `statement` by (its column 0, with its productId in
    /// column 1 unless `productId` is given): newest first, its place in the word index.
    func sortValue(_ statement: Statement, _ sort: SearchSort, productId: String? = nil) throws -> SortPosition.SortValue? {
        guard sort == .newest else { return Self.sortValue(statement, 0, sort) }
        return try indexView()?.place(of: productId ?? statement.text(at: 1) ?? "").map { .number($0) }
    }

    static func sortValue(_ statement: Statement, _ column: Int32, _ sort: SearchSort) -> SortPosition.SortValue? {
        if statement.isNull(at: column) { return nil }
        return sort == .title ? .text(statement.text(at: column) ?? "") : .number(statement.int64(at: column))
    }
}

/// Whether a product's words match a query's, in any field and within its typos: the check a
/// sorted search makes on each product it walks past.
struct WordMatchCheck {
    private let matcher: WordMatcher
    private let tokenizer: WordTokenizer

    init(plan: WordPlan, tokenizer: WordTokenizer) {
        matcher = WordMatcher(plan: plan)
        self.tokenizer = tokenizer
    }

    /// True when every word of the query matches a word of the row's title, brand or type (columns 2 to 4).
    func matches(_ row: ProductSearch.SortedRow) throws -> Bool {
        var found = [Bool](repeating: false, count: matcher.wordCount)
        for column in Int32(2)...4 {
            try row.statement.withBytes(at: column) { text in
                try tokenizer.forEachToken(in: text) { token in
                    for index in found.indices where !found[index] && matcher.match(token, word: index).matches {
                        found[index] = true
                    }
                }
            }
            if found.allSatisfy({ $0 }) { return true }
        }
        return false
    }
}

extension PrefixRange {
    /// True when `productId` starts with the prefix, ignoring ASCII case.
    func contains(_ productId: String) -> Bool {
        let key = productId.utf8.map(ProductIdOrder.fold)
        return !key.lexicographicallyPrecedes(lower) && (upper.map { key.lexicographicallyPrecedes($0) } ?? true)
    }
}
