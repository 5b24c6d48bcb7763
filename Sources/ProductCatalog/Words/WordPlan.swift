/// What a query's words stand for in a catalog's term list, the same for both engines: for each
/// folded word, whether it is a term, the terms it starts (listed when few, ``Limits/maxListedTerms``;
/// else a start whose list is read, or a *broad* start of many terms held by many products,
/// ``Limits/broadProducts``), and with typos the terms near it. The SQLite engine reads each
/// word's lists from its index (``WordSearch``); PostgreSQL turns the plan into SQL.
///
/// **Typos.** A word of 5 or more letters with no digit may also be misspelt: terms one edit
/// away (two from 9 letters) match it, and for the last word, terms that start with something
/// that close to it (``TermDictionary``). Such matches come after every tier without typos, in
/// tiers of one typo, two, and more (``WordTier``). A query with a broad word has no typo tiers.
public struct WordPlan: Sendable {
    /// What one folded query word starts in the index.
    enum Starts: Equatable, Sendable {
        /// No term starts with it.
        case nothing
        /// The terms it starts, few enough to match one by one.
        case terms([String])
        /// Many terms, held by few products, or a start of up to three characters, which has a list of its own.
        case prefixQuery
        /// Many terms held by many products.
        case broad
    }

    /// One word of the query.
    public struct Word: Sendable {
        /// As the index folds it.
        public internal(set) var folded: String
        /// Whether it is a term of the index (true when not known: the term list is not settled).
        var isTerm: Bool
        var starts: Starts
        /// The products holding the terms it starts, summed over the terms: an upper bound (`Int.max` when not known).
        public internal(set) var products: Int
        /// The terms (or, for the last word, the starts of terms) near it, with their distance;
        /// empty when it may have no typo.
        public internal(set) var near: [NearTerm] = []
        /// For the last word, what each start in ``near`` starts in the index (as ``starts`` is for the word).
        var nearStarts: [String: Starts] = [:]
    }

    /// Where a plan switches from one way of looking a word up to the next.
    struct Limits: Sendable {
        /// Terms a word may stand for before it counts as a start of many.
        var maxListedTerms = 64
        /// Terms counted one by one to estimate how many products a long prefix matches.
        var maxCountedTerms = 2_000
        /// Products (summed over terms, so an upper bound) past which a long start is broad, and
        /// gets no typos: it matches plenty already.
        var broadProducts = 20_000
        /// At least this share of the catalog's products.
        var broadShare = 0.02
        /// Starts of terms near the last word that are looked up, the nearest first: each costs a
        /// lookup, and a start near a short word is often shared by many terms.
        var maxNearStarts = 32
        /// The terms those starts may stand for in all: each is one more list a keystroke reads.
        var maxNearTerms = 64
    }

    /// The query's words, folded, in order; the last is matched as the start of a word.
    public private(set) var words: [Word]
    /// The title key (see ``WordFolder/titleShape(_:)``) of a title made of exactly these words.
    public let exactKey: Int64

    /// The query's words, folded.
    public var folded: [String] { words.map(\.folded) }

    /// True when no product matches the words without a typo.
    private var needsTypos: Bool { words.contains { $0.starts == .nothing } }

    /// How many typos a folded word may have: none with a digit or fewer than 5 letters, one from 5, two from 9.
    static func typoAllowance(_ word: String) -> Int {
        let scalars = word.unicodeScalars
        if scalars.contains(where: { $0.properties.numericType != nil }) { return 0 }
        return scalars.count >= 9 ? 2 : scalars.count >= 5 ? 1 : 0
    }

    /// The plan for the folded words of a query; nil when no product can match them (no words,
    /// or a word that starts no term and has no near one).
    init?(folded: [String], terms: some WordTerms, typos: Bool) throws {
        guard !folded.isEmpty else { return nil }
        var words: [Word] = []
        for word in folded { words.append(try terms.lookUp(word)) }
        if typos, !words.contains(where: { $0.starts == .broad }) {
            for index in words.indices {
                let allowance = Self.typoAllowance(words[index].folded)
                guard allowance > 0 else { continue }
                let isLast = index == words.count - 1
                let near = try terms.near(words[index].folded, within: allowance, asPrefix: isLast).filter { $0.distance > 0 }
                guard isLast else {
                    words[index].near = near
                    continue
                }
                // A start near the last word is kept when it starts few terms (as a word is
                // listed as its terms), and while the kept ones stand for few in all: one that
                // starts many (a letter dropped from the end starts every longer word) would make
                // the typo tiers merge all their rows, and match too much to mean anything.
                // Typing on narrows the starts down, as with any start.
                var listed = 0
                for start in near.sorted(by: { ($0.distance, -$0.text.utf8.count) < ($1.distance, -$1.text.utf8.count) }).prefix(terms.limits.maxNearStarts) {
                    let starts = try terms.lookUp(start.text).starts
                    if case .terms(let list) = starts, listed + list.count <= terms.limits.maxNearTerms {
                        listed += list.count
                    } else if !(starts == .prefixQuery && !terms.isSettled) {
                        // (While the term list is not settled, a start's terms are not known: it is kept.)
                        continue
                    }
                    words[index].near.append(start)
                    words[index].nearStarts[start.text] = starts
                }
            }
        }
        guard !words.contains(where: { $0.starts == .nothing && $0.near.isEmpty }) else { return nil }
        self.words = words
        exactKey = WordPlacement.key(ofWords: folded)
    }

    /// The tiers this plan can list, in order (the exact titles first).
    public var tiers: [WordTier] {
        var tiers: [WordTier] = needsTypos ? [] : [.exactTitle, .titleWords]
        if !needsTypos, titleStartsDiffers { tiers.append(.titleStarts) }
        if !needsTypos { tiers.append(.anyField) }
        let most = words.reduce(0) { $0 + ($1.near.map(\.distance).max() ?? 0) }
        if most >= 1 { tiers.append(.oneTypo) }
        if most >= 2 { tiers.append(.twoTypos) }
        if most >= 3 { tiers.append(.moreTypos) }
        return tiers
    }

    /// True when ``WordTier/titleStarts`` can hold products ``WordTier/titleWords`` does not:
    /// some word before the last starts a term other than itself, or is no term at all.
    var titleStartsDiffers: Bool {
        words.dropLast().contains { word in
            word.starts != .terms([word.folded]) || !word.isTerm
        }
    }
}
