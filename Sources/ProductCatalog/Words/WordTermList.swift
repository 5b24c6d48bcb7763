/// The word index's term list, as a plan reads it: which terms a word starts, how many products
/// those hold, and which terms are near it.
struct WordTermList {
    let search: ProductSearch
    /// False while products wait to be settled: new terms may be missing from the list.
    let isSettled: Bool
    let limits: WordPlan.Limits

    /// What `word` stands for.
    func lookUp(_ word: String) throws -> WordPlan.Word {
        guard isSettled else { return WordPlan.Word(folded: word, isTerm: true, starts: .prefixQuery, products: Int.max) }
        let listed = try terms(startingWith: word, limit: limits.maxListedTerms + 1)
        if listed.isEmpty { return WordPlan.Word(folded: word, isTerm: false, starts: .nothing, products: 0) }
        let isTerm = listed.first?.term.utf8.elementsEqual(word.utf8) == true
        if listed.count <= limits.maxListedTerms {
            return WordPlan.Word(folded: word, isTerm: isTerm, starts: .terms(listed.map(\.term)), products: listed.reduce(0) { $0 + $1.docs })
        }
        let products = try estimatedProducts(startingWith: word)
        // FTS5 keeps a prefix index of the shortest starts: one lookup, whatever they match.
        let isBroad = word.unicodeScalars.count > WordIndex.indexedPrefixLength && products > limits.broadProducts
        return WordPlan.Word(folded: word, isTerm: isTerm, starts: isBroad ? .broad : .prefixQuery, products: products)
    }

    /// How many products the FTS5 expression `match` finds, counting no further than `limit`.
    func candidates(_ match: String, upTo limit: Int) throws -> Int {
        try search.candidateCount(match, upTo: limit)
    }

    /// The terms (or with `asPrefix`, starts of terms) within `allowance` edits of `word`.
    func near(_ word: String, within allowance: Int, asPrefix: Bool) throws -> [TermDictionary.Near] {
        try search.nearTerms(word, within: allowance, asPrefix: asPrefix)
    }

    /// Up to `limit` terms that start with `prefix`, in order, with the products holding each.
    private func terms(startingWith prefix: String, limit: Int) throws -> [(term: String, docs: Int)] {
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

    /// The products holding a term that starts with `prefix`, summed over the terms (an upper
    /// bound): from the counted starts for a short prefix, by counting for a long one, or
    /// `Int.max` when it starts more than ``WordPlan/Limits/maxCountedTerms`` terms.
    private func estimatedProducts(startingWith prefix: String) throws -> Int {
        if prefix.unicodeScalars.count <= WordIndex.countedPrefixLength {
            let statement = try search.prepared("SELECT docs FROM \(WordIndex.prefixesTable) WHERE prefix = ?1")
            return try statement.using {
                try statement.bind(1, prefix)
                return try statement.step() ? Int(statement.int64(at: 0)) : 0
            }
        }
        let statement = try search.prepared("""
            SELECT count(*), sum(docs) FROM (SELECT docs FROM \(WordIndex.termsTable) WHERE term >= ?1 AND term < ?2 LIMIT ?3)
            """)
        return try statement.using {
            try statement.bind(1, prefix)
            try statement.bind(2, utf8: Self.upperBound(prefix))
            try statement.bind(3, Int64(limits.maxCountedTerms + 1))
            guard try statement.step() else { return 0 }
            return statement.int64(at: 0) > limits.maxCountedTerms ? Int.max : Int(statement.int64(at: 1))
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
