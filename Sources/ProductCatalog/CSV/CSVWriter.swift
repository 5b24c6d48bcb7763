#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes RFC 4180 CSV to a file through a ``CSVEncoder`` buffer.
public final class CSVWriter {
    private let descriptor: Int32
    private let path: String
    private var encoder = CSVEncoder()
    private static let flushThreshold = 64 << 10

    /// Creates (or truncates) the file at `path`.
    public init(path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ByteSourceError(source: path, reason: FileByteSource.describe(errno: errno)) }
        descriptor = fd
        self.path = path
        encoder.bytes.reserveCapacity(Self.flushThreshold + 4096)
    }

    deinit {
        try? flush()
        close(descriptor)
    }

    /// Appends one field to the current record.
    public func writeField(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        encoder.appendField(bytes)
        if encoder.bytes.count >= Self.flushThreshold { try flush() }
    }

    /// Appends one text field to the current record.
    public func writeField(_ text: String) throws {
        var text = text
        try text.withUTF8 { try writeField($0) }
    }

    /// Ends the current record with a line break.
    public func endRecord() throws {
        encoder.endRecord()
        if encoder.bytes.count >= Self.flushThreshold { try flush() }
    }

    /// Writes out everything buffered.
    public func flush() throws {
        try encoder.bytes.withUnsafeBytes { try FileSystem.writeAll(descriptor, $0, path: path) }
        encoder.removeAll()
    }
}
