/// Finds a candidate's ``WordTier`` from the text of its fields, as ``WordTier/of(title:other:words:)``
/// defines it, without making a string: each field is tokenized by the index's own tokenizer and
/// its tokens compared byte by byte with the query's folded words. The brand and type are read
/// only when the title does not settle the tier.
struct WordTierCheck {
    private let words: [[UInt8]]
    private let tokenizer: WordTokenizer

    init(words: [String], tokenizer: WordTokenizer) {
        self.words = words.map { Array($0.utf8) }
        self.tokenizer = tokenizer
    }

    /// The best tier of a product whose title, brand and type are these UTF-8 bytes.
    func tier(title: UnsafeRawBufferPointer, other: [UnsafeRawBufferPointer]) throws -> WordTier? {
        let count = words.count
        var whole = [Bool](repeating: false, count: count)
        var starts = [Bool](repeating: false, count: count)
        var position = 0
        var exact = true
        try tokenizer.forEachToken(in: title) { token in
            if exact {
                exact = position < count && token.elementsEqual(words[position])
            }
            position += 1
            for index in 0..<count where !whole[index] || !starts[index] {
                let word = words[index]
                if token.count >= word.count, token.starts(with: word) {
                    starts[index] = true
                    if token.count == word.count { whole[index] = true }
                }
            }
        }
        if exact, position == count { return .exactTitle }
        if whole.dropLast().allSatisfy({ $0 }), starts[count - 1] { return .titleWords }
        if starts.allSatisfy({ $0 }) { return .titleStarts }
        for field in other {
            try tokenizer.forEachToken(in: field) { token in
                for index in 0..<count where !starts[index] {
                    let word = words[index]
                    if token.count >= word.count, token.starts(with: word) { starts[index] = true }
                }
            }
        }
        return starts.allSatisfy { $0 } ? .anyField : nil
    }
}
