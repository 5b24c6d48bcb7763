extension ProductSearch {
    /// The most products ``facets(query:filters:top:cap:)`` counts by default: enough for the shares of a broad
    /// search, few enough to count as someone types on any catalog.
    public static let facetCap = 10_000

    /// How many of the products ``page(query:filters:after:limit:)`` lists have each type, color
    /// and size: the `top` values of each and the rest.
    ///
    /// Counting reads each match, so it stops after `cap` of them, in the search's order:
    /// the cost of a one-letter query on ten million products is then that of a query with ten
    /// thousand matches. ``FacetCounts/isComplete`` says whether it stopped.
    public func facets(query: String, filters: SearchFilters = SearchFilters(), top: Int = 10, cap: Int = facetCap) throws -> FacetCounts {
        try facets(query, words: true, filters: filters, top: top, cap: cap)
    }

    /// The counts of ``facets(query:filters:top:cap:)`` among the products
    /// ``page(prefix:filters:after:limit:)`` lists.
    public func facets(prefix: String, filters: SearchFilters = SearchFilters(), top: Int = 10, cap: Int = facetCap) throws -> FacetCounts {
        try facets(prefix, words: false, filters: filters, top: top, cap: cap)
    }

    private func facets(_ query: String, words: Bool, filters: SearchFilters, top: Int, cap: Int) throws -> FacetCounts {
        precondition(top >= 0, "a facet shows 0 or more values")
        precondition(cap > 0, "a count counts at least one product")
        let values = try FacetCounts.fields.map {
            ProductColumn.expression(for: $0, alias: "p", columnNames: try productColumnNames)
        }.joined(separator: ", ")
        var tallies = Array(repeating: FacetTally(), count: FacetCounts.fields.count)
        var counted = 0
        var more = false
        // Reads one row past the cap, to know whether the count is complete.
        func tally(_ statement: Statement) throws {
            try statement.bind(5, Int64(cap - counted + 1))
            while try statement.step() {
                guard counted < cap else {
                    more = true
                    return
                }
                for index in tallies.indices { tallies[index].add(statement.text(at: Int32(index))) }
                counted += 1
            }
        }

        let byId = try prepared("SELECT \(values) " + (try prefixMatchClauses(query, filters)) + " ORDER BY productId LIMIT ?5")
        try byId.using {
            try bindPrefixMatch(query, filters, to: byId)
            try tally(byId)
        }
        if !more, words, let match = try wordMatch(query) {
            let range = PrefixRange(prefix: query)
            let byWord = try prepared("SELECT \(values) " + (try wordMatchClauses(excluding: range, filters, joiningProducts: true))
                + " ORDER BY \(WordIndex.table).rowid LIMIT ?5")
            try byWord.using {
                try bindWordMatch(match, excluding: range, filters, to: byWord)
                try tally(byWord)
            }
        }
        return FacetCounts(facets: zip(FacetCounts.fields, tallies).map { $1.facet($0, top: top) },
                           counted: counted, isComplete: !more)
    }
}
