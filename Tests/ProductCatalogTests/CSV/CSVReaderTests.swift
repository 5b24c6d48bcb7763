import Testing
@testable import ProductCatalog

@Suite("CSVReader")
struct CSVReaderTests {
    @Test("Each RFC 4180 case reads as expected", arguments: CSVCase.all, LineEnding.allCases)
    func rfc4180Case(_ csvCase: CSVCase, ending: LineEnding) {
        let records = readRecords(csvCase.input(ending))
        #expect(records == csvCase.records(ending))
    }

    @Test("A field may hold the other candidate delimiters when one is chosen", arguments: [
        (UInt8(ascii: ";"), "a,b;\"c;d\";e|f\n", ["a,b", "c;d", "e|f"]),
        (UInt8(ascii: "\t"), "a,b\t\"c\td\"\te|f\n", ["a,b", "c\td", "e|f"]),
        (UInt8(ascii: "|"), "a,b|\"c|d\"|e\tf\n", ["a,b", "c|d", "e\tf"]),
    ])
    func otherDelimiters(delimiter: UInt8, text: String, expected: [String]) {
        for chunkSize in csvChunkSizes {
            #expect(readRecords(text, chunkSize: chunkSize, delimiter: delimiter).map(\.fields) == [expected])
        }
    }

    @Test("A partial byte-order mark is data, not skipped")
    func partialByteOrderMark() {
        let records = readRecords([0xEF, 0xBB, UInt8(ascii: "x"), UInt8(ascii: ","), UInt8(ascii: "y")])
        #expect(records.count == 1)
        #expect(records.first?.fields.count == 2)
        #expect(records.first?.fields.last == "y")
        #expect(records.first?.byteOffset == 0)
    }

    @Test("A byte-order mark after the start of the input is kept as data")
    func byteOrderMarkInsideTheInput() {
        let records = readRecords("a\n\u{FEFF}b\n")
        #expect(records.map(\.fields) == [["a"], ["\u{FEFF}b"]])
    }

    @Test("A record reused from a longer one holds only its own fields")
    func recordReuse() throws {
        let reader = CSVReader(source: MemoryByteSource("a,b,c,d\nx\n,\n"))
        var record = CSVRecord()
        #expect(try reader.readRecord(into: &record))
        #expect(record.count == 4)
        #expect(try reader.readRecord(into: &record))
        #expect(record.count == 1)
        #expect(record.strings == ["x"])
        #expect(record[0] == "x")
        #expect(try reader.readRecord(into: &record))
        #expect(record.strings == ["", ""])
    }

    @Test("Reading past the end keeps returning false")
    func readingPastTheEnd() throws {
        let reader = CSVReader(source: MemoryByteSource("a\n"))
        var record = CSVRecord()
        #expect(try reader.readRecord(into: &record))
        #expect(try !reader.readRecord(into: &record))
        #expect(try !reader.readRecord(into: &record))
    }

    @Test("bytesParsed counts every byte, byte-order mark included", arguments: csvChunkSizes)
    func bytesParsed(chunkSize: Int) throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("a,\"b\nc\"\r\n\r\nd\n\n".utf8)
        let reader = CSVReader(source: MemoryByteSource(bytes), options: .init(chunkSize: chunkSize))
        #expect(reader.bytesParsed == 0)
        var record = CSVRecord()
        while try reader.readRecord(into: &record) {}
        #expect(reader.bytesParsed == bytes.count)
    }

    @Test("A failing source's error comes through readRecord", arguments: [1, 7, 1 << 20])
    func sourceErrorsAreThrown(chunkSize: Int) throws {
        let source = MemoryByteSource(Array("a,b\nc,d\ne,f\n".utf8), failAt: 6)
        let reader = CSVReader(source: source, options: .init(chunkSize: chunkSize))
        var record = CSVRecord()
        #expect(try reader.readRecord(into: &record))
        #expect(record.strings == ["a", "b"])
        let error = #expect(throws: ByteSourceError.self) {
            while try reader.readRecord(into: &record) {}
        }
        #expect(error?.description.contains("simulated failure") == true)
    }

    @Test("A source that serves fewer bytes than asked for is read fully", arguments: [1, 2, 5])
    func shortReads(readSize: Int) {
        let text = "\u{FEFF}id,name\n1,\"A, \"\"quoted\"\"\nname\"\n2,b\n"
        let expected = [
            ReadRecord(["id", "name"], line: 1, byteOffset: 3),
            ReadRecord(["1", "A, \"quoted\"\nname"], line: 2, byteOffset: 11),
            ReadRecord(["2", "b"], line: 4, byteOffset: 34),
        ]
        #expect(readRecords(text, chunkSize: 1 << 20, readSizes: [readSize]) == expected)
        #expect(readRecords(text, chunkSize: 3, readSizes: [readSize]) == expected)
    }

    @Test("readAll returns fields, line, byte offset and malformation")
    func readAllTuples() {
        let records = readAll(Array("a,b\n\"c\nd\"x\n".utf8), chunkSize: 2)
        #expect(records.count == 2)
        #expect(records[0].fields == ["a", "b"])
        #expect(records[0].line == 1 && records[0].byteOffset == 0 && records[0].malformation == nil)
        #expect(records[1].fields == ["c\ndx"])
        #expect(records[1].line == 2 && records[1].byteOffset == 4)
        #expect(records[1].malformation?.kind == .characterAfterClosingQuote)
    }
}
