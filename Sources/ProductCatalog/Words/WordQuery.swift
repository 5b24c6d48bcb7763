/// The words of a search box's text: what word search looks for.
///
/// Words are the runs of letters and digits, as the index's `unicode61` tokenizer cuts them:
/// `Chef's t-shirt` is `Chef`, `s`, `t`, `shirt`. Quotes, `*`, `AND` and `:` are plain text here:
/// they never reach FTS5 as operators. A pasted text keeps its first ``maxWords`` words
/// (``isTruncated`` then says so). Case and accents are folded by the tokenizer, in the index and
/// in the query alike (``ProductSearch`` does that).
public struct WordQuery: Equatable, Sendable {
    /// The most words a query uses; the rest of a longer text is left out.
    public static let maxWords = 10
    /// The longest query text accepted, in bytes of UTF-8: room for ten long words and the
    /// punctuation between them, and a bound on the work a pasted text can cause.
    public static let maxBytes = 1_000

    /// The words used, as they were typed.
    public let words: [String]
    /// True when the text had more than ``maxWords`` words and only the first were used.
    public let isTruncated: Bool

    public init(_ text: String) {
        let all = text.split { !$0.isLetter && !$0.isNumber }
        words = all.prefix(Self.maxWords).map(String.init)
        isTruncated = all.count > Self.maxWords
    }

    /// The text of the words used, for the tokenizer.
    var text: String { words.joined(separator: " ") }

    /// `word` as an FTS5 string: quoted, so that it is never read as an operator.
    static func quoted(_ word: String) -> String {
        "\"" + word.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
