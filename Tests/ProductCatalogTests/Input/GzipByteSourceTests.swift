import Testing
@testable import FeedGenerator
@testable import ProductCatalog

@Suite struct GzipByteSourceTests {
    let plain = SourceTestData.productCSV(rows: 2_000)

    /// Reads `source` to its end in reads of `readSize` bytes.
    func readAll(_ source: any ByteSource, readSize: Int = 1 << 16) throws -> [UInt8] {
        var bytes: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: readSize, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let n = try source.read(into: buffer)
            if n == 0 { return bytes }
            bytes += buffer[..<n]
        }
    }

    /// The reason of the ``ByteSourceError`` that reading all of `compressed` throws.
    func failure(reading compressed: [UInt8]) -> String? {
        let error = #expect(throws: ByteSourceError.self) {
            try readAll(GzipByteSource.decompressingIfGzip(MemoryByteSource(compressed, name: "feed.csv.gz")))
        }
        #expect(error?.source == "feed.csv.gz")
        return error?.reason
    }

    @Test(arguments: [(1, 1), (7, 3), (1 << 16, 1 << 20), (1 << 20, 7)])
    func aGzipCSVReadsAsTheSameRecordsAsThePlainFileWhateverTheReadSizes(compressedReadSize: Int, chunkSize: Int) throws {
        let compressed = try SourceTestData.gzip(plain)
        let source = GzipByteSource.decompressingIfGzip(MemoryByteSource(compressed, maxReadSize: compressedReadSize))
        let records = try readRecords(from: source, options: CSVReader.Options(chunkSize: chunkSize))
        #expect(records == (try SourceTestData.records(plain)))
        #expect(records.count == 2_001)
    }

    @Test func progressCountsCompressedBytesAgainstTheCompressedSize() throws {
        let compressed = try SourceTestData.gzip(plain)
        let source = GzipByteSource.decompressingIfGzip(MemoryByteSource(compressed, maxReadSize: 4096))
        #expect(source.expectedBytes == compressed.count)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 10, alignment: 1)
        defer { buffer.deallocate() }
        var decompressed = 0
        var sawPartway = false
        while true {
            let n = try source.read(into: buffer)
            if n == 0 { break }
            decompressed += n
            #expect(source.bytesRead <= compressed.count)
            sawPartway = sawPartway || (source.bytesRead > 0 && source.bytesRead < compressed.count)
        }
        #expect(decompressed == plain.count)
        #expect(source.bytesRead == compressed.count)
        #expect(sawPartway)
    }

    @Test func concatenatedMembersDecompressToTheirConcatenation() throws {
        let header = Array("productId,title\n".utf8)
        let first = Array("A1,one\nA2,two\n".utf8)
        let second = Array("B1,three\n".utf8)
        let compressed = try SourceTestData.gzip(header) + SourceTestData.gzip(first) + SourceTestData.gzip(second, level: 1)
        for readSize in [1, 5, 1 << 16] {
            let source = try GzipByteSource(decompressing: MemoryByteSource(compressed, maxReadSize: readSize))
            #expect(try readAll(source, readSize: 3) == header + first + second)
            #expect(source.membersFinished == 3)
        }
    }

    @Test(arguments: ["", "p", "productId\nA1\n", "\u{1F}x,y\n"])
    func inputThatIsNotGzipPassesThroughUnchanged(text: String) throws {
        for readSize in [1, 1 << 16] {
            let source = GzipByteSource.decompressingIfGzip(MemoryByteSource(Array(text.utf8), maxReadSize: readSize))
            #expect(try readAll(source, readSize: readSize) == Array(text.utf8))
            #expect(source.bytesRead == text.utf8.count)
        }
    }

    @Test func aTruncatedGzipFileIsAClearErrorWhereverItIsCut() throws {
        let compressed = try SourceTestData.gzip(plain)
        // In the header, in the compressed blocks, in the 8-byte trailer, one byte short.
        for length in [2, 5, 11, compressed.count / 2, compressed.count - 5, compressed.count - 1] {
            let reason = failure(reading: Array(compressed[..<length]))
            #expect(reason?.contains("the gzip data ends early") == true, "cut at \(length): \(reason ?? "no error")")
            #expect(reason?.contains("the file is truncated") == true)
        }
    }

    @Test func aCorruptGzipFileIsAClearErrorNamingTheCompressedByte() throws {
        let compressed = try SourceTestData.gzip(plain)
        // Damage the compressed blocks: bits that make an invalid block, distance or code.
        var damagedBlock = compressed
        for offset in stride(from: 20, to: 60, by: 1) { damagedBlock[offset] ^= 0xFF }
        let blockReason = try #require(failure(reading: damagedBlock))
        #expect(blockReason.hasPrefix("the gzip data is corrupt ("), "\(blockReason)")
        #expect(try #require(offset(in: blockReason)) >= 10, "past the 10-byte header")

        // Damage the CRC-32 in the trailer: every block decodes but the check fails.
        var damagedCheck = compressed
        damagedCheck[compressed.count - 8] ^= 0x01
        let checkReason = try #require(failure(reading: damagedCheck))
        #expect(checkReason.hasPrefix("the gzip data is corrupt (incorrect data check) at compressed byte "), "\(checkReason)")
        #expect(try (compressed.count - 8...compressed.count).contains(#require(offset(in: checkReason))))

        // A compression method other than deflate in the header.
        var damagedHeader = compressed
        damagedHeader[2] = 7
        let headerReason = try #require(failure(reading: damagedHeader))
        #expect(headerReason.hasPrefix("the gzip data is corrupt (unknown compression method) at compressed byte "), "\(headerReason)")
        #expect(try (2...10).contains(#require(offset(in: headerReason))))
    }

    @Test func dataAfterTheLastMemberThatIsNotGzipIsAnError() throws {
        let compressed = try SourceTestData.gzip(Array("productId\nA1\n".utf8))
        let reason = try #require(failure(reading: compressed + Array("garbage".utf8)))
        #expect(reason.hasPrefix("the data after gzip member 1 is not gzip (incorrect header check) at compressed byte "), "\(reason)")
        #expect(try (compressed.count...compressed.count + 2).contains(#require(offset(in: reason))))
    }

    /// The compressed byte offset an error message ends with.
    func offset(in reason: String) -> Int? {
        reason.split(separator: " ").last.flatMap { Int($0) }
    }

    @Test func anEmptyStreamGivenAsGzipIsAnError() throws {
        let error = #expect(throws: ByteSourceError.self) {
            try readAll(GzipByteSource(decompressing: MemoryByteSource([], name: "empty.gz")))
        }
        #expect(error?.description == "empty.gz: the gzip data is empty")
    }
}
