import Testing
@testable import ProductCatalog

/// Each record carries the line it starts on (line breaks inside quoted fields count, CRLF once)
/// and the byte offset of its first byte.
@Suite("CSV record positions")
struct CSVPositionTests {
    @Test("Mixed LF, CRLF and CR each end one line", arguments: csvChunkSizes)
    func mixedLineEndings(chunkSize: Int) {
        let records = readRecords("a\r\nb\rc\nd\n\re", chunkSize: chunkSize)
        #expect(records == [
            ReadRecord(["a"], line: 1, byteOffset: 0),
            ReadRecord(["b"], line: 2, byteOffset: 3),
            ReadRecord(["c"], line: 3, byteOffset: 5),
            ReadRecord(["d"], line: 4, byteOffset: 7),
            // LF then CR is two line breaks: the CR makes a blank line.
            ReadRecord(["e"], line: 6, byteOffset: 10),
        ])
    }

    @Test("Line breaks inside quoted fields count, CRLF once", arguments: csvChunkSizes)
    func lineBreaksInsideQuotes(chunkSize: Int) {
        let records = readRecords("\"a\r\nb\rc\nd\",x\r\ny,\"\n\n\"\nz\n", chunkSize: chunkSize)
        #expect(records == [
            ReadRecord(["a\r\nb\rc\nd", "x"], line: 1, byteOffset: 0),
            ReadRecord(["y", "\n\n"], line: 5, byteOffset: 14),
            ReadRecord(["z"], line: 8, byteOffset: 21),
        ])
    }

    /// A CR inside quotes followed by the closing quote and then an LF: the LF ends the record on
    /// a line of its own; it is not the second half of a CRLF.
    @Test("An LF after a quoted field that ends in CR is a new line", arguments: [
        "\"a\r\"\nb\n",
        "\"a\r\",\nb\n",
        "\"a\r\",x\nb\n",
        "\"a\r\"\"\"\nb\n",
        "\"a\r\",\"\"\nb\n",
    ], csvChunkSizes)
    func lfAfterQuotedCR(text: String, chunkSize: Int) {
        let records = readRecords(text, chunkSize: chunkSize)
        #expect(records.count == 2)
        #expect(records.first?.line == 1)
        #expect(records.last == ReadRecord(["b"], line: 3, byteOffset: text.utf8.count - 2))
    }

    @Test("Blank lines in every style move the line count on", arguments: csvChunkSizes)
    func blankLines(chunkSize: Int) {
        let records = readRecords("\r\n\n\r\r\na\n\r\n\rb", chunkSize: chunkSize)
        #expect(records == [
            ReadRecord(["a"], line: 5, byteOffset: 6),
            ReadRecord(["b"], line: 8, byteOffset: 11),
        ])
    }

    @Test("Byte offsets count bytes, not characters, and the byte-order mark", arguments: csvChunkSizes)
    func byteOffsetsCountBytes(chunkSize: Int) {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("ä,😀\n\"日\n本\",x\nlast".utf8)
        let records = readRecords(bytes, chunkSize: chunkSize)
        #expect(records == [
            ReadRecord(["ä", "😀"], line: 1, byteOffset: 3),
            ReadRecord(["日\n本", "x"], line: 2, byteOffset: 11),
            ReadRecord(["last"], line: 4, byteOffset: 23),
        ])
        for record in records {
            // The offset points at the record's first byte.
            let first = record.fields[0].utf8.first == bytes[record.byteOffset] || bytes[record.byteOffset] == UInt8(ascii: "\"")
            #expect(first, "\(record)")
        }
    }

    @Test("Positions describe themselves as line and byte")
    func positionDescription() {
        #expect(CSVPosition(line: 48_213, byteOffset: 1_000).description == "line 48213 (byte 1000)")
    }
}
