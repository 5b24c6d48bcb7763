/// The order word matches are listed in: an ordered list of rules, each splitting the ties of the
/// one before, as Meilisearch's ranking rules do.
///
/// After the products whose productId starts with the query (listed first, in productId order):
/// 1. **typos**: the fewest typos first (0, 1, 2, 3 or more), each query word counting the fewest
///    it matches with;
/// 2. **where**, within each: an exact title (the title's words are the query's, in order; without
///    typos only), then every word in the title (the last as the start of one), then every word
///    starting a word of the title, then every word starting a word of the title, brand or type;
/// 3. **title length**: titles with fewer words first;
/// 4. **catalog order**: the order of the import that built the index (productId order), then the
///    order products were added in.
///
/// Rules 1 and 2 make a product's *bucket* (``MatchRank``); 3 and 4 are its word row, the order of
/// the index's lists. So a page is read bucket by bucket, each in list order, and a cursor is a
/// bucket and a row.
struct MatchRank: Comparable, Hashable {
    /// Where the words are, in the order of rule 2.
    enum Place: Int, Comparable {
        case exactTitle, titleWords, titleStarts, anyField

        static func < (a: Place, b: Place) -> Bool { a.rawValue < b.rawValue }
    }

    /// Typos, 0 to 3 (3 standing for 3 or more).
    var typos: Int
    var place: Place

    static func < (a: MatchRank, b: MatchRank) -> Bool {
        (a.typos, a.place) < (b.typos, b.place)
    }

    /// The rank's number in a cursor: 0 to 15, in order.
    var code: Int { typos * 4 + place.rawValue }

    init(typos: Int, place: Place) {
        self.typos = Swift.min(typos, 3)
        self.place = place
    }

    init?(code: Int) {
        guard (0..<16).contains(code), let place = Place(rawValue: code % 4) else { return nil }
        self.init(typos: code / 4, place: place)
    }

    static let first = MatchRank(typos: 0, place: .exactTitle)

    /// The best bucket of a product whose words match as `matches` (one per query word), its
    /// exact title aside (which ``Place/exactTitle`` needs its title's words to tell); nil when
    /// some word matches none of its fields.
    static func of(_ matches: [WordFit]) -> MatchRank? {
        guard let last = matches.last, !matches.contains(where: { $0.any == WordFit.none }) else { return nil }
        var best = MatchRank(typos: matches.reduce(0) { $0 + Int($1.any) }, place: .anyField)
        if !matches.contains(where: { $0.title == WordFit.none }) {
            best = Swift.min(best, MatchRank(typos: matches.reduce(0) { $0 + Int($1.title) }, place: .titleStarts))
        }
        if last.title != WordFit.none, !matches.dropLast().contains(where: { $0.whole == WordFit.none }) {
            let typos = matches.dropLast().reduce(0) { $0 + Int($1.whole) } + Int(last.title)
            best = Swift.min(best, MatchRank(typos: typos, place: .titleWords))
        }
        return best
    }
}
