/// The words of a search box's text, as an FTS5 query for rows with a word starting with each.
///
/// Words are the runs of letters and digits, as the index's `unicode61` tokenizer cuts them:
/// `Chef's t-shirt` is `Chef`, `s`, `t`, `shirt`. Each is quoted, so FTS5's operators (`AND`,
/// `NEAR`, `*`, `:`) are plain words here, and gets a `*` to match as a prefix. Case and accents
/// are left to the tokenizer, which folds both in the index and in the query alike.
public struct WordQuery: Equatable, Sendable {
    /// The words, as they were typed.
    public let words: [String]

    public init(_ text: String) {
        words = text.split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    /// The `MATCH` expression, nil when the text has no words.
    var matchExpression: String? {
        guard !words.isEmpty else { return nil }
        return words.map(Self.prefix).joined(separator: " ")
    }

    /// `word` as an FTS5 string: quoted, so that it is never read as an operator.
    static func quoted(_ word: String) -> String {
        "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// An FTS5 query for the words starting with `word`.
    static func prefix(_ word: String) -> String {
        quoted(word) + "*"
    }
}
