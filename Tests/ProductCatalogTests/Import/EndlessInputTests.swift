import Testing
@testable import ProductCatalog

/// Inputs that never end, or have no line end where a header should be: refused after reading a
/// bounded amount, never read to their end.
@Suite struct EndlessInputTests {
    /// `byte` over and over, like `/dev/zero`; it gives up (as a read error) after `limit` bytes
    /// so that a reader that does not stop fails the test instead of running forever.
    final class EndlessByteSource: ByteSource {
        let name = "endless"
        let expectedBytes: Int? = nil
        private(set) var bytesRead = 0
        let byte: UInt8
        let limit: Int

        init(byte: UInt8, limit: Int = 64 << 20) {
            self.byte = byte
            self.limit = limit
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            guard bytesRead < limit else { throw ByteSourceError(source: name, reason: "the test's limit was reached") }
            buffer.initializeMemory(as: UInt8.self, repeating: byte)
            bytesRead += buffer.count
            return buffer.count
        }
    }

    @Test func aStreamOfNULBytesIsNamedBinaryFromItsFirstChunk() throws {
        let fixture = try CatalogFixture()
        let source = EndlessByteSource(byte: 0)
        #expect {
            try CatalogImporter(options: fixture.options).run(source: source)
        } throws: { error in
            guard case ImportError.notText(_, .binary) = error else { return false }
            return true
        }
        #expect(source.bytesRead <= fixture.options.reading.chunkSize)
    }

    @Test func aHeaderWithNoLineEndIsRefusedAfterItsLimit() throws {
        let fixture = try CatalogFixture()
        let source = EndlessByteSource(byte: UInt8(ascii: "a"))
        #expect {
            try CatalogImporter(options: fixture.options).run(source: source)
        } throws: { error in
            guard case ImportError.malformedHeader(_, let malformation) = error,
                  case .recordTooLong(let limit) = malformation.kind else { return false }
            return limit == 1 << 20 && String(describing: error).contains("no line end within the first 1048576 bytes")
        }
        #expect(source.bytesRead <= (1 << 20) + 2 * fixture.options.reading.chunkSize)
    }

    @Test func theReaderStopsARecordAtItsByteLimitAndReadsShortOnesWhole() throws {
        let reader = CSVReader(source: MemoryByteSource(Array("a,b\n".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 100)),
                               options: CSVReader.Options(chunkSize: 8))
        var record = CSVRecord()
        #expect(try reader.readRecord(into: &record, byteLimit: 10))
        #expect(record.strings == ["a", "b"])
        #expect {
            try reader.readRecord(into: &record, byteLimit: 10)
        } throws: { error in
            (error as? CSVMalformation)?.kind == .recordTooLong(limit: 10)
        }
    }
}
