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
}
