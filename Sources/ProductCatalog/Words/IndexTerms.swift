/// The catalog's own word index's terms as a plan reads them (``WordTerms``): the term lists of
/// a view's segments (``IndexView``), and the typo dictionaries made from them: the base's whole,
/// and each other segment's terms the base lacks.
struct IndexTerms: WordTerms {
    let view: IndexView
    let limits: WordPlan.Limits

    /// Every segment's list of terms is complete.
    var isSettled: Bool { true }

    func terms(startingWith prefix: String, limit: Int) throws -> [(term: String, docs: Int)] {
        let start = Array(prefix.utf8)
        guard view.segments.count > 1 else {
            let terms = view.base.terms
            return terms.terms(startingWith: start).prefix(limit).map { (term: terms.name($0), docs: terms.products($0)) }
        }
        // Each segment's first `limit` in byte order: merged, a term of several segments once, with
        // the products of all (an upper bound: a product changed since the base counts twice).
        var found: [[UInt8]: Int] = [:]
        for segment in view.segments {
            let terms = segment.terms
            for list in terms.terms(startingWith: start).prefix(limit) {
                terms.withName(list) { found[Array($0), default: 0] += terms.products(list) }
            }
        }
        return found.sorted { ByteOrder.precedes($0.key, $1.key) }.prefix(limit).map { (term: String(decoding: $0.key, as: UTF8.self), docs: $0.value) }
    }

    func productsOfStart(_ prefix: String) throws -> Int {
        let start = Array(prefix.utf8)
        return view.segments.reduce(0) { total, segment in total + (segment.terms.list(ofStart: start).map(segment.terms.products) ?? 0) }
    }

    func termsAndProducts(startingWith prefix: String, upTo limit: Int) throws -> (terms: Int, products: Int) {
        let listed = try terms(startingWith: prefix, limit: limit)
        return (listed.count, listed.reduce(0) { $0 + $1.docs })
    }

    func near(_ word: String, within allowance: Int, asPrefix: Bool) throws -> [NearTerm] {
        let base = view.base
        let found = base.fullDictionary.nearKept(word, within: allowance, asPrefix: asPrefix)
        guard view.segments.count > 1 else { return found }
        var nearest: [String: Int] = [:]
        for near in found { nearest[near.text] = near.distance }
        for segment in view.segments.dropFirst() {
            let extra = segment.extraDictionary(beside: base)
            guard extra.count > 0 else { continue }
            for near in extra.nearKept(word, within: allowance, asPrefix: asPrefix) {
                nearest[near.text] = min(nearest[near.text] ?? Int.max, near.distance)
            }
        }
        return nearest.map { NearTerm(text: $0.key, distance: $0.value) }.sorted { ($0.distance, $0.text) < ($1.distance, $1.text) }
    }
}
