/// Reads RFC 4180 records from a ``ByteSource`` in fixed-size chunks, in constant memory.
///
/// ```swift
/// let reader = CSVReader(source: try FileByteSource(path: "products.csv"))
/// var record = CSVRecord()
/// while try reader.readRecord(into: &record) {
///     print(record.position.line, record.strings)
/// }
/// ```
///
/// Quoted fields may hold delimiters, doubled quotes and line breaks; LF, CRLF and CR all end
/// records; a UTF-8 byte-order mark is skipped; blank lines are skipped; the last record needs no
/// final line break. Malformed records are read leniently and flagged in
/// ``CSVRecord/malformation`` rather than thrown, so one bad row never stops a file.
public final class CSVReader {
    /// How to read.
    public struct Options: Sendable {
        /// The field delimiter; `nil` detects it from the first line (comma, semicolon, tab or pipe)
        /// as far as the first chunk holds it.
        public var delimiter: UInt8?
        /// The size of each read from the source.
        public var chunkSize: Int
        /// Fields longer than this are cut and the record flagged as malformed.
        public var maxFieldBytes: Int

        public init(delimiter: UInt8? = UInt8(ascii: ","), chunkSize: Int = 1 << 20, maxFieldBytes: Int = 1 << 20) {
            precondition(chunkSize > 0 && maxFieldBytes > 0)
            self.delimiter = delimiter
            self.chunkSize = chunkSize
            self.maxFieldBytes = maxFieldBytes
        }
    }

    /// The source being read.
    public let source: any ByteSource
    private let options: Options
    private let chunk: UnsafeMutableRawBufferPointer
    private var chunkStart = 0
    private var chunkEnd = 0
    private var atEnd = false
    private var parser: CSVParser?

    public init(source: any ByteSource, options: Options = Options()) {
        self.source = source
        self.options = options
        chunk = .allocate(byteCount: max(options.chunkSize, 4), alignment: 16)
    }

    deinit {
        chunk.deallocate()
    }

    /// The delimiter in use: the one given, or the one detected once reading has started.
    public var delimiter: UInt8? { parser?.delimiter ?? options.delimiter }

    /// Bytes of input parsed so far, byte-order mark included.
    public var bytesParsed: Int { parser?.offset ?? 0 }

    /// Reads the next record into `record`, reusing its storage. Returns `false` at the end.
    ///
    /// Throws only when the source fails; malformed CSV is reported in ``CSVRecord/malformation``.
    public func readRecord(into record: inout CSVRecord) throws -> Bool {
        try readRecord(into: &record, byteLimit: nil)
    }

    /// Like ``readRecord(into:)``, but gives up on a record that has not ended within `byteLimit`
    /// bytes, throwing a ``CSVMalformation`` of kind ``CSVMalformation/Kind/recordTooLong(limit:)``.
    ///
    /// For a record that must be short, such as a header: an input with no line end (a stream of
    /// NUL bytes, say) then fails at once instead of being read to its end, however long that is.
    /// The reader cannot go on after that error.
    public func readRecord(into record: inout CSVRecord, byteLimit: Int?) throws -> Bool {
        if parser == nil { try start() }
        let recordStart = parser!.offset
        while true {
            if let byteLimit, parser!.offset - recordStart > byteLimit {
                throw CSVMalformation(kind: .recordTooLong(limit: byteLimit), column: parser!.fieldCount + 1,
                                      line: parser!.line, byteOffset: parser!.offset)
            }
            let outcome: CSVParser.Outcome
            if chunkStart == chunkEnd {
                if !atEnd {
                    try refill()
                    continue
                }
                outcome = record.ends.withUnsafeMutableBufferPointer { parser!.finish(ends: $0) }
                if outcome == .inputEmpty { return false }
            } else {
                let input = UnsafeRawBufferPointer(rebasing: chunk[chunkStart..<chunkEnd])
                let (result, consumed) = record.bytes.withUnsafeMutableBufferPointer { output in
                    record.ends.withUnsafeMutableBufferPointer { ends in
                        parser!.parse(input, output: output, ends: ends)
                    }
                }
                chunkStart += consumed
                outcome = result
            }
            switch outcome {
            case .record:
                record.count = parser!.fieldCount
                record.position = CSVPosition(line: parser!.recordLine, byteOffset: parser!.recordOffset)
                record.malformation = parser!.malformation
                return true
            case .outputFull:
                grow(&record)
            case .inputEmpty:
                // Refill, or finish the record left open once the source has ended: even when the
                // end was met while gathering the first bytes in `start()`.
                continue
            }
        }
    }

    /// The first bytes of the input (up to `count`, after any byte-order mark), before any record is read.
    ///
    /// They tell what kind of file this is (see ``FileSignature``) without reading a first line
    /// that may never end.
    public func leadingBytes(_ count: Int = 512) throws -> [UInt8] {
        if parser == nil { try start() }
        return Array(chunk[chunkStart..<min(chunkEnd, chunkStart + count)])
    }

    /// Doubles whichever buffer the parser found full.
    private func grow(_ record: inout CSVRecord) {
        if parser!.fieldCount >= record.ends.count {
            record.ends.append(contentsOf: repeatElement(0, count: record.ends.count))
        } else {
            record.bytes.append(contentsOf: repeatElement(0, count: record.bytes.count))
        }
    }

    private func refill() throws {
        chunkStart = 0
        chunkEnd = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: chunk[0..<options.chunkSize]))
        if chunkEnd == 0 { atEnd = true }
    }

    /// Skips a byte-order mark and settles the delimiter before the first record.
    private func start() throws {
        // Gather at least three bytes, even from one-byte chunks, to see a byte-order mark; and to
        // detect the delimiter, the first line as far as the chunk holds it, however short the
        // source's reads.
        var lineEnded = false
        var inQuotes = false
        while chunkEnd < 3 || (options.delimiter == nil && !lineEnded && chunkEnd < options.chunkSize) {
            let room = min(options.chunkSize, chunk.count - chunkEnd)
            let n = try source.read(into: UnsafeMutableRawBufferPointer(rebasing: chunk[chunkEnd..<(chunkEnd + room)]))
            if n == 0 {
                atEnd = true
                break
            }
            for byte in chunk[chunkEnd..<(chunkEnd + n)] where !lineEnded {
                if byte == UInt8(ascii: "\"") {
                    inQuotes.toggle()
                } else if !inQuotes && (byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")) {
                    lineEnded = true
                }
            }
            chunkEnd += n
        }
        if chunkEnd >= 3, chunk[0] == 0xEF, chunk[1] == 0xBB, chunk[2] == 0xBF {
            chunkStart = 3
        }
        let head = UnsafeRawBufferPointer(rebasing: chunk[chunkStart..<chunkEnd])
        let delimiter = options.delimiter ?? DelimiterDetector.detect(in: head)
        parser = CSVParser(delimiter: delimiter, maxFieldBytes: options.maxFieldBytes, startOffset: chunkStart)
    }
}
