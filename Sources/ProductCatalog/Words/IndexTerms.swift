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
        let listed = terms.terms(startingWith: start)
        guard let delta else { return listed.prefix(limit).map { (term: terms.name($0), docs: terms.products($0)) } }
        // Both runs are sorted byte by byte: merged, a term in both counted once with both counts.
        let changed = delta.terms(startingWith: start)
        var found: [(term: String, docs: Int)] = []
        var (i, j) = (listed.lowerBound, changed.startIndex)
        while found.count < limit, i < listed.upperBound || j < changed.endIndex {
            let name = i < listed.upperBound ? terms.name(i) : nil
            let other = j < changed.endIndex ? changed[j] : nil
            if let name, let other, name.utf8.elementsEqual(other) {
                found.append((name, terms.products(i) + (delta.postings(ofTerm: other)?.count ?? 0)))
                i += 1; j += 1
            } else if let name, other.map({ !ByteOrder.precedes($0, Array(name.utf8)) }) ?? true {
                found.append((name, terms.products(i)))
                i += 1
            } else if let other {
                found.append((String(decoding: other, as: UTF8.self), delta.postings(ofTerm: other)?.count ?? 0))
                j += 1
            }
        }
        return found
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
        guard let delta, delta.dictionary.count > 0 else { return found }
        var nearest: [String: Int] = [:]
        for near in found + delta.dictionary.nearKept(word, within: allowance, asPrefix: asPrefix) {
            nearest[near.text] = min(nearest[near.text] ?? Int.max, near.distance)
        }
        return nearest.map { NearTerm(text: $0.key, distance: $0.value) }.sorted { ($0.distance, $0.text) < ($1.distance, $1.text) }
    }
}
