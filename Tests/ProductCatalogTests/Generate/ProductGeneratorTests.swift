import Testing
@testable import FeedGenerator
@testable import ProductCatalog

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("ProductGenerator")
struct ProductGeneratorTests {
    /// Everything a generator writes, gathered from its sink.
    private func generate(_ generator: ProductGenerator) -> [UInt8] {
        var bytes: [UInt8] = []
        generator.write { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// The records of `bytes` read back with ``CSVReader``, in 4 KiB chunks.
    private func records(of bytes: [UInt8]) throws -> [ReadRecord] {
        let options = CSVReader.Options(delimiter: UInt8(ascii: ","), chunkSize: 4096)
        return try readRecords(from: MemoryByteSource(bytes), options: options)
    }

    /// FNV-1a, 64-bit: a fingerprint of the output that needs no Foundation.
    private func fingerprint(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }

    // MARK: - Determinism

    @Test func theSameSeedGivesIdenticalBytes() {
        let first = generate(ProductGenerator(rows: 2_000, seed: 7))
        let second = generate(ProductGenerator(rows: 2_000, seed: 7))
        #expect(first == second)
    }

    @Test func differentSeedsGiveDifferentBytes() {
        let one = generate(ProductGenerator(rows: 200, seed: 1))
        let two = generate(ProductGenerator(rows: 200, seed: 2))
        #expect(one != two)
        #expect(one.starts(with: ProductRowEncoder.header) && two.starts(with: ProductRowEncoder.header))
    }

    @Test func theBufferSizeChangesOnlyHowTheBytesAreSplit() {
        let reference = generate(ProductGenerator(rows: 3_000, seed: 3))
        for bufferSize in [1, 1_000, 4_096, 1 << 20] {
            #expect(generate(ProductGenerator(rows: 3_000, seed: 3, bufferSize: bufferSize)) == reference)
        }
    }

    @Test func theSinkGetsNonEmptyChunksNoLargerThanTheBuffer() {
        var sizes: [Int] = []
        ProductGenerator(rows: 5_000, seed: 1, bufferSize: 8_192).write { sizes.append($0.count) }
        #expect(sizes.count > 10)
        #expect(sizes.allSatisfy { $0 > 0 && $0 <= 8_192 })
    }

    /// Pins the output, so that a change of platform, compiler or code that alters the bytes fails.
    @Test func seed42GivesTheSameFileOnEveryMachine() {
        let bytes = generate(ProductGenerator(rows: 10_000, seed: 42))
        let head = String(decoding: bytes.prefix(200), as: UTF8.self)
        #expect(head == """
            productId,title,listPrice,salesPrice,color,size
            A-390290,Soft Chef's Knife,4.00,,White,Large
            MXP-000479826,Kestrel Classic Keyboard,11.00,9.99,Rose Gold,
            kb-7470757,"Alba 10.9"" Tablet",787.00,393.59,
            """)
        #expect(fingerprint(bytes) == 0xE24E_2EC1_6854_0C8D)
    }

    // MARK: - Content

    @Test func zeroRowsGiveJustTheHeader() throws {
        let bytes = generate(ProductGenerator(rows: 0))
        #expect(String(decoding: bytes, as: UTF8.self) == "productId,title,listPrice,salesPrice,color,size\n")
        #expect(try records(of: bytes).map(\.fields) == [ProductGenerator.columns])
    }

    @Test func theOutputReadsBackAsWellFormedCSV() throws {
        let rows = 5_000
        let bytes = generate(ProductGenerator(rows: rows, seed: 11))
        #expect(bytes.last == UInt8(ascii: "\n"))
        #expect(!bytes.contains(UInt8(ascii: "\r")))

        let records = try records(of: bytes)
        #expect(records.count == rows + 1)
        #expect(records.first?.fields == ProductGenerator.columns)
        #expect(records.allSatisfy { $0.fields.count == 6 })
        #expect(records.allSatisfy { $0.malformation == nil })
        // One line per record: no field holds a line break.
        #expect(records.last?.line == rows + 1)
    }

    @Test func productIdsAreUniqueIgnoringCaseAndNotSorted() throws {
        let records = try records(of: generate(ProductGenerator(rows: 5_000, seed: 5))).dropFirst()
        let ids = records.map { $0.fields[0] }
        #expect(Set(ids.map { $0.uppercased() }).count == ids.count)
        #expect(ids != ids.sorted())
        #expect(ids.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) })
        // Several families share the leading letters.
        #expect(ids.contains { $0.hasPrefix("AB-") } && ids.contains { $0.hasPrefix("ABC-") })
        #expect(ids.contains { $0.hasPrefix("XY1-") } && ids.contains { $0.hasPrefix("XY12-") })
        #expect(ids.contains { $0.hasPrefix("SKU-0") })
    }

    @Test func everyProductIdReadsBackToItsRow() throws {
        let rows = 3_000
        let seed: UInt64 = 9
        let records = try records(of: generate(ProductGenerator(rows: rows, seed: seed))).dropFirst()
        let scheme = ProductIdScheme(rows: rows, seed: seed)
        let misread = records.enumerated().filter { row, record in
            ProductIdScheme.decode(record.fields[0].lowercased()) != scheme.permutation(UInt64(row))
        }
        #expect(misread.isEmpty, "\(misread.prefix(3).map { $0.element.fields[0] })")
    }

    @Test func pricesHaveTwoDecimalsAndSalesNeverExceedListPrices() throws {
        let records = try records(of: generate(ProductGenerator(rows: 5_000, seed: 8))).dropFirst()
        func cents(_ text: String) -> Int? {
            let parts = text.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[1].count == 2, !parts[0].isEmpty,
                parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
                let units = Int(parts[0]), let hundredths = Int(parts[1])
            else { return nil }
            return units * 100 + hundredths
        }
        var onSale = 0
        for record in records {
            let list = cents(record.fields[2])
            #expect(list != nil && list! > 0, "listPrice \(record.fields[2])")
            guard !record.fields[3].isEmpty else { continue }
            onSale += 1
            let sale = cents(record.fields[3])
            #expect(sale != nil && list != nil && sale! <= list!, "\(record.fields[3]) > \(record.fields[2])")
        }
        // About 40% of rows are on sale.
        #expect((1_700...2_300).contains(onSale))
    }

    @Test func titlesHoldCommasQuotesAndNonASCIILetters() throws {
        let bytes = generate(ProductGenerator(rows: 5_000, seed: 4))
        let titles = try records(of: bytes).dropFirst().map { $0.fields[1] }
        #expect(titles.contains { $0.contains(",") })
        #expect(titles.contains { $0.contains("\"") })
        #expect(titles.contains { $0.unicodeScalars.contains { !$0.isASCII } })
        #expect(titles.contains { $0.contains("日本") })
        #expect(String(decoding: bytes, as: UTF8.self).contains("\"\""))
    }

    @Test func colorsAreAlwaysThereAndSizesSometimesEmpty() throws {
        let records = try records(of: generate(ProductGenerator(rows: 2_000, seed: 6))).dropFirst()
        #expect(records.allSatisfy { !$0.fields[4].isEmpty })
        #expect(records.contains { $0.fields[5].isEmpty })
        #expect(records.contains { !$0.fields[5].isEmpty })
    }

    // MARK: - Files

    @Test func writingToAPathGivesTheSameBytesAsTheSink() throws {
        let directory = try TemporaryDirectory()
        let generator = ProductGenerator(rows: 1_500, seed: 12)
        let path = directory.file("products.csv")
        try generator.write(toPath: path)
        let source = try FileByteSource(path: path)
        var written: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try source.read(into: $0) }
            if n == 0 { break }
            written += chunk[0..<n]
        }
        #expect(written == generate(generator))
    }

    @Test func anUnwritablePathThrowsAnErrorNamingIt() {
        let path = "/nonexistent-folder-\(getpid())/products.csv"
        #expect {
            try ProductGenerator(rows: 10).write(toPath: path)
        } throws: { error in
            let description = "\(error)"
            return description.contains(path) && description.contains("folder does not exist")
        }
    }
}
