import Testing
@testable import ProductCatalog

/// One record as a test sees it: its fields decoded, where it starts and what was wrong with it.
struct ReadRecord: Hashable, CustomStringConvertible {
    var fields: [String]
    /// The 1-based line on which the record starts.
    var line: Int
    /// The 0-based offset of the record's first byte.
    var byteOffset: Int
    var malformation: CSVMalformation?

    init(_ fields: [String], line: Int, byteOffset: Int, malformation: CSVMalformation? = nil) {
        self.fields = fields
        self.line = line
        self.byteOffset = byteOffset
        self.malformation = malformation
    }

    /// Copies what a test needs out of the reader's reused record.
    init(_ record: CSVRecord) {
        self.init(
            record.strings, line: record.position.line, byteOffset: record.position.byteOffset,
            malformation: record.malformation)
    }

    var description: String {
        var text = "\(fields.debugDescription) @ line \(line), byte \(byteOffset)"
        if let malformation { text += " [\(malformation.kind) col \(malformation.column) line \(malformation.line) byte \(malformation.byteOffset)]" }
        return text
    }
}

/// The record shape that ``readAll(_:chunkSize:delimiter:maxFieldBytes:)`` returns.
typealias ReadResult = (fields: [String], line: Int, byteOffset: Int, malformation: CSVMalformation?)

/// The reader chunk sizes every case is run through: tiny ones put a chunk boundary at every
/// byte, 7 at odd places, and 1 MiB reads a test input in one go.
let csvChunkSizes = [1, 2, 3, 7, 1 << 20]

/// Reads every record from `source` with a ``CSVReader``.
///
/// Records a test issue (instead of looping forever) if the reader returns more records than the
/// input could hold.
func readRecords(
    from source: any ByteSource, options: CSVReader.Options = CSVReader.Options(), limit: Int = .max
) throws -> [ReadRecord] {
    let reader = CSVReader(source: source, options: options)
    var record = CSVRecord(byteCapacity: 16, fieldCapacity: 4)
    var records: [ReadRecord] = []
    while try reader.readRecord(into: &record) {
        records.append(ReadRecord(record))
        if records.count > limit {
            Issue.record("the reader returned more than \(limit) records")
            break
        }
    }
    return records
}

/// Reads every record of `bytes` with chunks of `chunkSize` bytes.
///
/// The in-memory source also hands out at most `readSizes` bytes per read (cycling; by default
/// `chunkSize`), so boundaries can be put anywhere. Starts from a tiny ``CSVRecord`` so that buffer
/// growth is exercised too.
func readRecords(
    _ bytes: [UInt8],
    chunkSize: Int = 1 << 20,
    readSizes: [Int]? = nil,
    delimiter: UInt8? = UInt8(ascii: ","),
    maxFieldBytes: Int = 1 << 20
) -> [ReadRecord] {
    let source = MemoryByteSource(bytes, readSizes: readSizes ?? [chunkSize])
    let options = CSVReader.Options(delimiter: delimiter, chunkSize: chunkSize, maxFieldBytes: maxFieldBytes)
    do {
        return try readRecords(from: source, options: options, limit: bytes.count + 1)
    } catch {
        // A MemoryByteSource without `failAt` never throws, and the reader throws only what its
        // source throws.
        Issue.record("reading from memory threw \(error)")
        return []
    }
}

/// Reads every record of the UTF-8 bytes of `text`, as the `[UInt8]` overload does.
func readRecords(
    _ text: String,
    chunkSize: Int = 1 << 20,
    readSizes: [Int]? = nil,
    delimiter: UInt8? = UInt8(ascii: ","),
    maxFieldBytes: Int = 1 << 20
) -> [ReadRecord] {
    readRecords(
        Array(text.utf8), chunkSize: chunkSize, readSizes: readSizes, delimiter: delimiter,
        maxFieldBytes: maxFieldBytes)
}

/// Reads every record of `bytes` in chunks of `chunkSize` bytes, as plain tuples.
func readAll(
    _ bytes: [UInt8],
    chunkSize: Int = 1 << 20,
    delimiter: UInt8? = UInt8(ascii: ","),
    maxFieldBytes: Int = 1 << 20
) -> [ReadResult] {
    readRecords(bytes, chunkSize: chunkSize, delimiter: delimiter, maxFieldBytes: maxFieldBytes)
        .map { ($0.fields, $0.line, $0.byteOffset, $0.malformation) }
}

/// A line break style, for running a case in each.
enum LineEnding: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case lf, crlf, cr

    /// The line break itself.
    var text: String {
        switch self {
        case .lf: "\n"
        case .crlf: "\r\n"
        case .cr: "\r"
        }
    }

    var testDescription: String { rawValue.uppercased() }
}

/// How many line breaks `bytes` holds, counting CRLF once, the way the reader numbers lines.
func lineBreakCount<S: Sequence<UInt8>>(in bytes: S) -> Int {
    var count = 0
    var previousWasCR = false
    for byte in bytes {
        if byte == UInt8(ascii: "\r") {
            count += 1
            previousWasCR = true
        } else {
            if byte == UInt8(ascii: "\n") && !previousWasCR { count += 1 }
            previousWasCR = false
        }
    }
    return count
}

/// `bytes` with every LF that is not already after a CR turned into CRLF.
func convertingLFToCRLF(_ bytes: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count + bytes.count / 8)
    var previous: UInt8 = 0
    for byte in bytes {
        if byte == UInt8(ascii: "\n") && previous != UInt8(ascii: "\r") { result.append(UInt8(ascii: "\r")) }
        result.append(byte)
        previous = byte
    }
    return result
}
