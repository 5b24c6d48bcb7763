import ProductCatalog

/// Serves the fuzzer's bytes a few at a time, so chunk boundaries fall everywhere.
final class FuzzInput: ByteSource {
    let bytes: UnsafeRawBufferPointer
    let step: Int
    var bytesRead = 0
    var name: String { "fuzz input" }
    var expectedBytes: Int? { bytes.count }

    init(_ bytes: UnsafeRawBufferPointer, step: Int) {
        self.bytes = bytes
        self.step = step
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, step, bytes.count - bytesRead)
        guard count > 0 else { return 0 }
        buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + bytesRead, byteCount: count)
        bytesRead += count
        return count
    }
}

/// Reads `bytes` with the given chunk size and returns every record's fields.
func records(in bytes: UnsafeRawBufferPointer, chunkSize: Int, step: Int, delimiter: UInt8? = UInt8(ascii: ",")) -> [[[UInt8]]] {
    let reader = CSVReader(
        source: FuzzInput(bytes, step: step),
        options: CSVReader.Options(delimiter: delimiter, chunkSize: chunkSize, maxFieldBytes: 256))
    var record = CSVRecord(byteCapacity: 16, fieldCapacity: 2)
    var result: [[[UInt8]]] = []
    while (try? reader.readRecord(into: &record)) == true {
        result.append(record.withFields { fields in (0..<fields.count).map { Array(fields[$0]) } })
        precondition(result.count <= bytes.count, "the reader returned more records than there are bytes")
    }
    return result
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    // Delimiter detection must cope with anything, though what it picks depends on the chunk.
    _ = records(in: input, chunkSize: 1 << 16, step: .max, delimiter: nil)
    let whole = records(in: input, chunkSize: 1 << 16, step: .max)
    // The same input in tiny chunks must read the same.
    precondition(records(in: input, chunkSize: 3, step: 2) == whole, "chunking changed the records")
    // Written back out and read again, the records are the same.
    var encoder = CSVEncoder()
    for record in whole {
        for field in record { field.withUnsafeBufferPointer { encoder.appendField($0) } }
        encoder.endRecord()
    }
    let again = encoder.bytes.withUnsafeBytes { records(in: $0, chunkSize: 1 << 16, step: .max) }
    precondition(again.count == whole.count, "a written record did not read back")
    return 0
}
