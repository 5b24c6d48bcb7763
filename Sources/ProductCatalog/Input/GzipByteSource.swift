import CZlib

/// The decompressed bytes of a gzip stream, inflated as they are read from another source.
///
/// ```swift
/// let source = GzipByteSource.decompressingIfGzip(try FileByteSource(path: "feed.csv.gz"))
/// let reader = CSVReader(source: source)
/// ```
///
/// gzip is recognised by its magic bytes (`1f 8b`), never by a file name, so a pipe or a download
/// is decompressed just like a file. Members written one after another (`cat a.gz b.gz`, or
/// `gzip -c` run twice into one file) decompress to their concatenation, as `gzip -d` does.
///
/// ``bytesRead`` and ``expectedBytes`` are the compressed source's: progress is compressed bytes
/// read over the compressed size, so its percentage stays honest. A stream that ends early, has a
/// damaged block or a wrong checksum throws a ``ByteSourceError`` that says so and where.
/// See [RFC 1952](https://www.rfc-editor.org/rfc/rfc1952) for the format.
public final class GzipByteSource: ByteSource {
    /// The source of the compressed bytes.
    public let compressed: any ByteSource
    /// Decompressed bytes handed out so far.
    public private(set) var bytesDecompressed = 0
    /// gzip members decompressed to their end so far.
    public private(set) var membersFinished = 0

    public var name: String { compressed.name }
    /// Compressed bytes read from ``compressed``.
    public var bytesRead: Int { compressed.bytesRead }
    /// The compressed size, when ``compressed`` knows it.
    public var expectedBytes: Int? { compressed.expectedBytes }

    private let stream: UnsafeMutablePointer<z_stream>
    private let input: UnsafeMutableRawBufferPointer
    private var inputEnded = false
    /// True from the first byte of a member until its end: running out of input then is truncation.
    private var inMember = false
    private var finished = false

    /// Decompresses `source`, which must be gzip; reading throws when it is not.
    ///
    /// Use ``decompressingIfGzip(_:)`` to decompress only what is gzip.
    public convenience init(decompressing source: any ByteSource, inputBufferSize: Int = 1 << 16) throws {
        try self.init(source: source, alreadyRead: [], inputBufferSize: inputBufferSize)
    }

    /// `alreadyRead` holds the first bytes of `source`, read from it before (to look for the magic bytes).
    init(source: any ByteSource, alreadyRead: some Collection<UInt8>, inputBufferSize: Int = 1 << 16) throws {
        precondition(inputBufferSize > 0)
        compressed = source
        input = .allocate(byteCount: max(inputBufferSize, alreadyRead.count), alignment: 16)
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = czlib_inflate_init_gzip(stream)
        guard status == Z_OK else {
            stream.deallocate()
            input.deallocate()
            throw ByteSourceError(source: source.name, reason: "cannot start gzip decompression (zlib error \(status))")
        }
        if !alreadyRead.isEmpty {
            UnsafeMutableRawBufferPointer(rebasing: input[0..<alreadyRead.count]).copyBytes(from: alreadyRead)
            stream.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_in = uInt(alreadyRead.count)
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        input.deallocate()
    }

    /// gzip's magic number, the first two bytes of every member.
    static let magic: [UInt8] = [0x1F, 0x8B]

    /// `source` decompressed when its first two bytes are gzip's magic number; otherwise its bytes unchanged.
    ///
    /// Nothing is read until the first read of the source returned, which decides.
    public static func decompressingIfGzip(_ source: any ByteSource) -> any ByteSource {
        GzipDetectingByteSource(source)
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0, !finished else { return 0 }
        let capacity = uInt(clamping: buffer.count)
        stream.pointee.next_out = base.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = capacity
        while true {
            if stream.pointee.avail_in == 0 && !inputEnded {
                let n = try compressed.read(into: input)
                if n == 0 {
                    inputEnded = true
                } else {
                    stream.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
                    stream.pointee.avail_in = uInt(n)
                }
            }
            if stream.pointee.avail_in == 0 && inputEnded {
                if inMember || membersFinished == 0 { throw truncated() }
                finished = true
                return 0
            }
            inMember = true
            let status = inflate(stream, Z_NO_FLUSH)
            let produced = Int(capacity - stream.pointee.avail_out)
            bytesDecompressed += produced
            switch status {
            case Z_STREAM_END:
                // One member done; what follows, if anything, must be another member.
                inMember = false
                membersFinished += 1
                inflateReset(stream)
            case Z_OK, Z_BUF_ERROR:
                // Z_BUF_ERROR: no progress was possible because the input ran out; read more.
                break
            case Z_MEM_ERROR:
                throw ByteSourceError(source: name, reason: "out of memory while decompressing gzip")
            default:
                throw corrupt()
            }
            if produced > 0 { return produced }
        }
    }

    /// The offset in the compressed input of the next byte zlib would read.
    private var compressedOffset: Int { compressed.bytesRead - Int(stream.pointee.avail_in) }

    private func truncated() -> ByteSourceError {
        let offset = compressedOffset
        let reason = offset == 0
            ? "the gzip data is empty"
            : "the gzip data ends early, after \(offset) compressed bytes: the file is truncated (an interrupted download or copy?)"
        return ByteSourceError(source: name, reason: reason)
    }

    private func corrupt() -> ByteSourceError {
        let detail = stream.pointee.msg.map { String(cString: $0) } ?? "invalid data"
        let reason = membersFinished > 0 && bytesDecompressedInMember == 0
            ? "the data after gzip member \(membersFinished) is not gzip (\(detail)) at compressed byte \(compressedOffset)"
            : "the gzip data is corrupt (\(detail)) at compressed byte \(compressedOffset)"
        return ByteSourceError(source: name, reason: reason)
    }

    /// Decompressed bytes of the member being read; zlib counts them in `total_out` since the last reset.
    private var bytesDecompressedInMember: Int { Int(stream.pointee.total_out) }
}
