/// Whether a word of a product's text matches a word of a query, as search matches them: it
/// starts with the query word (folded as the index folds it), or it is one of the word's near
/// words (with typos), or, for the query's last word (which may be unfinished), it starts with one
/// of that word's near starts.
///
/// The one place this is said: highlights (``WordPlan/highlights(of:tokenizer:)``), the check of
/// a sorted walk's products (``WordMatchCheck``), a family's other variants (``FamilyJudge``) and
/// the rows of a word read from a shorter start's list (``WordRun``) all ask it.
struct WordMatcher {
    private let words: [[UInt8]]
    /// The near words with their typos: each word's whole ones, and the last word's starts.
    private let nearWhole: [[[UInt8]: UInt8]]
    private let nearStarts: [(start: [UInt8], typos: UInt8)]

    init(plan: WordPlan) {
        words = plan.words.map { Array($0.folded.utf8) }
        nearWhole = plan.words.map { word in
            Dictionary(word.near.map { (Array($0.text.utf8), UInt8(min($0.distance, 3))) }, uniquingKeysWith: min)
        }
        nearStarts = plan.words.last?.near.map { (Array($0.text.utf8), UInt8(min($0.distance, 3))) } ?? []
    }

    /// The bucket of the ranking rules (``MatchRank``) of a product whose title, brand and type
    /// have the folded words `fields` (in that order), as the index's lists rank it: each query word
    /// found as the start of a word (whole when it is the word), a near word as a whole word, and
    /// for the last query word a near start; nil when some query word is in no field.
    func rank(fields: [[[UInt8]]]) -> MatchRank? {
        var tally = Tally(self)
        for (field, tokens) in fields.enumerated() {
            for token in tokens { token.withUnsafeBytes { tally.note($0, field: field) } }
        }
        return tally.rank
    }

    /// How well query word `index` matches a product whose title, brand and type have the folded
    /// words `fields`, as the word's lists tell it; with `typos`, its near words and starts too.
    func fit(word index: Int, fields: [[[UInt8]]], typos: Bool = true) -> WordFit {
        var match = WordFit()
        for (field, tokens) in fields.enumerated() {
            for token in tokens { token.withUnsafeBytes { note($0, field: field, word: index, typos: typos, in: &match) } }
        }
        return match
    }

    /// Notes in `match` how query word `index` matches `token`, a folded word of field `field`.
    @inline(__always)
    private func note(_ token: UnsafeRawBufferPointer, field: Int, word index: Int, typos: Bool, in match: inout WordFit) {
        let bits = Posting.field(field)
        let word = words[index]
        if token.starts(with: word) { match.note(fields: bits, distance: 0, isWhole: token.count == word.count) }
        guard typos else { return }
        if index == words.count - 1 {
            for near in nearStarts where token.starts(with: near.start) {
                match.note(fields: bits, distance: near.typos, isWhole: false)
            }
        } else if !nearWhole[index].isEmpty, let typos = nearWhole[index][Array(token)] {
            match.note(fields: bits, distance: typos, isWhole: true)
        }
    }

    /// A product's matches, noted token by token as its title, brand and type are tokenized, so
    /// that no token is kept: ``rank(fields:)`` for the many variants a count of families reads.
    struct Tally {
        private let matcher: WordMatcher
        private var fits: [WordFit]
        /// How many words the title has.
        private(set) var titleWords = 0
        /// True while the title's words are the query's, in order.
        private var titleIsQuery = true

        init(_ matcher: WordMatcher) {
            self.matcher = matcher
            fits = Array(repeating: WordFit(), count: matcher.words.count)
        }

        /// Notes `token`, the next folded word of field `field` (0 the title, 1 the brand, 2 the type).
        mutating func note(_ token: UnsafeRawBufferPointer, field: Int) {
            if field == 0 {
                if titleWords >= matcher.words.count || !token.elementsEqual(matcher.words[titleWords]) { titleIsQuery = false }
                titleWords += 1
            }
            for index in fits.indices { matcher.note(token, field: field, word: index, typos: true, in: &fits[index]) }
        }

        /// The bucket of the product noted (see ``WordMatcher/rank(fields:)``); nil when some query word is in no field.
        var rank: MatchRank? {
            guard var rank = MatchRank.of(fits) else { return nil }
            if rank == MatchRank(typos: 0, place: .titleWords), titleIsQuery, titleWords == matcher.words.count { rank = .first }
            return rank
        }
    }

    /// How many words the query has.
    var wordCount: Int { words.count }

    /// Whether `token` (a folded word of the product) matches query word `index`, and if so
    /// whether only as a close spelling.
    func match(_ token: UnsafeRawBufferPointer, word index: Int) -> (matches: Bool, isTypo: Bool) {
        if token.starts(with: words[index]) { return (true, false) }
        if !nearWhole[index].isEmpty, nearWhole[index][Array(token)] != nil { return (true, true) }
        if index == words.count - 1, nearStarts.contains(where: { token.starts(with: $0.start) }) { return (true, true) }
        return (false, false)
    }

    /// The first query word `token` matches, and whether only as a close spelling.
    func firstMatch(_ token: UnsafeRawBufferPointer) -> (word: Int, isTypo: Bool)? {
        for index in words.indices {
            let found = match(token, word: index)
            if found.matches { return (index, found.isTypo) }
        }
        return nil
    }
}
