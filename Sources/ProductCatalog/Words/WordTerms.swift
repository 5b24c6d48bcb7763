/// A catalog's term list as a plan reads it (see ``WordPlan``): which terms a word starts, how
/// many products those hold, and which terms are near it. A catalog file reads it from its word
/// index (``IndexTerms``); PostgreSQL keeps it in memory (``WordVocabulary``). Both plan a query
/// alike, so both find the same products in the same tiers.
protocol WordTerms {
    /// False while products wait to be settled: new terms may be missing from the list.
    var isSettled: Bool { get }
    var limits: WordPlan.Limits { get }

    /// Up to `limit` terms that start with `prefix`, byte by byte in order, with the products holding each.
    func terms(startingWith prefix: String, limit: Int) throws -> [(term: String, docs: Int)]
    /// The products holding a term that starts with `prefix`, of at most
    /// ``TermList/maxPrefixLength`` characters, summed over the terms.
    func productsOfStart(_ prefix: String) throws -> Int
    /// How many terms start with `prefix`, counting up to `limit`, and the products holding them, summed.
    func termsAndProducts(startingWith prefix: String, upTo limit: Int) throws -> (terms: Int, products: Int)
    /// The terms (or with `asPrefix`, starts of terms) within `allowance` edits of `word`.
    func near(_ word: String, within allowance: Int, asPrefix: Bool) throws -> [NearTerm]
}

extension WordTerms {
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
        // A start of up to three characters has a list of its own: one read, whatever it matches.
        let isBroad = word.unicodeScalars.count > TermList.maxPrefixLength && products > limits.broadProducts
        return WordPlan.Word(folded: word, isTerm: isTerm, starts: isBroad ? .broad : .prefixQuery, products: products)
    }

    /// The products holding a term that starts with `prefix`, summed over the terms (an upper
    /// bound): from the counted starts for a short prefix, by counting for a long one, or
    /// `Int.max` when it starts more than ``WordPlan/Limits/maxCountedTerms`` terms.
    private func estimatedProducts(startingWith prefix: String) throws -> Int {
        if prefix.unicodeScalars.count <= TermList.maxPrefixLength { return try productsOfStart(prefix) }
        let counted = try termsAndProducts(startingWith: prefix, upTo: limits.maxCountedTerms + 1)
        return counted.terms > limits.maxCountedTerms ? Int.max : counted.products
    }
}
