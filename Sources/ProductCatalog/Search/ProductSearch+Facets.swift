extension ProductSearch {
    /// The most products ``facets(query:filters:top:cap:)`` counts by default: enough for the shares of a broad
    /// search, few enough to count as someone types on any catalog.
    public static let facetCap = 10_000

    /// How many of the products ``page(query:filters:after:limit:)`` lists have each type, color
    /// and size, and each option (by name): the `top` values of each and the rest.
    ///
    /// Counting reads each match, so it stops after `cap` of them, in the search's order: the cost
    /// of a one-letter query on ten million products is then that of a query with ten thousand matches.
    /// ``FacetCounts/isComplete`` says whether it stopped.
    public func facets(query: String, filters: SearchFilters = SearchFilters(), typos: Bool = true, top: Int = 10, cap: Int = facetCap) throws -> FacetCounts {
        // One read transaction: up to `cap` products read one by one take the file's lock once.
        try connection.reading { try facets(query, words: true, filters: filters, typos: typos, top: top, cap: cap) }
    }

    /// The counts of ``facets(query:filters:top:cap:)`` among the products
    /// ``page(prefix:filters:after:limit:)`` lists.
    public func facets(prefix: String, filters: SearchFilters = SearchFilters(), top: Int = 10, cap: Int = facetCap) throws -> FacetCounts {
        try connection.reading { try facets(prefix, words: false, filters: filters, typos: false, top: top, cap: cap) }
    }

    private func facets(_ query: String, words: Bool, filters: SearchFilters, typos: Bool, top: Int, cap: Int) throws -> FacetCounts {
        precondition(top >= 0, "a facet shows 0 or more values")
        precondition(cap > 0, "a count counts at least one product")
        // The whole catalog: its counts are kept, exact, whatever its size.
        if ProductRules.trimmed(query).isEmpty, filters.isEmpty, try FacetIndex.exists(connection) {
            return try wholeCatalogFacets(top: top, cap: cap)
        }
        let keepsStock = try StockTable.exists(connection)
        // The counted fields, then the options, then (with stock by store) the stores.
        var values = try (FacetCounts.fields + [.options]).map {
            ProductColumn.expression(for: $0, alias: "p", columnNames: try productColumnNames)
        }.joined(separator: ", ")
        // A product's stores, read with its values: separated by US (0x1F), which no store name holds.
        if keepsStock {
            values += ", (SELECT group_concat(s.store, char(31)) FROM \(StockTable.table) s WHERE s.productId = p.productId AND s.quantity > 0)"
        }
        var tallies = Array(repeating: FacetTally(), count: FacetCounts.fields.count)
        var stores = FacetTally()
        var options = OptionTally()
        var counted = 0
        var more = false
        /// Tallies the values of the product in `statement`'s current row.
        func add(_ statement: Statement) {
            for index in tallies.indices { tallies[index].add(statement.text(at: Int32(index))) }
            options.add(statement.text(at: Int32(tallies.count)))
            if keepsStock, let held = statement.text(at: Int32(tallies.count + 1)) {
                for store in held.split(separator: "\u{1F}") { stores.add(String(store)) }
            }
        }
        // Reads one row past the cap, to know whether the count is complete.
        func tally(_ statement: Statement) throws {
            try statement.bind(5, Int64(cap - counted + 1))
            while try statement.step() {
                guard counted < cap else {
                    more = true
                    return
                }
                add(statement)
                counted += 1
            }
        }

        let byId = try prepared("SELECT \(values) " + (try prefixMatchClauses(query, filters)) + " ORDER BY \(try prefixMatchKey(filters)) LIMIT ?5")
        try byId.using {
            try bindPrefixMatch(query, filters, to: byId)
            try tally(byId)
        }
        if !more, words, let plan = try indexPlan(query, typos: typos) {
            // The word matches in the search's order, one past what the cap leaves room for.
            let hits = try indexHits(plan, after: nil, excluding: PrefixRange(prefix: query), filters: filters, limit: cap - counted + 1)
            let read = try prepared("SELECT \(values) FROM \(CatalogSchema.table) p WHERE p.productId = ?1")
            for hit in hits {
                guard counted < cap else {
                    more = true
                    break
                }
                try read.using {
                    try read.bind(1, hit.productId)
                    guard try read.step() else { return }
                    add(read)
                    counted += 1
                }
            }
        }
        return FacetCounts(facets: zip(FacetCounts.fields, tallies).map { $1.facet($0, top: top) },
                           counted: counted, isComplete: !more, stores: keepsStock ? stores.stores(top: top) : nil,
                           options: options.facets(top: top))
    }

    /// The facets of every product, read from the counts the catalog keeps (``FacetIndex``).
    private func wholeCatalogFacets(top: Int, cap: Int) throws -> FacetCounts {
        let statement = try prepared("SELECT field, valueKey, value, products FROM \(FacetIndex.table)")
        var values: [String: [(value: String, count: Int)]] = [:]
        var without: [String: Int] = [:]
        try statement.using {
            while try statement.step() {
                let field = statement.text(at: 0) ?? ""
                let count = Int(statement.int64(at: 3))
                if (statement.text(at: 1) ?? "").isEmpty {
                    without[field, default: 0] += count
                } else {
                    values[field, default: []].append((statement.text(at: 2) ?? "", count))
                }
            }
        }
        // Every product counts once in each field, under its value or under none.
        let first = FacetCounts.fields[0].rawValue
        let total = (values[first] ?? []).reduce(0) { $0 + $1.count } + (without[first] ?? 0)
        let facets = FacetCounts.fields.map { field in
            let sorted = (values[field.rawValue] ?? []).sorted { $0.count != $1.count ? $0.count > $1.count : $0.value < $1.value }
            return FacetCounts.Facet(
                field: field,
                values: sorted.prefix(top).map { FacetCounts.ValueCount(value: $0.value, count: $0.count) },
                other: sorted.dropFirst(top).reduce(0) { $0 + $1.count },
                withoutValue: without[field.rawValue] ?? 0)
        }
        let stores = try StockTable.storeCounts(connection).map { FacetCounts.StoreCounts(tallying: $0, top: top) }
        return FacetCounts(facets: facets, counted: total, isComplete: true, stores: stores).withOptions(of: try wholeCatalogOptions(top: top, cap: cap))
    }

    /// The options of the whole catalog, which are not kept: counted among its first `cap`
    /// products (7.6 ms on a million with options), again only when the file changed.
    private func wholeCatalogOptions(top: Int, cap: Int) throws -> FacetCounts {
        let version = try connection.scalarInt("PRAGMA data_version") ?? 0
        if let kept = wholeCatalogOptions, kept.version == version, kept.cap == cap, kept.top == top { return kept.counts }
        // One past the cap, to know whether that is all.
        let options = try prepared("SELECT \(try ProductColumn.expression(for: .options, alias: "p", columnNames: productColumnNames)) FROM \(CatalogSchema.table) p ORDER BY p.productId LIMIT ?1")
        var firstOptions: [String?] = []
        try options.using {
            try options.bind(1, Int64(cap + 1))
            while try options.step() { firstOptions.append(options.text(at: 0)) }
        }
        let counts = FacetCounts.noMatches.withOptions(of: Array(firstOptions.prefix(cap)), top: top, isComplete: firstOptions.count <= cap)
        wholeCatalogOptions = (version, cap, top, counts)
        return counts
    }
}
