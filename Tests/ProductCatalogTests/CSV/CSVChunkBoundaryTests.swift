import Testing
@testable import ProductCatalog

/// The same input must give the same records, lines and byte offsets however it is cut into
/// chunks: the parser keeps its state between chunks, down to one byte at a time.
@Suite("CSV chunk boundaries")
struct CSVChunkBoundaryTests {
    @Test("Each RFC 4180 case reads the same in every chunk size", arguments: CSVCase.all, csvChunkSizes)
    func everyCaseInEveryChunkSize(_ csvCase: CSVCase, chunkSize: Int) {
        for ending in LineEnding.allCases {
            let records = readRecords(csvCase.input(ending), chunkSize: chunkSize)
            #expect(records == csvCase.records(ending), "\(ending.testDescription)")
        }
    }

    /// Inputs with a quote, a CRLF, a multi-byte letter and a byte-order mark at every position.
    static let trickyInputs: [String] = [
        "\u{FEFF}id,\"a \"\"b\"\"\",c\r\n\"x\r\ny\",é😀,\"\"\r\n\r\n日本,\"q\"\"\"\n",
        "\"a\"\"\",\"\"\"b\"\r\"c\r\"\n,\n",
        "a\"b,\"c\"d,\"unterminated\r\nstill",
    ]

    @Test("Cutting the input in two at any byte changes nothing", arguments: trickyInputs)
    func everySplitPoint(text: String) {
        let bytes = Array(text.utf8)
        let whole = readRecords(bytes)
        #expect(!whole.isEmpty)
        for split in 1..<bytes.count {
            let records = readRecords(bytes, readSizes: [split, .max])
            #expect(records == whole, "split at \(split)")
        }
    }

    @Test("Cutting the input in three at any bytes changes nothing")
    func everyPairOfSplitPoints() {
        let bytes = Array("\u{FEFF}\"a\"\"\r\nb\",é\r\n".utf8)
        let whole = readRecords(bytes)
        #expect(whole == [ReadRecord(["a\"\r\nb", "é"], line: 1, byteOffset: 3)])
        for first in 1..<bytes.count {
            for second in 1..<(bytes.count - first) {
                #expect(readRecords(bytes, readSizes: [first, second, .max]) == whole, "splits \(first), \(second)")
            }
        }
    }

    @Test("A doubled quote split between chunks stays one quote")
    func doubledQuoteSplit() {
        // The chunk ends after the first quote of `""`: the parser must not close the field.
        let text = "\"a\"\"b\",c\n"
        #expect(readRecords(text, readSizes: [3, .max]) == [ReadRecord(["a\"b", "c"], line: 1, byteOffset: 0)])
        // The chunk ends on the closing quote: the next chunk decides what it was.
        #expect(readRecords(text, readSizes: [6, .max]) == [ReadRecord(["a\"b", "c"], line: 1, byteOffset: 0)])
        #expect(readRecords("\"ab\"\nc\n", readSizes: [4, .max]).map(\.fields) == [["ab"], ["c"]])
    }

    @Test("A CRLF split between chunks is one line break")
    func crlfSplit() {
        let text = "a\r\nb\r\n\"c\r\nd\"\r\ne"
        let expected = [
            ReadRecord(["a"], line: 1, byteOffset: 0),
            ReadRecord(["b"], line: 2, byteOffset: 3),
            ReadRecord(["c\r\nd"], line: 3, byteOffset: 6),
            ReadRecord(["e"], line: 5, byteOffset: 14),
        ]
        let crOffsets = text.utf8.indices.filter { text.utf8[$0] == UInt8(ascii: "\r") }
            .map { text.utf8.distance(from: text.utf8.startIndex, to: $0) }
        for cr in crOffsets {
            // Each chunk ends right after a CR, so its LF starts the next chunk.
            #expect(readRecords(text, readSizes: [cr + 1, .max]) == expected, "split after the CR at \(cr)")
        }
        #expect(readRecords(text, chunkSize: 1) == expected)
    }

    @Test("A multi-byte UTF-8 letter split between chunks arrives whole", arguments: ["é", "日", "😀"])
    func multiByteLetterSplit(letter: String) {
        let text = "x,a\(letter)b\n\"\(letter)\"\n"
        let expected = [
            ReadRecord(["x", "a\(letter)b"], line: 1, byteOffset: 0),
            ReadRecord([letter], line: 2, byteOffset: 5 + letter.utf8.count),
        ]
        for inside in 1..<letter.utf8.count {
            #expect(readRecords(text, readSizes: [3 + inside, .max]) == expected, "unquoted, \(inside) byte(s) in")
            #expect(readRecords(text, readSizes: [6 + letter.utf8.count + inside, .max]) == expected, "quoted, \(inside) byte(s) in")
        }
    }

    @Test("A byte-order mark split across chunks is still stripped", arguments: [[1], [2], [1, 2], [2, 1], [1, 1, 5]])
    func byteOrderMarkSplit(readSizes: [Int]) {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("a,b\nc\n".utf8)
        let expected = [ReadRecord(["a", "b"], line: 1, byteOffset: 3), ReadRecord(["c"], line: 2, byteOffset: 7)]
        #expect(readRecords(bytes, readSizes: readSizes) == expected)
        for chunkSize in [1, 2] {
            #expect(readRecords(bytes, chunkSize: chunkSize, readSizes: readSizes) == expected, "chunk size \(chunkSize)")
        }
    }
}
