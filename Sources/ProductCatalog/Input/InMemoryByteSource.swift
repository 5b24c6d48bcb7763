/// Bytes an app already holds, such as a file it downloaded itself, served as a ``ByteSource``.
public final class InMemoryByteSource: ByteSource {
    public let name: String
    public private(set) var bytesRead = 0
    public var expectedBytes: Int? { bytes.count }
    private let bytes: [UInt8]

    /// Serves `bytes` (an `Array`, `Data`, …), copied once.
    public init(_ bytes: some Sequence<UInt8>, name: String = "memory") {
        self.bytes = Array(bytes)
        self.name = name
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - bytesRead)
        guard count > 0, let target = buffer.baseAddress else { return 0 }
        bytes.withUnsafeBytes { source in
            target.copyMemory(from: source.baseAddress! + bytesRead, byteCount: count)
        }
        bytesRead += count
        return count
    }
}
