@testable import ProductCatalog

/// A ``ByteSource`` over bytes held in memory, for tests.
///
/// Each read hands out at most `maxReadSize` bytes, or follows `readSizes` (cycled), so a test
/// can force chunk boundaries anywhere. With `failAt`, the bytes before that offset are served
/// and the next read throws a ``ByteSourceError``, to test that source failures come through.
final class MemoryByteSource: ByteSource {
    let bytes: [UInt8]
    let name: String
    private(set) var bytesRead = 0
    var expectedBytes: Int? { bytes.count }
    /// How many times ``read(into:)`` was called.
    private(set) var readCount = 0

    private let readSizes: [Int]
    private let failAt: Int?

    /// Serves `bytes` at most `maxReadSize` bytes per read.
    convenience init(_ bytes: [UInt8], maxReadSize: Int = .max, failAt: Int? = nil, name: String = "memory") {
        precondition(maxReadSize > 0)
        self.init(bytes, readSizes: [maxReadSize], failAt: failAt, name: name)
    }

    /// Serves `bytes` in reads of at most `readSizes[0]`, then `readSizes[1]`, ..., cycling.
    init(_ bytes: [UInt8], readSizes: [Int], failAt: Int? = nil, name: String = "memory") {
        precondition(!readSizes.isEmpty && readSizes.allSatisfy { $0 > 0 })
        self.bytes = bytes
        self.readSizes = readSizes
        self.failAt = failAt
        self.name = name
    }

    /// Serves the UTF-8 bytes of `text`.
    convenience init(_ text: String, maxReadSize: Int = .max) {
        self.init(Array(text.utf8), maxReadSize: maxReadSize)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let limit = readSizes[readCount % readSizes.count]
        readCount += 1
        var n = min(buffer.count, limit, bytes.count - bytesRead)
        if let failAt {
            if bytesRead >= failAt { throw ByteSourceError(source: name, reason: "simulated failure") }
            n = min(n, failAt - bytesRead)
        }
        guard n > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + bytesRead, byteCount: n)
        }
        bytesRead += n
        return n
    }
}
