/// The catalog's own word index's terms as a plan reads them (``WordTerms``): the term list in
/// memory (``TermList``) and the typo dictionary made from it, with the terms of the products
/// changed since the index was built (``WordDelta``).
struct IndexTerms: WordTerms {
    let terms: TermList
    let dictionary: TermDictionary
    let delta: WordDelta?
    let limits: WordPlan.Limits

    /// The list of terms is the index's own and the changes', always complete.
    var isSettled: Bool { true }

    func terms(startingWith prefix: String, limit: Int) throws -> [(term: String, docs: Int)] {
        let start = Array(prefix.utf8)
        var found: [String: Int] = [:]
        for list in terms.terms(startingWith: start).prefix(limit) { found[terms.name(list)] = terms.products(list) }
        for term in delta?.terms(startingWith: start) ?? [] {
            found[String(decoding: term, as: UTF8.self), default: 0] += delta?.postings(ofTerm: term)?.count ?? 0
        }
        let sorted = found.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        return sorted.prefix(limit).map { (term: $0.key, docs: $0.value) }
    }

    func productsOfStart(_ prefix: String) throws -> Int {
        let start = Array(prefix.utf8)
        return (terms.list(ofStart: start).map(terms.products) ?? 0) + (delta?.postings(ofStart: start)?.count ?? 0)
    }

    func termsAndProducts(startingWith prefix: String, upTo limit: Int) throws -> (terms: Int, products: Int) {
        let listed = try terms(startingWith: prefix, limit: limit)
        return (listed.count, listed.reduce(0) { $0 + $1.docs })
    }

    func near(_ word: String, within allowance: Int, asPrefix: Bool) throws -> [NearTerm] {
        let found = dictionary.nearKept(word, within: allowance, asPrefix: asPrefix)
        guard let delta, !delta.terms.isEmpty else { return found }
        var nearest: [String: Int] = [:]
        for near in found + delta.dictionary.near(word, within: allowance, asPrefix: asPrefix) {
            nearest[near.text] = min(nearest[near.text] ?? Int.max, near.distance)
        }
        return nearest.map { NearTerm(text: $0.key, distance: $0.value) }.sorted { ($0.distance, $0.text) < ($1.distance, $1.text) }
    }
}
