/// Whether a word of a product's text matches a word of a query, as search matches them: it
/// starts with the query word (folded as the index folds it), or it is one of the word's near
/// words (with typos), or, for the query's last word (which may be unfinished), it starts with one
/// of that word's near starts.
///
/// The one place this is said: highlights (``WordPlan/highlights(of:tokenizer:)``) and the check of
/// a sorted walk's products (``WordMatchCheck``) both ask it.
struct WordMatcher {
    private let words: [[UInt8]]
    private let nearWhole: [Set<[UInt8]>]
    private let nearStarts: [[UInt8]]

    init(plan: WordPlan) {
        words = plan.words.map { Array($0.folded.utf8) }
        nearWhole = plan.words.map { Set($0.near.map { Array($0.text.utf8) }) }
        nearStarts = plan.words.last?.near.map { Array($0.text.utf8) } ?? []
    }

    /// How many words the query has.
    var wordCount: Int { words.count }

    /// Whether `token` (a folded word of the product) matches query word `index`, and if so
    /// whether only as a close spelling.
    func match(_ token: UnsafeRawBufferPointer, word index: Int) -> (matches: Bool, isTypo: Bool) {
        if token.starts(with: words[index]) { return (true, false) }
        if !nearWhole[index].isEmpty, nearWhole[index].contains(Array(token)) { return (true, true) }
        if index == words.count - 1, nearStarts.contains(where: { token.starts(with: $0) }) { return (true, true) }
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
