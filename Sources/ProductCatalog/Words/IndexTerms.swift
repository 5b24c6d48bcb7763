/// The catalog's own word index's terms as a plan reads them (``WordTerms``): the term list in
/// memory (``TermList``), and the typo dictionary made from it.
struct IndexTerms: WordTerms {
    let terms: TermList
    let dictionary: TermDictionary
    let limits: WordPlan.Limits

    /// The list of terms is the index's own, always complete.
    var isSettled: Bool { true }

    func terms(startingWith prefix: String, limit: Int) throws -> [(term: String, docs: Int)] {
        let range = terms.terms(startingWith: Array(prefix.utf8))
        return range.prefix(limit).map { (terms.name($0), terms.products($0)) }
    }

    func productsOfStart(_ prefix: String) throws -> Int {
        terms.list(ofStart: Array(prefix.utf8)).map(terms.products) ?? 0
    }

    func termsAndProducts(startingWith prefix: String, upTo limit: Int) throws -> (terms: Int, products: Int) {
        let range = terms.terms(startingWith: Array(prefix.utf8)).prefix(limit)
        return (range.count, range.reduce(0) { $0 + terms.products($1) })
    }

    func near(_ word: String, within allowance: Int, asPrefix: Bool) throws -> [NearTerm] {
        dictionary.nearKept(word, within: allowance, asPrefix: asPrefix)
    }

    /// The index counts no expression: no word is left out of the lookup to be checked instead.
    func candidates(_ match: String, upTo limit: Int) throws -> Int? {
        nil
    }
}
