/// How a query's words are looked up in the word index: the FTS5 queries that list each tier's
/// candidates, and whether those must be checked one by one.
///
/// FTS5 (as of SQLite 3.40) answers a prefix query `"ab"*` only after merging the rows of every
/// term starting with `ab`, unless its prefix index holds starts of that length (one to three
/// characters here, ``WordIndex/indexedPrefixLength``): on a catalog with a real vocabulary, a
/// longer start of thousands of terms took a third of a second. So each query word is first looked up in the index's term list
/// (``WordIndex``):
/// - a word that starts few terms (``Limits/maxListedTerms``) becomes those terms, which FTS5 reads
///   lazily, row by row, stopping once a page is full;
/// - a start of one to three characters reads the prefix index: one list;
/// - a word that starts many terms held by few products becomes the prefix query, whose merge
///   then costs little;
/// - a word that starts many terms held by many products (``Limits/broadProducts``) is looked up
///   by its first three characters, and each candidate's words are checked against it
///   (``WordTierCheck``): since it matches many products, a page's worth is found after few;
/// - a word whose terms hold many products while the other words together match few is left out
///   of the lookup, and checked on each of their products instead (``Starts/checked``): a short
///   last word after narrow ones (`Neau bädånn s`) would otherwise walk a list of millions.
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
        /// Many terms, held by few products, or a start the prefix index holds: FTS5's prefix query.
        case prefixQuery
        /// Many terms held by many products: checked on each candidate instead.
        case broad
        /// Terms held by many more products than the other words match together: left out of
        /// the candidates, which the other words find, and checked on each.
        case checked
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

    /// The candidates of a tier.
    enum Candidates: Equatable, Sendable {
        /// No product can be in the tier.
        case none
        /// Every product is a candidate (every word is broad).
        case all
        /// The products an FTS5 `MATCH` expression finds.
        case match(String)
    }

    /// Where a plan switches from one way of looking a word up to the next.
    struct Limits: Sendable {
        /// Terms a word may stand for before the prefix query is used instead.
        var maxListedTerms = 64
        /// Terms counted one by one to estimate how many products a long prefix matches.
        var maxCountedTerms = 2_000
        /// Products (summed over terms, so an upper bound) past which a prefix is checked on candidates instead of merged.
        var broadProducts = 20_000
        /// At least this share of the catalog's products is merged rather than checked: the
        /// superset a broad word is checked against grows with the catalog (at ten million
        /// products, `Neau bäd` took 262 ms checked against its two-letter superset and 12 ms merged).
        var broadShare = 0.02
        /// Starts of terms near the last word that are looked up, the nearest first: each costs a
        /// lookup, and a start near a short word is often shared by many terms.
        var maxNearStarts = 32
        /// The terms those starts may stand for in all: each is one more list FTS5 merges for every
        /// keystroke's count.
        var maxNearTerms = 64
        /// The most candidates a word left out of the lookup is checked on (``Starts/checked``):
        /// few enough that a count checks them all within ``ProductSearch/countBudget``.
        var maxCheckedCandidates = 2_000
        /// How many products of a short start FTS5 reads from its prefix index in the time one
        /// candidate is checked: such a word is checked when its products are more than this many
        /// times the candidates. On a realistic ten million, `s` (13.9 million products) took
        /// FTS5 30 to 50 ms after narrow words, about 3 ns a product, where checking a candidate
        /// takes about 5 µs.
        var productsPerCheck = 1_500
        /// The same for a longer start, whose terms FTS5 merges: about 170 ns a product (`neau*`,
        /// 304 terms of 29,205 products, 5 ms on that catalog), and a keystroke merges them for each tier.
        var mergedProductsPerCheck = 40
        /// The least a word's lookup must cost, in candidates checked, before the other words'
        /// candidates are counted to see whether checking it costs less: counting them is a query.
        var minCheckedWorth = 200
    }

    /// The query's words, folded, in order; the last is matched as the start of a word.
    public private(set) var words: [Word]
    /// The title key (see ``WordFolder/titleShape(_:)``) of a title made of exactly these words.
    public let exactKey: Int64

    /// The query's words, folded.
    public var folded: [String] { words.map(\.folded) }

    /// True when some word is checked on each candidate rather than looked up.
    var checksCandidates: Bool { words.contains { $0.starts == .broad || $0.starts == .checked } }

    /// True when the expression of ``WordTier/titleWords`` lists exactly its products even though
    /// some word is checked: only words before the last are, and there they count as whole words.
    var listsTitleWordsExactly: Bool { checksCandidates && words.last.map { $0.starts != .broad && $0.starts != .checked } == true }

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
        try checkWidestWord(terms)
    }

    /// Leaves the word whose terms hold the most products out of the lookup, to be checked on
    /// each candidate the other words find (``Starts/checked``), when those are few enough that
    /// checking them costs less than FTS5 reading the word's products (``Limits/productsPerCheck``).
    private mutating func checkWidestWord(_ terms: some WordTerms) throws {
        // What looking each word up costs, counted in candidates checked.
        func cost(_ word: Word) -> Int {
            switch word.starts {
            case .broad: word.products / terms.limits.productsPerCheck
            case .prefixQuery where word.folded.unicodeScalars.count <= WordIndex.indexedPrefixLength: word.products / terms.limits.productsPerCheck
            case .prefixQuery: word.products / terms.limits.mergedProductsPerCheck
            default: 0
            }
        }
        guard terms.isSettled, words.count > 1, let widest = words.indices.max(by: { cost(words[$0]) < cost(words[$1]) }) else { return }
        let limit = min(terms.limits.maxCheckedCandidates, cost(words[widest]))
        guard limit >= terms.limits.minCheckedWorth else { return }
        var checked = self
        checked.words[widest].starts = .checked
        guard case .match(let expression) = checked.allTiers, let count = try terms.candidates(expression, upTo: limit + 1), count <= limit else { return }
        self = checked
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

    /// The candidates of `tier`: exactly its products when no word is broad (each tier leaves out
    /// those before it), a superset to check otherwise. ``WordTier/exactTitle`` is found by title
    /// key, not here.
    func candidates(_ tier: WordTier) -> Candidates {
        switch tier {
        case .exactTitle:
            return .all
        case .titleWords:
            return titleWords
        case .titleStarts:
            guard !checksCandidates else { return titleStarts }
            return Self.excluding(titleStarts, titleWords)
        case .anyField:
            guard !checksCandidates else { return anyField }
            return Self.excluding(anyField, titleStarts)
        case .oneTypo:
            return Self.excluding(withTypos(upTo: 1), anyField)
        case .twoTypos:
            return Self.excluding(withTypos(upTo: 2), withTypos(upTo: 1))
        case .moreTypos:
            return Self.excluding(withTypos(upTo: Int.max), withTypos(upTo: 2))
        }
    }

    /// The products of every typo tier together, to be told apart by ``TypoTierCheck``: one
    /// expression, where the tiers' own list every way to share the typos among the words.
    var typoCandidates: Candidates {
        needsTypos ? withTypos(upTo: Int.max) : Self.excluding(withTypos(upTo: Int.max), anyField)
    }

    /// The candidates of every tier together: exactly the products that match when no word is
    /// broad, a superset to check otherwise.
    var allTiers: Candidates {
        words.contains { !$0.near.isEmpty } ? withTypos(upTo: Int.max) : anyField
    }

    /// True when ``WordTier/titleStarts`` can hold products ``WordTier/titleWords`` does not:
    /// some word before the last starts a term other than itself, or is no term at all.
    var titleStartsDiffers: Bool {
        words.dropLast().contains { word in
            word.starts != .terms([word.folded]) || !word.isTerm
        }
    }

    // MARK: - Expressions

    private var titleWords: Candidates {
        var parts: [String] = []
        for word in words.dropLast() {
            guard word.isTerm else { return .none }
            parts.append(WordQuery.quoted(word.folded))
        }
        if let last = words.last {
            if last.starts == .nothing { return .none }
            if let starts = Self.expression(last.starts, last.folded) { parts.append(starts) }
        }
        return Self.inTitle(parts)
    }

    private var titleStarts: Candidates {
        guard !needsTypos else { return .none }
        return Self.inTitle(words.compactMap { Self.expression($0.starts, $0.folded) })
    }

    private var anyField: Candidates {
        guard !needsTypos else { return .none }
        let parts = words.compactMap { Self.expression($0.starts, $0.folded) }
        return parts.isEmpty ? .all : .match(parts.joined(separator: " AND "))
    }

    /// The products whose words match with at most `most` typos in all (each word within its own
    /// allowance), in any field.
    private func withTypos(upTo most: Int) -> Candidates {
        // Each word's largest distance, and every way to share `most` among the words that are
        // not dominated by another (a word's matches within d include those within less).
        let largest = words.map { $0.near.map(\.distance).max() ?? 0 }
        var shares: [[Int]] = [[]]
        for limit in largest {
            shares = shares.flatMap { share in (0...limit).map { share + [$0] } }
                .filter { $0.reduce(0, +) <= most }
        }
        let maximal = shares.filter { share in
            !shares.contains { other in other != share && zip(other, share).allSatisfy { $0 >= $1 } }
        }
        var clauses: [String] = []
        for share in maximal {
            var parts: [String] = []
            var possible = true
            for (index, distance) in share.enumerated() where words[index].starts != .checked {
                guard let part = Self.expression(words[index], within: distance, isLast: index == words.count - 1) else {
                    possible = false
                    break
                }
                parts.append(part)
            }
            if possible, !parts.isEmpty { clauses.append("(" + parts.joined(separator: " AND ") + ")") }
        }
        return clauses.isEmpty ? .none : .match(clauses.joined(separator: " OR "))
    }

    /// The FTS5 expression for what `word` matches within `distance` typos; nil when nothing does.
    private static func expression(_ word: Word, within distance: Int, isLast: Bool) -> String? {
        var parts: [String] = []
        if word.starts != .nothing, let exact = expression(word.starts, word.folded) { parts.append(exact) }
        for near in word.near where near.distance <= distance {
            if isLast, let starts = word.nearStarts[near.text], let start = expression(starts, near.text) {
                parts.append(start)
            } else {
                parts.append(WordQuery.quoted(near.text) + (isLast ? "*" : ""))
            }
        }
        return parts.isEmpty ? nil : "(" + parts.joined(separator: " OR ") + ")"
    }

    private static func inTitle(_ parts: [String]) -> Candidates {
        parts.isEmpty ? .all : .match("{title} : (" + parts.joined(separator: " AND ") + ")")
    }

    /// `candidates` without those of `earlier`.
    private static func excluding(_ candidates: Candidates, _ earlier: Candidates) -> Candidates {
        switch (candidates, earlier) {
        case (.match(let these), .match(let those)): .match("(" + these + ") NOT (" + those + ")")
        case (_, .all): .none
        default: candidates
        }
    }

    /// The FTS5 expression for the terms `word` starts; for a broad word, the terms its first
    /// ``WordIndex/indexedPrefixLength`` characters start (read from FTS5's prefix index, a superset
    /// that candidates are then checked against); nil when it starts nothing or is checked alone.
    private static func expression(_ starts: Starts, _ word: String) -> String? {
        switch starts {
        case .nothing, .checked: nil
        case .terms(let terms): "(" + terms.map(WordQuery.quoted).joined(separator: " OR ") + ")"
        case .prefixQuery: WordQuery.quoted(word) + "*"
        case .broad: WordQuery.quoted(String(word.unicodeScalars.prefix(WordIndex.indexedPrefixLength))) + "*"
        }
    }
}
