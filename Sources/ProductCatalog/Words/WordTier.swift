/// How well a product's words match a query's: the order word matches are listed in.
///
/// The query's words are folded as the index folds them; the last one may be unfinished, so it
/// matches the start of a word. In order:
/// - ``exactTitle``: the title's words are exactly the query's words, in order;
/// - ``titleWords``: every query word is a word of the title, the last one the start of one;
/// - ``titleStarts``: every query word starts a word of the title;
/// - ``anyField``: every query word starts a word of the title, brand or type;
/// - ``oneTypo``, ``twoTypos``, ``moreTypos``: the same, with that many typos in all (see ``WordPlan``).
///
/// A product is listed once, in the best tier it meets. Within a tier, products with fewer title
/// words come first, then the catalog's order (see ``WordLists``). With typos, each of the typo
/// tiers is split by where the words are, as for matches without (``KeysetCursor/wordBucket``).
public enum WordTier: Int, Sendable, CaseIterable, Comparable {
    case exactTitle = 1, titleWords, titleStarts, anyField
    /// Matched with one typo in all (see ``WordPlan``), in any field.
    case oneTypo
    /// Matched with two typos in all.
    case twoTypos
    /// Matched with three or more.
    case moreTypos

    public static func < (a: WordTier, b: WordTier) -> Bool { a.rawValue < b.rawValue }

    /// True for the tiers of products matched with typos.
    public var isTypo: Bool { self >= .oneTypo }

    /// The bucket of the ranking rules a tier without typos is (``KeysetCursor/wordBucket``): 0 to 3.
    public var bucket: Int { rawValue - 1 }

    /// The best tier without typos a product with these folded title words and other (brand and
    /// type) words meets for the folded query `words` (the last one a prefix); nil when it meets none.
    static func of(title: [String], other: [String], words: [String]) -> WordTier? {
        guard let last = words.last else { return nil }
        let whole = words.dropLast()
        // Byte by byte, as FTS5 compares terms (Swift's String comparison is by canonical equivalence).
        func same(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }
        func starts(_ part: String, _ tokens: [String]) -> Bool { tokens.contains { $0.utf8.starts(with: part.utf8) } }
        if title.count == words.count, zip(title, words).allSatisfy(same) { return .exactTitle }
        if whole.allSatisfy({ word in title.contains { same($0, word) } }), starts(last, title) { return .titleWords }
        if words.allSatisfy({ starts($0, title) }) { return .titleStarts }
        if words.allSatisfy({ starts($0, title) || starts($0, other) }) { return .anyField }
        return nil
    }
}
