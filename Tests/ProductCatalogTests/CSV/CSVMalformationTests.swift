import Testing
@testable import ProductCatalog

/// Malformed records are read leniently and flagged, never thrown, and reading goes on.
@Suite("CSV malformations")
struct CSVMalformationTests {
    /// A malformed input and what the reader must make of it.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var text: String
        var maxFieldBytes = 1 << 20
        var expected: [ReadRecord]
        var testDescription: String { name }
    }

    private static func malformation(_ kind: CSVMalformation.Kind, column: Int, line: Int, byte: Int) -> CSVMalformation {
        CSVMalformation(kind: kind, column: column, line: line, byteOffset: byte)
    }

    static let cases: [Case] = [
        Case(name: "a quote inside an unquoted field", text: "a\"b\nnext\n", expected: [
            ReadRecord(["a\"b"], line: 1, byteOffset: 0, malformation: malformation(.quoteInUnquotedField, column: 1, line: 1, byte: 1)),
            ReadRecord(["next"], line: 2, byteOffset: 4),
        ]),
        Case(name: "a quote inside an unquoted field in a later column and line", text: "ok\nx,y,a\"b\n", expected: [
            ReadRecord(["ok"], line: 1, byteOffset: 0),
            ReadRecord(["x", "y", "a\"b"], line: 2, byteOffset: 3, malformation: malformation(.quoteInUnquotedField, column: 3, line: 2, byte: 8)),
        ]),
        Case(name: "text after a closing quote", text: "\"a\"b\nnext", expected: [
            ReadRecord(["ab"], line: 1, byteOffset: 0, malformation: malformation(.characterAfterClosingQuote, column: 1, line: 1, byte: 3)),
            ReadRecord(["next"], line: 2, byteOffset: 5),
        ]),
        Case(name: "text after a closing quote on the second line of a field", text: "1,\"a\nb\"c,d\n", expected: [
            ReadRecord(["1", "a\nbc", "d"], line: 1, byteOffset: 0, malformation: malformation(.characterAfterClosingQuote, column: 2, line: 2, byte: 7)),
        ]),
        Case(name: "a space after a closing quote", text: "\"a\" ,b\n", expected: [
            ReadRecord(["a ", "b"], line: 1, byteOffset: 0, malformation: malformation(.characterAfterClosingQuote, column: 1, line: 1, byte: 3)),
        ]),
        Case(name: "input ending inside quotes", text: "a,\"bc", expected: [
            ReadRecord(["a", "bc"], line: 1, byteOffset: 0, malformation: malformation(.unterminatedQuote, column: 2, line: 1, byte: 5)),
        ]),
        Case(name: "input ending inside quotes after line breaks", text: "x\ny,\"z\r\nw\n", expected: [
            ReadRecord(["x"], line: 1, byteOffset: 0),
            ReadRecord(["y", "z\r\nw\n"], line: 2, byteOffset: 2, malformation: malformation(.unterminatedQuote, column: 2, line: 4, byte: 10)),
        ]),
        Case(name: "a lone quote at the end of the input", text: "a\n\"", expected: [
            ReadRecord(["a"], line: 1, byteOffset: 0),
            ReadRecord([""], line: 2, byteOffset: 2, malformation: malformation(.unterminatedQuote, column: 1, line: 2, byte: 3)),
        ]),
        Case(name: "only the first problem of a record is reported", text: "a\"b,\"c\"d,\"e\n", expected: [
            ReadRecord(["a\"b", "cd", "e\n"], line: 1, byteOffset: 0, malformation: malformation(.quoteInUnquotedField, column: 1, line: 1, byte: 1)),
        ]),
        Case(name: "a field longer than the limit", text: "abcdefgh,x\nnext,1\n", maxFieldBytes: 4, expected: [
            ReadRecord(["abcd", "x"], line: 1, byteOffset: 0, malformation: malformation(.fieldTooLong(limit: 4), column: 1, line: 1, byte: 4)),
            ReadRecord(["next", "1"], line: 2, byteOffset: 11),
        ]),
        Case(name: "a long field in a later column", text: "abcd,efghij,kl\nm\n", maxFieldBytes: 4, expected: [
            ReadRecord(["abcd", "efgh", "kl"], line: 1, byteOffset: 0, malformation: malformation(.fieldTooLong(limit: 4), column: 2, line: 1, byte: 9)),
            ReadRecord(["m"], line: 2, byteOffset: 15),
        ]),
        Case(name: "a quoted field with line breaks longer than the limit", text: "a,\"ab\ncdef\ngh\",x\nnxt\n", maxFieldBytes: 3, expected: [
            ReadRecord(["a", "ab\n", "x"], line: 1, byteOffset: 0, malformation: malformation(.fieldTooLong(limit: 3), column: 2, line: 2, byte: 6)),
            ReadRecord(["nxt"], line: 4, byteOffset: 17),
        ]),
        Case(name: "a doubled quote counts as one byte of the limit", text: "\"a\"\"b\"\n\"a\"\"\"\n", maxFieldBytes: 2, expected: [
            ReadRecord(["a\""], line: 1, byteOffset: 0, malformation: malformation(.fieldTooLong(limit: 2), column: 1, line: 1, byte: 4)),
            ReadRecord(["a\""], line: 2, byteOffset: 7),
        ]),
        Case(name: "fields exactly at the limit are whole", text: "abcd,\"ef\"\"g\"\n", maxFieldBytes: 4, expected: [
            ReadRecord(["abcd", "ef\"g"], line: 1, byteOffset: 0),
        ]),
    ]

    @Test("A malformed record is flagged and reading goes on", arguments: cases, csvChunkSizes)
    func malformedRecord(_ malformedCase: Case, chunkSize: Int) {
        let records = readRecords(malformedCase.text, chunkSize: chunkSize, maxFieldBytes: malformedCase.maxFieldBytes)
        #expect(records == malformedCase.expected)
    }

    @Test("The reader does not throw on malformed input")
    func doesNotThrow() {
        let reader = CSVReader(source: MemoryByteSource("\"a\"b,c\"d\n\"e"), options: .init(maxFieldBytes: 1))
        var record = CSVRecord()
        var count = 0
        #expect(throws: Never.self) {
            while try reader.readRecord(into: &record) { count += 1 }
        }
        #expect(count == 2)
    }

    @Test("A malformation describes what is wrong, with line and column")
    func description() {
        let cases: [(CSVMalformation.Kind, String)] = [
            (.quoteInUnquotedField, "quote inside an unquoted field"),
            (.characterAfterClosingQuote, "after a closing quote"),
            (.unterminatedQuote, "never closed"),
            (.fieldTooLong(limit: 4096), "longer than 4096 bytes"),
        ]
        for (kind, words) in cases {
            let text = CSVMalformation(kind: kind, column: 3, line: 48_213, byteOffset: 9).description
            #expect(text.contains(words), "\(text)")
            #expect(text.hasSuffix("at line 48213, column 3"), "\(text)")
        }
    }
}
