/// Encodes records as RFC 4180 CSV into memory, quoting only the fields that need it.
///
/// A field is quoted when it holds a comma, a quote, CR or LF, when it starts with a UTF-8
/// byte-order mark (which a reader would strip at the start of a file), and when it is the
/// first field of its record and empty (so a one-field record is never a blank line).
public struct CSVEncoder: Sendable {
    /// The encoded bytes so far.
    public var bytes: [UInt8] = []
    private var fieldsInRecord = 0

    public init() {}

    /// Appends one field to the current record.
    public mutating func appendField(_ field: UnsafeBufferPointer<UInt8>) {
        if fieldsInRecord > 0 { bytes.append(UInt8(ascii: ",")) }
        fieldsInRecord += 1
        guard Self.needsQuotes(field, isFirst: fieldsInRecord == 1) else {
            bytes.append(contentsOf: field)
            return
        }
        bytes.append(UInt8(ascii: "\""))
        for byte in field {
            if byte == UInt8(ascii: "\"") { bytes.append(byte) }
            bytes.append(byte)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Ends the current record with a line feed.
    public mutating func endRecord() {
        bytes.append(0x0A)
        fieldsInRecord = 0
    }

    /// Appends every field of `record`, then ends it.
    public mutating func append(_ record: CSVRecord) {
        record.withFields { fields in
            for index in 0..<fields.count { appendField(fields[index]) }
        }
        endRecord()
    }

    /// Drops the encoded bytes, keeping their storage.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    private static func needsQuotes(_ field: UnsafeBufferPointer<UInt8>, isFirst: Bool) -> Bool {
        if isFirst && field.isEmpty { return true }
        if field.count >= 3, field[0] == 0xEF, field[1] == 0xBB, field[2] == 0xBF { return true }
        return field.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
    }
}
