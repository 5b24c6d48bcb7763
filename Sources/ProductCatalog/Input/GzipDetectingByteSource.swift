/// A source that looks at its first two bytes and decompresses it when they are gzip's magic number.
///
/// ``GzipByteSource/decompressingIfGzip(_:)`` makes one. Nothing is read until the first
/// ``read(into:)``, so opening an input never blocks (on a download, say) and every failure comes
/// from a read. When the input is not gzip, the two bytes looked at are served again first.
final class GzipDetectingByteSource: ByteSource {
    /// The input as it arrives, maybe compressed.
    let raw: any ByteSource

    private enum State {
        case undecided
        case plain(prefix: [UInt8], served: Int)
        case gzip(GzipByteSource)
    }

    private var state = State.undecided

    init(_ raw: any ByteSource) {
        self.raw = raw
    }

    var name: String { raw.name }
    /// Bytes read from the input as it arrives: compressed bytes when it is gzip.
    var bytesRead: Int { raw.bytesRead }
    var expectedBytes: Int? { raw.expectedBytes }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        switch state {
        case .gzip(let gzip):
            return try gzip.read(into: buffer)
        case .plain(let prefix, let served) where served == prefix.count:
            return try raw.read(into: buffer)
        case .plain(let prefix, let served):
            let n = min(buffer.count, prefix.count - served)
            prefix.withUnsafeBytes { bytes in
                UnsafeMutableRawBufferPointer(rebasing: buffer[0..<n])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[served..<(served + n)]))
            }
            state = .plain(prefix: prefix, served: served + n)
            return n
        case .undecided:
            let head = try readHead()
            if head.elementsEqual(GzipByteSource.magic) {
                state = .gzip(try GzipByteSource(source: raw, alreadyRead: head))
            } else {
                state = .plain(prefix: head, served: 0)
            }
            return try read(into: buffer)
        }
    }

    /// Reads up to two bytes, fewer only when the input is shorter.
    private func readHead() throws -> [UInt8] {
        var head: [UInt8] = [0, 0]
        var count = 0
        while count < head.count {
            let n = try head.withUnsafeMutableBytes { try raw.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[count...])) }
            if n == 0 { break }
            count += n
        }
        return Array(head[..<count])
    }
}
