/// A catalog's terms in memory, each with the products holding it: what a store without a
/// catalog file's word index plans word searches by, so that it finds what the file finds.
///
/// A store that keeps its own word index (PostgreSQL's) keeps its term list beside it, reads it
/// once, and asks ``plan(_:typos:folder:)`` for each query: the words as folded, the terms near
/// each one (typos), and the tiers the file lists (see ``WordPlan``, ``WordTier``).
///
/// ```swift
/// let vocabulary = WordVocabulary(sortedTerms: [("linen", 12), ("shirt", 40)], products: 50)
/// let plan = try vocabulary.plan("linnen shirt", typos: true, folder: WordFolder())
/// ```
public final class WordVocabulary: Sendable {
    private let dictionary: TermDictionary
    /// The products holding each term, in the dictionary's order.
    private let docs: [Int]
    /// How many products the catalog holds: a word stands for many when it holds a share of them.
    public let products: Int

    /// The terms, sorted byte by byte (as `COLLATE "C"` orders UTF-8), each with the products
    /// holding it, of a catalog of `products` products.
    public init(sortedTerms: [(term: String, docs: Int)], products: Int) {
        var bytes: [UInt8] = []
        var starts: [Int32] = [0]
        starts.reserveCapacity(sortedTerms.count + 1)
        for (term, _) in sortedTerms {
            bytes.append(contentsOf: term.utf8)
            starts.append(Int32(bytes.count))
        }
        dictionary = TermDictionary(bytes: bytes, starts: starts, version: 0)
        docs = sortedTerms.map(\.docs)
        self.products = products
    }

    /// How many terms there are.
    public var count: Int { docs.count }

    /// How `query` is looked up: nil when it has no words, or a word that matches no term even
    /// with a typo. Without `typos`, no near terms.
    public func plan(_ query: String, typos: Bool, folder: WordFolder) throws -> WordPlan? {
        let words = WordQuery(query)
        guard !words.words.isEmpty else { return nil }
        var limits = WordPlan.Limits()
        limits.broadProducts = max(limits.broadProducts, Int(Double(products) * limits.broadShare))
        return try WordPlan(folded: try folder.words(in: words.text), terms: Lookup(vocabulary: self, limits: limits), typos: typos)
    }

    /// The range of terms starting with `prefix`.
    private func range(of prefix: String) -> Range<Int> {
        let low = dictionary.firstTerm(notBefore: Array(prefix.utf8))
        let high = dictionary.firstTerm(notBefore: WordVocabulary.upperBound(prefix))
        return low..<max(low, high)
    }

    /// The vocabulary as a plan reads it.
    private struct Lookup: WordTerms {
        let vocabulary: WordVocabulary
        let limits: WordPlan.Limits
        var isSettled: Bool { true }

        func terms(startingWith prefix: String, limit: Int) throws -> [(term: String, docs: Int)] {
            vocabulary.range(of: prefix).prefix(limit).map { index in
                (vocabulary.dictionary.withTerm(index) { String(decoding: $0, as: UTF8.self) }, vocabulary.docs[index])
            }
        }

        func productsOfStart(_ prefix: String) throws -> Int {
            vocabulary.range(of: prefix).reduce(0) { $0 + vocabulary.docs[$1] }
        }

        func termsAndProducts(startingWith prefix: String, upTo limit: Int) throws -> (terms: Int, products: Int) {
            let range = vocabulary.range(of: prefix).prefix(limit)
            return (range.count, range.reduce(0) { $0 + vocabulary.docs[$1] })
        }

        func near(_ word: String, within allowance: Int, asPrefix: Bool) throws -> [NearTerm] {
            vocabulary.dictionary.nearKept(word, within: allowance, asPrefix: asPrefix)
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
