import Testing
@testable import ProductCatalog
import TestSupport

/// Random records, written by ``ReferenceCSVWriter`` and read back in random chunk sizes, must
/// come back byte for byte, at the lines and byte offsets where they were written.
@Suite("CSV round trip")
struct CSVRoundTripTests {
    /// What fields are made of: plain text, every byte with a meaning in CSV, and multi-byte
    /// letters (a byte-order mark and a decomposed é among them).
    static let pieces = [
        "a", "b", "xyz", " ", ",", ";", "\t", "|", "\"", "\"\"", "\r", "\n", "\r\n", "é", "日本", "😀",
        "\u{FEFF}", "e\u{301}",
    ]
    static let delimiters: [Character] = [",", ";", "\t", "|"]
    static let chunkSizes = [1, 2, 3, 7, 64, 4096, 1 << 20]

    private static func randomField(using random: inout SeededRandomGenerator) -> String {
        // One field in four is empty.
        guard Int.random(in: 0..<4, using: &random) > 0 else { return "" }
        let count = Int.random(in: 1...6, using: &random)
        return (0..<count).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    @Test("Random records written as CSV read back the same", arguments: 0..<24 as Range<UInt64>)
    func roundTrip(seed: UInt64) {
        var random = SeededRandomGenerator(seed: seed)
        let delimiter = Self.delimiters.randomElement(using: &random)!
        let ending = LineEnding.allCases.randomElement(using: &random)!
        let writer = ReferenceCSVWriter(delimiter: delimiter, lineEnding: ending.text)
        let byteOrderMark = Bool.random(using: &random)
        let finalLineEnding = Bool.random(using: &random)

        let rows = (0..<Int.random(in: 100...150, using: &random)).map { _ in
            (0..<Int.random(in: 1...8, using: &random)).map { _ in Self.randomField(using: &random) }
        }
        var bytes: [UInt8] = byteOrderMark ? [0xEF, 0xBB, 0xBF] : []
        var expected: [ReadRecord] = []
        var line = 1
        for (index, row) in rows.enumerated() {
            expected.append(ReadRecord(row, line: line, byteOffset: bytes.count))
            let encoded = writer.encode(record: row)
            bytes += encoded.utf8
            line += lineBreakCount(in: encoded.utf8)
            if index < rows.count - 1 || finalLineEnding {
                bytes += ending.text.utf8
                line += 1
            }
        }

        let chunkSize = Self.chunkSizes.randomElement(using: &random)!
        let readSizes = (0..<3).map { _ in Int.random(in: 1...97, using: &random) }
        let records = readRecords(bytes, chunkSize: chunkSize, readSizes: readSizes, delimiter: delimiter.asciiValue)
        let context = "seed \(seed), delimiter \(delimiter.debugDescription), \(ending.testDescription), chunk size \(chunkSize), reads \(readSizes)"
        #expect(records == expected, "\(context)")
        // String equality is canonical equivalence; the bytes must match exactly.
        #expect(records.map { $0.fields.map { Array($0.utf8) } } == rows.map { $0.map { Array($0.utf8) } }, "\(context)")
    }

    @Test("The reference writer quotes exactly the fields that need it")
    func referenceWriter() {
        let writer = ReferenceCSVWriter(delimiter: ";", lineEnding: "\r\n")
        #expect(writer.encode(record: ["a", "b,c", "d;e", "say \"hi\"", "x\ny", ""]) == "a;b,c;\"d;e\";\"say \"\"hi\"\"\";\"x\ny\";")
        #expect(writer.encode(record: [""]) == "\"\"")
        #expect(writer.encode(record: ["\u{FEFF}x"]) == "\"\u{FEFF}x\"")
        #expect(writer.encode(records: [["a"], ["b"]]) == "a\r\nb\r\n")
        #expect(writer.encode(records: [["a"], ["b"]], finalLineEnding: false) == "a\r\nb")
    }

    @Test("The seeded generator repeats its sequence")
    func seededGeneratorRepeats() {
        var first = SeededRandomGenerator(seed: 42)
        var second = SeededRandomGenerator(seed: 42)
        var other = SeededRandomGenerator(seed: 43)
        let a = (0..<8).map { _ in first.next() }
        #expect(a == (0..<8).map { _ in second.next() })
        #expect(a != (0..<8).map { _ in other.next() })
        // SplitMix64's published first output for seed 0.
        var zero = SeededRandomGenerator(seed: 0)
        #expect(zero.next() == 0xE220_A839_7B1D_CDAF)
    }
}
