/// A single-byte text encoding that Excel and older systems export CSV in.
public enum TextEncoding: String, Sendable, CaseIterable {
    /// UTF-8, read as is (invalid bytes make a row's rejection, not a guess).
    case utf8
    /// ISO 8859-1: every byte is the Unicode scalar of the same value.
    case latin1
    /// Windows-1252: Latin-1 with printable characters (€, “, ”, …) in 0x80–0x9F.
    case windows1252 = "windows-1252"

    /// The Unicode scalar for `byte`; only called for bytes 0x80 and above.
    func scalar(for byte: UInt8) -> UInt32 {
        guard self == .windows1252, byte < 0xA0 else { return UInt32(byte) }
        return Self.windows1252High[Int(byte - 0x80)]
    }

    /// Windows-1252's 0x80–0x9F; the five unassigned bytes map to the C1 controls, as Windows does.
    private static let windows1252High: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]
}

/// Turns a single-byte encoded source into UTF-8 as it streams, so the reader sees only UTF-8.
///
/// Progress counts the source's own bytes, so percentages stay honest.
public final class TranscodingByteSource: ByteSource {
    private let inner: any ByteSource
    private let encoding: TextEncoding
    private var input: [UInt8]
    /// UTF-8 bytes made but not yet handed out.
    private var pending: [UInt8] = []
    private var pendingStart = 0

    /// Reads `inner` as `encoding`.
    public init(_ inner: any ByteSource, encoding: TextEncoding) {
        self.inner = inner
        self.encoding = encoding
        input = [UInt8](repeating: 0, count: 64 << 10)
    }

    public var name: String { inner.name }
    public var bytesRead: Int { inner.bytesRead }
    public var expectedBytes: Int? { inner.expectedBytes }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if pendingStart == pending.count {
            let n = try input.withUnsafeMutableBytes { try inner.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<min($0.count, max(buffer.count, 1))])) }
            guard n > 0 else { return 0 }
            pending.removeAll(keepingCapacity: true)
            pendingStart = 0
            for byte in input[0..<n] {
                if byte < 0x80 {
                    pending.append(byte)
                } else {
                    let scalar = encoding.scalar(for: byte)
                    if scalar < 0x800 {
                        pending.append(UInt8(0xC0 | (scalar >> 6)))
                        pending.append(UInt8(0x80 | (scalar & 0x3F)))
                    } else {
                        pending.append(UInt8(0xE0 | (scalar >> 12)))
                        pending.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
                        pending.append(UInt8(0x80 | (scalar & 0x3F)))
                    }
                }
            }
        }
        let count = min(buffer.count, pending.count - pendingStart)
        pending.withUnsafeBytes { bytes in
            buffer.baseAddress!.copyMemory(from: bytes.baseAddress! + pendingStart, byteCount: count)
        }
        pendingStart += count
        return count
    }
}
