/// One CSV record: a reused buffer of field bytes plus the end offset of each field.
///
/// ``CSVReader/readRecord(into:)`` overwrites the same record again and again, so reading a file
/// allocates only while the buffers grow to the longest record. Copy out what you keep.
public struct CSVRecord: Sendable {
    @usableFromInline var bytes: [UInt8]
    @usableFromInline var ends: [Int]
    /// The number of fields.
    public internal(set) var count = 0
    /// Where the record starts in the input.
    public internal(set) var position = CSVPosition(line: 0, byteOffset: 0)
    /// The first RFC 4180 violation found in the record, if any; the fields hold a lenient reading.
    public internal(set) var malformation: CSVMalformation?

    /// An empty record with room for a typical row.
    public init(byteCapacity: Int = 1024, fieldCapacity: Int = 32) {
        bytes = [UInt8](repeating: 0, count: max(byteCapacity, 16))
        ends = [Int](repeating: 0, count: max(fieldCapacity, 4))
    }

    /// A record holding `fields`, for tests and for writing.
    public init(_ fields: [String]) {
        self.init()
        var utf8: [UInt8] = []
        var ends: [Int] = []
        for field in fields {
            utf8.append(contentsOf: field.utf8)
            ends.append(utf8.count)
        }
        bytes = utf8 + [0]
        self.ends = ends + [0]
        count = fields.count
    }

    /// Adds empty fields at the end until the record has `fieldCount` of them.
    mutating func padFields(to fieldCount: Int) {
        let end = count == 0 ? 0 : ends[count - 1]
        if ends.count < fieldCount + 1 { ends += Array(repeating: 0, count: fieldCount + 1 - ends.count) }
        while count < fieldCount {
            ends[count] = end
            count += 1
        }
    }

    /// Calls `body` with the record's fields as raw byte views, valid only during the call.
    ///
    /// This is the copy-free path the importer uses to bind fields straight into SQLite.
    @inlinable
    public func withFields<R, E: Error>(_ body: (Fields) throws(E) -> R) throws(E) -> R {
        try bytes.withUnsafeBufferPointer { (bytes) throws(E) -> R in
            try ends.withUnsafeBufferPointer { (ends) throws(E) -> R in
                try body(Fields(bytes: bytes.baseAddress!, ends: ends.baseAddress!, count: count))
            }
        }
    }

    /// The field at `index` decoded as UTF-8 (invalid bytes become U+FFFD).
    public subscript(index: Int) -> String {
        withFields { String(decoding: $0[index], as: UTF8.self) }
    }

    /// All fields decoded as UTF-8.
    public var strings: [String] {
        withFields { fields in (0..<fields.count).map { String(decoding: fields[$0], as: UTF8.self) } }
    }

    /// Borrowed views of a record's fields.
    public struct Fields {
        @usableFromInline let bytes: UnsafePointer<UInt8>
        @usableFromInline let ends: UnsafePointer<Int>
        /// The number of fields.
        public let count: Int

        @usableFromInline
        init(bytes: UnsafePointer<UInt8>, ends: UnsafePointer<Int>, count: Int) {
            self.bytes = bytes
            self.ends = ends
            self.count = count
        }

        /// The bytes of the field at `index`.
        @inlinable
        public subscript(index: Int) -> UnsafeBufferPointer<UInt8> {
            precondition(index >= 0 && index < count, "field index out of range")
            let start = index == 0 ? 0 : ends[index - 1]
            return UnsafeBufferPointer(start: bytes + start, count: ends[index] - start)
        }

        /// All field bytes of the record, back to back.
        public var allBytes: UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: bytes, count: count == 0 ? 0 : ends[count - 1])
        }
    }
}
