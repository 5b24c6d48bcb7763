extension ProductSearch {
    /// The most index terms a query word is turned into; a shorter prefix matches by prefix.
    static let maxTermsPerWord = 200

    /// The FTS5 `MATCH` expression for the words of `query`; nil when no product can match
    /// them: the query has no words, the catalog no word index, or a word starts no term.
    ///
    /// Each word is folded by the index's tokenizer and looked up in the index's term list
    /// (``WordIndex``): `shirt` becomes `("shirt" OR "shirts")`, which FTS5 reads lazily, row by
    /// row, where the prefix query `"shirt"*` would first merge every row of both terms. A word
    /// that starts more than ``maxTermsPerWord`` terms, or a catalog whose list is not complete,
    /// gets the prefix query, which finds the same products more slowly.
    func wordMatch(_ query: String) throws -> String? {
        let words = WordQuery(query).words
        guard !words.isEmpty, try hasWordIndex else { return nil }
        guard try WordIndex.termsAreComplete(connection) else { return WordQuery(query).matchExpression }
        var groups: [String] = []
        for word in words {
            let tokens = try wordTokenizer.tokens(word, asQueryPrefix: true)
            guard tokens.count == 1, !tokens[0].isEmpty else {
                groups.append(WordQuery.prefix(word))
                continue
            }
            let terms = try indexTerms(startingWith: tokens[0], limit: Self.maxTermsPerWord + 1)
            if terms.isEmpty { return nil }
            groups.append(terms.count > Self.maxTermsPerWord
                ? WordQuery.prefix(tokens[0])
                : "(" + terms.map(WordQuery.quoted).joined(separator: " OR ") + ")")
        }
        return groups.joined(separator: " AND ")
    }

    /// Up to `limit` terms of the word index that start with `prefix`, a folded word.
    private func indexTerms(startingWith prefix: String, limit: Int) throws -> [String] {
        // Terms are compared byte by byte; the last byte of UTF-8 text is never 0xFF, so the
        // prefix with its last byte raised by one bounds the range.
        var upper = Array(prefix.utf8)
        upper[upper.count - 1] += 1
        let statement = try prepared("SELECT term FROM \(WordIndex.termsTable) WHERE term >= ?1 AND term < ?2 ORDER BY term LIMIT ?3")
        return try statement.using {
            try statement.bind(1, prefix)
            try statement.bind(2, utf8: upper)
            try statement.bind(3, Int64(limit))
            var terms: [String] = []
            while try statement.step() { terms.append(statement.text(at: 0) ?? "") }
            return terms
        }
    }
}
