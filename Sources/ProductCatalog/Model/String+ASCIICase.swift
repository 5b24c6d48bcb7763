extension String {
    /// The text with ASCII letters in lower case, as SQLite's `lower()` and `NOCASE` and
    /// PostgreSQL's `lower()` under the `C` collation fold it: how filters compare values.
    public var asciiLowercased: String {
        String(decoding: utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
