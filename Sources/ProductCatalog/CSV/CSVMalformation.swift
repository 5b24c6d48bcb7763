/// A way in which a record breaks RFC 4180, found while it was parsed leniently.
///
/// The parser never stops on malformed input: it keeps the most sensible reading of the record
/// and reports the first problem it saw, so the layer above can reject that one record and go on.
public struct CSVMalformation: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// A `"` inside a field that did not start with one (`a"b`).
        case quoteInUnquotedField
        /// Something other than a delimiter or line break after a closing quote (`"a"b`).
        case characterAfterClosingQuote
        /// The input ended inside a quoted field.
        case unterminatedQuote
        /// A field longer than the reader's `maxFieldBytes`; the rest of it was dropped.
        case fieldTooLong(limit: Int)
        /// A record still not ended after `limit` bytes, where the caller set such a limit
        /// (``CSVReader/readRecord(into:byteLimit:)``); reading stopped there.
        case recordTooLong(limit: Int)
    }

    public var kind: Kind
    /// The 1-based field (column) in which the problem was found.
    public var column: Int
    /// The 1-based line of the offending byte.
    public var line: Int
    /// The 0-based byte offset of the offending byte.
    public var byteOffset: Int

    public var description: String {
        let what: String
        switch kind {
        case .quoteInUnquotedField:
            what = "a quote inside an unquoted field (quote the field and double the quote: \"a\"\"b\")"
        case .characterAfterClosingQuote:
            what = "text after a closing quote (a quote inside a quoted field must be doubled)"
        case .unterminatedQuote:
            what = "a quoted field that is never closed"
        case .fieldTooLong(let limit):
            what = "a field longer than \(limit) bytes"
        case .recordTooLong(let limit):
            what = "no line end within the first \(limit) bytes"
        }
        return "\(what) at line \(line), column \(column)"
    }
}
