import Testing
@testable import ProductCatalog

/// Named with a `CSV` prefix so that `swift test --filter CSV` runs it with the rest of the CSV layer.
@Suite("DelimiterDetector")
struct CSVDelimiterDetectorTests {
    private static func detect(_ text: String) -> UInt8 {
        Array(text.utf8).withUnsafeBytes { DelimiterDetector.detect(in: $0) }
    }

    @Test("The delimiter that occurs most in the header line wins", arguments: [
        ("sku,name,price\n1,2,3\n", ","),
        ("sku;name;price\n1;2;3\n", ";"),
        ("sku\tname\tprice\n1\t2\t3\n", "\t"),
        ("sku|name|price\n1|2|3\n", "|"),
        ("sku;name,with;price\n", ";"),
        ("a|b|c;d\r\n", "|"),
    ] as [(String, Character)])
    func mostFrequent(header: String, expected: Character) {
        #expect(Self.detect(header) == expected.asciiValue)
    }

    @Test("Delimiters inside quotes do not count")
    func quotedDelimiters() {
        #expect(Self.detect("\"a,b,c\";\"d,e\";f\n") == UInt8(ascii: ";"))
        #expect(Self.detect("\"a;\"\"b;c\"\"\",d\n") == UInt8(ascii: ","))
    }

    @Test("Only the first line counts")
    func firstLineOnly() {
        #expect(Self.detect("a;b\nc,d,e,f,g\n") == UInt8(ascii: ";"))
        #expect(Self.detect("a|b\rc,d,e\n") == UInt8(ascii: "|"))
        // A line break inside quotes does not end the header line.
        #expect(Self.detect("\"a\nb,c,d\";e\n") == UInt8(ascii: ";"))
    }

    @Test("Comma is the default, and ties go to the earlier candidate")
    func defaultsAndTies() {
        #expect(Self.detect("") == UInt8(ascii: ","))
        #expect(Self.detect("single column\nx,y\n") == UInt8(ascii: ","))
        #expect(Self.detect("a;b|c\n") == UInt8(ascii: ";"))
        #expect(Self.detect("a\tb|c\n") == UInt8(ascii: "\t"))
        #expect(Self.detect("a,b;c\n") == UInt8(ascii: ","))
    }

    @Test("A reader without a delimiter detects it and splits on it", arguments: [
        ("id;name;price\n1;\"Tee, white\";9,99\n", ";", [["id", "name", "price"], ["1", "Tee, white", "9,99"]]),
        ("id\tname\n1\tTee, white\n", "\t", [["id", "name"], ["1", "Tee, white"]]),
        ("id|name\n1|a;b,c\n", "|", [["id", "name"], ["1", "a;b,c"]]),
        ("id,name\n1,\"a;b\"\n", ",", [["id", "name"], ["1", "a;b"]]),
        ("\"name, full\";\"size; in cm\";sku\nx;y;z\n", ";", [["name, full", "size; in cm", "sku"], ["x", "y", "z"]]),
        ("\u{FEFF}a;b\n1;2\n", ";", [["a", "b"], ["1", "2"]]),
    ] as [(String, Character, [[String]])])
    func readerDetects(text: String, delimiter: Character, expected: [[String]]) throws {
        let reader = CSVReader(source: MemoryByteSource(text), options: .init(delimiter: nil))
        #expect(reader.delimiter == nil)
        var record = CSVRecord()
        var fields: [[String]] = []
        while try reader.readRecord(into: &record) { fields.append(record.strings) }
        #expect(fields == expected)
        #expect(reader.delimiter == delimiter.asciiValue)
    }

    /// A pipe or a slow source may hand out the header a few bytes at a time: detection must not
    /// depend on how the source splits its reads, only on the first line.
    @Test("Detection sees the whole first line however the source splits its reads", arguments: [[1], [3], [4], [5, 1], [9]])
    func detectionAcrossShortReads(readSizes: [Int]) throws {
        let cases: [(String, UInt8, [String])] = [
            ("\"a,b\";c;d\n1;2;3\n", UInt8(ascii: ";"), ["a,b", "c", "d"]),
            ("a,b;c;d;e\n1,2;3;4;5\n", UInt8(ascii: ";"), ["a,b", "c", "d", "e"]),
            ("\u{FEFF}x,y|z|w|v\n", UInt8(ascii: "|"), ["x,y", "z", "w", "v"]),
            ("\"a\nb,c,d\";e;f\n", UInt8(ascii: ";"), ["a\nb,c,d", "e", "f"]),
        ]
        for (text, delimiter, header) in cases {
            let source = MemoryByteSource(Array(text.utf8), readSizes: readSizes)
            let reader = CSVReader(source: source, options: .init(delimiter: nil))
            var record = CSVRecord()
            #expect(try reader.readRecord(into: &record))
            #expect(reader.delimiter == delimiter, "\(text.debugDescription)")
            #expect(record.strings == header)
        }
    }

    @Test("An explicit delimiter wins over what the header suggests")
    func explicitDelimiterWins() throws {
        let text = "a,b,c;d\n1,2,3;4\n"
        let reader = CSVReader(source: MemoryByteSource(text), options: .init(delimiter: UInt8(ascii: ";")))
        #expect(reader.delimiter == UInt8(ascii: ";"))
        var record = CSVRecord()
        #expect(try reader.readRecord(into: &record))
        #expect(record.strings == ["a,b,c", "d"])
        #expect(reader.delimiter == UInt8(ascii: ";"))
        #expect(readRecords(text, delimiter: UInt8(ascii: ",")).map(\.fields) == [["a", "b", "c;d"], ["1", "2", "3;4"]])
    }
}
