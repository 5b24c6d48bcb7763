import Testing
@testable import ProductCatalog
import TestSupport

/// Random bytes, not CSV: the reader must end, stay in its memory bounds, and what it read must
/// survive being written back out as CSV and read again.
@Suite struct CSVRandomInputTests {
    /// Bytes biased towards what makes CSV interesting: quotes, delimiters, line breaks, NUL,
    /// byte-order marks and broken UTF-8.
    static func randomInput(using random: inout SeededRandomGenerator) -> [UInt8] {
        let alphabet: [UInt8] = [0x22, 0x22, 0x2C, 0x2C, 0x0A, 0x0D, 0x00, 0x61, 0x62, 0x20, 0xEF, 0xBB, 0xBF, 0xC3, 0xA9, 0xFF, 0x3B]
        let count = Int.random(in: 0..<400, using: &random)
        return (0..<count).map { _ in
            Bool.random(using: &random) ? alphabet.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
        }
    }

    static func read(_ bytes: [UInt8], chunkSize: Int, maxFieldBytes: Int) throws -> [[[UInt8]]] {
        let reader = CSVReader(
            source: MemoryByteSource(bytes),
            options: CSVReader.Options(delimiter: UInt8(ascii: ","), chunkSize: chunkSize, maxFieldBytes: maxFieldBytes))
        var record = CSVRecord(byteCapacity: 16, fieldCapacity: 4)
        var records: [[[UInt8]]] = []
        while try reader.readRecord(into: &record) {
            records.append(record.withFields { fields in (0..<fields.count).map { Array(fields[$0]) } })
            // Each record consumes at least one byte: more records than bytes means a loop.
            if records.count > bytes.count { Issue.record("more records than input bytes"); break }
            #expect(record.bytes.count <= 16 + 2 * bytes.count + 2 * maxFieldBytes)
        }
        return records
    }

    @Test(arguments: 0..<8)
    func randomBytesReadWriteAndReadAgainIdentically(seed: UInt64) throws {
        var random = SeededRandomGenerator(seed: seed &+ 1000)
        for _ in 0..<250 {
            let input = Self.randomInput(using: &random)
            let chunkSize = [1, 3, 7, 64, 1 << 20].randomElement(using: &random)!
            let maxFieldBytes = [4, 32, 1 << 20].randomElement(using: &random)!
            let records = try Self.read(input, chunkSize: chunkSize, maxFieldBytes: maxFieldBytes)
            var encoder = CSVEncoder()
            for record in records {
                for field in record { field.withUnsafeBufferPointer { encoder.appendField($0) } }
                encoder.endRecord()
            }
            let again = try Self.read(encoder.bytes, chunkSize: 5, maxFieldBytes: 1 << 20)
            #expect(again == records, "input \(input)")
        }
    }
}
