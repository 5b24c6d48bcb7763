/// Finds a typo candidate's tier (``WordTier/oneTypo``, ``WordTier/twoTypos`` or
/// ``WordTier/moreTypos``) from the text of its fields, as ``WordPlan``'s typo tiers define it:
/// each query word counts the fewest typos it matches a word of the title, brand or type with
/// (none when the word starts one, as in ``WordTier/anyField``; a near term's distance for the
/// words before the last, a near start's for the last), and the tier is their sum.
///
/// Checking a few hundred candidates this way costs less than asking FTS5 for each typo tier,
/// whose expressions list every way to share the typos among the words.
struct TypoTierCheck {
    private let words: [[UInt8]]
    /// For each word before the last, its near terms and their distances.
    private let nearTerms: [[[UInt8]: Int]]
    /// For each word before the last, the lengths of its near terms: a token of another length
    /// is none of them, and is not copied to be looked up.
    private let nearLengths: [Set<Int>]
    /// The starts near the last word, with their distances.
    private let nearStarts: [(start: [UInt8], distance: Int)]
    private let tokenizer: WordTokenizer

    init(plan: WordPlan, tokenizer: WordTokenizer) {
        words = plan.words.map { Array($0.folded.utf8) }
        nearTerms = plan.words.dropLast().map { word in
            Dictionary(word.near.map { (Array($0.text.utf8), $0.distance) }, uniquingKeysWith: min)
        }
        nearLengths = nearTerms.map { Set($0.keys.map(\.count)) }
        nearStarts = plan.words.last?.near.map { (Array($0.text.utf8), $0.distance) } ?? []
        self.tokenizer = tokenizer
    }

    /// The typo tier of a product whose indexed fields are these UTF-8 bytes; nil when some word
    /// matches none of its words, or none needs a typo (the tiers before list it).
    func tier(fields: [UnsafeRawBufferPointer]) throws -> WordTier? {
        let count = words.count
        var fewest = [Int](repeating: Int.max, count: count)
        for field in fields {
            try tokenizer.forEachToken(in: field) { token in
                for index in 0..<count where fewest[index] > 0 {
                    if token.count >= words[index].count, token.starts(with: words[index]) {
                        fewest[index] = 0
                    } else if index == count - 1 {
                        for near in nearStarts where near.distance < fewest[index] && token.starts(with: near.start) {
                            fewest[index] = near.distance
                        }
                    } else if nearLengths[index].contains(token.count), let distance = nearTerms[index][Array(token)], distance < fewest[index] {
                        fewest[index] = distance
                    }
                }
            }
        }
        guard !fewest.contains(Int.max) else { return nil }
        switch fewest.reduce(0, +) {
        case 0: return nil
        case 1: return .oneTypo
        case 2: return .twoTypos
        default: return .moreTypos
        }
    }
}
