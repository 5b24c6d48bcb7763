import Testing
@testable import ProductCatalog

/// One RFC 4180 reading case, written once with `⏎` for each line break and run in every
/// ``LineEnding``.
///
/// Expected byte offsets are given for LF; the offset in another style follows from the line:
/// a record on line `n` has `n - 1` line breaks before it, each one byte longer in CRLF.
struct CSVCase: Sendable, CustomTestStringConvertible {
    struct Expected: Sendable {
        /// The fields, with `⏎` for a line break inside a quoted field.
        var fields: [String]
        var line: Int
        /// The offset of the record's first byte in the LF variant, byte-order mark not counted.
        var lfOffset: Int
    }

    var name: String
    /// The input, with `⏎` for each line break.
    var template: String
    /// Whether the input starts with a UTF-8 byte-order mark.
    var byteOrderMark = false
    var expected: [Expected]

    var testDescription: String { name }

    /// The input bytes in `ending`.
    func input(_ ending: LineEnding) -> [UInt8] {
        (byteOrderMark ? [0xEF, 0xBB, 0xBF] : []) + Array(template.replacing("⏎", with: ending.text).utf8)
    }

    /// The records the reader must return for ``input(_:)``.
    func records(_ ending: LineEnding) -> [ReadRecord] {
        let extraPerBreak = ending.text.utf8.count - 1
        return expected.map { record in
            ReadRecord(
                record.fields.map { $0.replacing("⏎", with: ending.text) },
                line: record.line,
                byteOffset: (byteOrderMark ? 3 : 0) + record.lfOffset + extraPerBreak * (record.line - 1))
        }
    }
}

extension CSVCase {
    private static func record(_ fields: [String], line: Int = 1, at lfOffset: Int = 0) -> Expected {
        Expected(fields: fields, line: line, lfOffset: lfOffset)
    }

    /// Every RFC 4180 edge case the reader must handle.
    static let all: [CSVCase] = [
        CSVCase(name: "simple records", template: "a,b,c⏎1,2,3⏎", expected: [
            record(["a", "b", "c"]), record(["1", "2", "3"], line: 2, at: 6),
        ]),
        CSVCase(name: "a last record without a final line break", template: "a,b⏎c,d", expected: [
            record(["a", "b"]), record(["c", "d"], line: 2, at: 4),
        ]),
        CSVCase(name: "a single field without a line break", template: "x", expected: [record(["x"])]),
        CSVCase(name: "quoted fields containing the delimiter", template: "\"a,b\",c⏎d,\",e,\"⏎", expected: [
            record(["a,b", "c"]), record(["d", ",e,"], line: 2, at: 8),
        ]),
        CSVCase(name: "doubled quotes", template: "\"say \"\"hi\"\"\",x⏎\"\"\"\"⏎", expected: [
            record(["say \"hi\"", "x"]), record(["\""], line: 2, at: 15),
        ]),
        CSVCase(name: "a line break inside quotes", template: "\"line1⏎line2\",b⏎next,row⏎", expected: [
            record(["line1⏎line2", "b"]), record(["next", "row"], line: 3, at: 16),
        ]),
        CSVCase(name: "several line breaks inside quotes", template: "\"⏎⏎\"⏎x⏎", expected: [
            record(["⏎⏎"]), record(["x"], line: 4, at: 5),
        ]),
        CSVCase(name: "a line break right before a closing quote", template: "a,\"b⏎\"⏎c⏎", expected: [
            record(["a", "b⏎"]), record(["c"], line: 3, at: 7),
        ]),
        CSVCase(name: "quotes, delimiters and line breaks in one field", template: "\"a,\"\"b\"\"⏎c\",d⏎e⏎", expected: [
            record(["a,\"b\"⏎c", "d"]), record(["e"], line: 3, at: 14),
        ]),
        CSVCase(name: "a blank line is skipped", template: "a⏎⏎b⏎", expected: [
            record(["a"]), record(["b"], line: 3, at: 3),
        ]),
        CSVCase(name: "several blank lines in a row are skipped", template: "⏎⏎a⏎⏎⏎b⏎⏎", expected: [
            record(["a"], line: 3, at: 2), record(["b"], line: 6, at: 6),
        ]),
        CSVCase(name: "blank lines at the end of the file are skipped", template: "a⏎⏎⏎", expected: [
            record(["a"]),
        ]),
        CSVCase(name: "only blank lines make no records", template: "⏎⏎⏎", expected: []),
        CSVCase(name: "empty input makes no records", template: "", expected: []),
        CSVCase(name: "an empty field in the middle", template: "a,,b⏎", expected: [record(["a", "", "b"])]),
        CSVCase(name: "a trailing empty field", template: "a,b,⏎c⏎", expected: [
            record(["a", "b", ""]), record(["c"], line: 2, at: 5),
        ]),
        CSVCase(name: "a trailing empty field at the end of the file", template: "a,b,", expected: [
            record(["a", "b", ""]),
        ]),
        CSVCase(name: "a leading empty field", template: ",a⏎", expected: [record(["", "a"])]),
        CSVCase(name: "only delimiters", template: ",,⏎", expected: [record(["", "", ""])]),
        CSVCase(name: "a line of two quotes is one empty field", template: "\"\"⏎x⏎", expected: [
            record([""]), record(["x"], line: 2, at: 3),
        ]),
        CSVCase(name: "a quoted empty field between others", template: "a,\"\",b⏎", expected: [
            record(["a", "", "b"]),
        ]),
        CSVCase(name: "a quoted empty field at the end of the file", template: "a,\"\"", expected: [
            record(["a", ""]),
        ]),
        CSVCase(name: "a quoted field at the end of a line", template: "\"a\"⏎\"b\"", expected: [
            record(["a"]), record(["b"], line: 2, at: 4),
        ]),
        CSVCase(name: "non-ASCII UTF-8", template: "naïve,日本語,😀⏎\"ü,ß\",é⏎", expected: [
            record(["naïve", "日本語", "😀"]), record(["ü,ß", "é"], line: 2, at: 22),
        ]),
        CSVCase(name: "spaces are kept", template: " a , b ⏎", expected: [record([" a ", " b "])]),
        CSVCase(name: "many fields", template: (0..<40).map { "f\($0)" }.joined(separator: ",") + "⏎x⏎", expected: [
            record((0..<40).map { "f\($0)" }), record(["x"], line: 2, at: 150),
        ]),
        CSVCase(name: "a long field", template: String(repeating: "abcdefghij", count: 300) + ",\"" + String(repeating: "é", count: 500) + "\"⏎", expected: [
            record([String(repeating: "abcdefghij", count: 300), String(repeating: "é", count: 500)]),
        ]),
        CSVCase(name: "a byte-order mark is stripped", template: "a,b⏎c⏎", byteOrderMark: true, expected: [
            record(["a", "b"]), record(["c"], line: 2, at: 4),
        ]),
        CSVCase(name: "a byte-order mark alone makes no records", template: "", byteOrderMark: true, expected: []),
        CSVCase(name: "a byte-order mark before blank lines", template: "⏎⏎a⏎", byteOrderMark: true, expected: [
            record(["a"], line: 3, at: 2),
        ]),
        CSVCase(name: "a byte-order mark before a quoted field", template: "\"a\",b", byteOrderMark: true, expected: [
            record(["a", "b"]),
        ]),
    ]
}
