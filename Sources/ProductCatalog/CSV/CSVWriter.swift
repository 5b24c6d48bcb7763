#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes RFC 4180 CSV to a file through a buffer, quoting only the fields that need it.
public final class CSVWriter {
    private let descriptor: Int32
    private let path: String
    private var buffer: [UInt8] = []
    private var fieldsInRecord = 0
    private static let flushThreshold = 64 << 10

    /// Creates (or truncates) the file at `path`.
    public init(path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ByteSourceError(source: path, reason: FileByteSource.describe(errno: errno)) }
        descriptor = fd
        self.path = path
        buffer.reserveCapacity(Self.flushThreshold + 4096)
    }

    deinit {
        try? flush()
        close(descriptor)
    }

    /// Appends one field to the current record.
    public func writeField(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        if fieldsInRecord > 0 { buffer.append(UInt8(ascii: ",")) }
        fieldsInRecord += 1
        let needsQuotes = bytes.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
            || (fieldsInRecord == 1 && bytes.isEmpty)
        if needsQuotes {
            buffer.append(UInt8(ascii: "\""))
            for byte in bytes {
                if byte == UInt8(ascii: "\"") { buffer.append(byte) }
                buffer.append(byte)
            }
            buffer.append(UInt8(ascii: "\""))
        } else {
            buffer.append(contentsOf: bytes)
        }
        if buffer.count >= Self.flushThreshold { try flush() }
    }

    /// Appends one text field to the current record.
    public func writeField(_ text: String) throws {
        var text = text
        try text.withUTF8 { try writeField($0) }
    }

    /// Ends the current record with a line break.
    public func endRecord() throws {
        buffer.append(0x0A)
        fieldsInRecord = 0
        if buffer.count >= Self.flushThreshold { try flush() }
    }

    /// Writes out everything buffered.
    public func flush() throws {
        var written = 0
        while written < buffer.count {
            let n = buffer[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ByteSourceError(source: path, reason: FileByteSource.describe(errno: errno))
            }
            written += n
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
