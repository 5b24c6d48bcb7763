import Testing
@testable import ProductCatalog

@Suite("CSVRecord")
struct CSVRecordTests {
    @Test("The record buffers stop growing once they hold the longest record")
    func buffersDoNotGrow() throws {
        // 100,000 rows of the same size, 4.4 MB in all; a small record must grow for the first row
        // and never again.
        let row = Array("12345,abcdefghij,\"quoted, with comma\",x,,ü\n".utf8)
        let rowCount = 100_000
        var bytes: [UInt8] = []
        bytes.reserveCapacity(row.count * rowCount)
        for _ in 0..<rowCount { bytes.append(contentsOf: row) }

        let reader = CSVReader(source: MemoryByteSource(bytes), options: .init(chunkSize: 64 << 10))
        var record = CSVRecord(byteCapacity: 16, fieldCapacity: 4)
        for _ in 0..<3 { #expect(try reader.readRecord(into: &record)) }
        let byteCapacity = record.bytes.count
        let fieldCapacity = record.ends.count
        #expect(byteCapacity >= 36 && fieldCapacity >= 6)

        var count = 3
        while try reader.readRecord(into: &record) { count += 1 }
        #expect(count == rowCount)
        #expect(record.strings == ["12345", "abcdefghij", "quoted, with comma", "x", "", "ü"])
        #expect(record.position == CSVPosition(line: rowCount, byteOffset: (rowCount - 1) * row.count))
        #expect(record.bytes.count == byteCapacity)
        #expect(record.ends.count == fieldCapacity)
    }

    @Test("A long record grows the buffers and shorter records after it do not shrink them", arguments: csvChunkSizes)
    func growsForLongRecords(chunkSize: Int) throws {
        let long = (0..<100).map { "field\($0)-" + String(repeating: "x", count: $0) }
        let text = "a,b\n" + long.joined(separator: ",") + "\nc\n"
        let reader = CSVReader(source: MemoryByteSource(text), options: .init(chunkSize: chunkSize))
        var record = CSVRecord(byteCapacity: 16, fieldCapacity: 4)
        #expect(try reader.readRecord(into: &record))
        #expect(try reader.readRecord(into: &record))
        #expect(record.strings == long)
        let byteCapacity = record.bytes.count
        #expect(byteCapacity >= long.joined().utf8.count)
        #expect(record.ends.count >= 100)
        #expect(try reader.readRecord(into: &record))
        #expect(record.strings == ["c"])
        #expect(record.bytes.count == byteCapacity)
    }

    @Test("A record made from strings gives them back")
    func recordFromStrings() {
        let record = CSVRecord(["sku-1", "", "Crème brûlée, 200 g", "\"quoted\""])
        #expect(record.count == 4)
        #expect(record.strings == ["sku-1", "", "Crème brûlée, 200 g", "\"quoted\""])
        #expect(record[2] == "Crème brûlée, 200 g")
        #expect(record[1].isEmpty)
        #expect(record.malformation == nil)
    }

    @Test("A record made from no strings has no fields")
    func emptyRecord() {
        let record = CSVRecord([])
        #expect(record.count == 0)
        #expect(record.strings.isEmpty)
        record.withFields { fields in
            #expect(fields.count == 0)
            #expect(fields.allBytes.isEmpty)
        }
    }

    @Test("Field views borrow the record's bytes back to back")
    func fieldViews() throws {
        let reader = CSVReader(source: MemoryByteSource("ab,\"c,d\",,é\n"))
        var record = CSVRecord()
        #expect(try reader.readRecord(into: &record))
        record.withFields { fields in
            #expect(fields.count == 4)
            #expect(Array(fields[0]) == Array("ab".utf8))
            #expect(Array(fields[1]) == Array("c,d".utf8))
            #expect(fields[2].isEmpty)
            #expect(Array(fields[3]) == Array("é".utf8))
            #expect(Array(fields.allBytes) == Array("abc,dé".utf8))
        }
    }

    @Test("Invalid UTF-8 decodes with replacement characters")
    func invalidUTF8() {
        let records = readRecords([0x61, 0xFF, 0x62, UInt8(ascii: ","), 0xC3])
        #expect(records.map(\.fields) == [["a\u{FFFD}b", "\u{FFFD}"]])
    }
}
