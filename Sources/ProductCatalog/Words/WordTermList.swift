/// The word index's term list, as a plan reads it from a catalog file (see ``WordTerms``).
struct WordTermList: WordTerms {
    let search: ProductSearch
    /// False while products wait to be settled: new terms may be missing from the list.
    let isSettled: Bool
    let limits: WordPlan.Limits

    /// How many products the FTS5 expression `match` finds, counting no further than `limit`.
    func candidates(_ match: String, upTo limit: Int) throws -> Int? {
        try search.candidateCount(match, upTo: limit)
    }

    /// The terms (or with `asPrefix`, starts of terms) within `allowance` edits of `word`.
    func near(_ word: String, within allowance: Int, asPrefix: Bool) throws -> [NearTerm] {
        try search.nearTerms(word, within: allowance, asPrefix: asPrefix)
    }

    func terms(startingWith prefix: String, limit: Int) throws -> [(term: String, docs: Int)] {
        let statement = try search.prepared("SELECT term, docs FROM \(WordIndex.termsTable) WHERE term >= ?1 AND term < ?2 ORDER BY term LIMIT ?3")
        return try statement.using {
            try statement.bind(1, prefix)
            try statement.bind(2, utf8: Self.upperBound(prefix))
            try statement.bind(3, Int64(limit))
            var terms: [(term: String, docs: Int)] = []
            while try statement.step() { terms.append((statement.text(at: 0) ?? "", Int(statement.int64(at: 1)))) }
            return terms
        }
    }

    func productsOfStart(_ prefix: String) throws -> Int {
        let statement = try search.prepared("SELECT docs FROM \(WordIndex.prefixesTable) WHERE prefix = ?1")
        return try statement.using {
            try statement.bind(1, prefix)
            return try statement.step() ? Int(statement.int64(at: 0)) : 0
        }
    }

    func termsAndProducts(startingWith prefix: String, upTo limit: Int) throws -> (terms: Int, products: Int) {
        let statement = try search.prepared("""
            SELECT count(*), ifnull(sum(docs), 0) FROM (SELECT docs FROM \(WordIndex.termsTable) WHERE term >= ?1 AND term < ?2 LIMIT ?3)
            """)
        return try statement.using {
            try statement.bind(1, prefix)
            try statement.bind(2, utf8: Self.upperBound(prefix))
            try statement.bind(3, Int64(limit))
            guard try statement.step() else { return (0, 0) }
            return (Int(statement.int64(at: 0)), Int(statement.int64(at: 1)))
        }
    }

    /// The prefix with its last byte raised by one: terms are compared byte by byte, and the last
    /// byte of UTF-8 text is never 0xFF, so it bounds the terms that start with the prefix.
    static func upperBound(_ prefix: String) -> [UInt8] {
        var upper = Array(prefix.utf8)
        upper[upper.count - 1] += 1
        return upper
    }
}
