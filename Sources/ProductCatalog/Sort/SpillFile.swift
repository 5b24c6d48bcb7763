#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes spilled to an unlinked temporary file (gone when closed, even after a crash): written once
/// from the start, through a buffer, then read back once from the start, through the same buffer.
///
/// What is written is the caller's format; this keeps the file, the buffer and the bounds. The
/// sorted rows of a ``FileRun``, the sorted keys of ``SortedKeys`` and the lists of a
/// ``PostingSegment`` go through it. The buffer
/// is small (16 KiB) because a merge reads every spilled file at once: the real-language million
/// spills 143 segments of the word index, whose 64 KiB buffers were the import's largest
/// allocation (9 MB).
final class SpillFile {
    let path: String
    private let descriptor: Int32
    /// What a read says when the file ends inside a record.
    private let cutShort: String
    private var buffer: UnsafeMutableRawPointer
    private var capacity: Int
    /// The unread bytes are `start..<end` of ``buffer`` (while writing, `0..<end` is unwritten).
    private var start = 0
    private var end = 0
    private var fileOffset = 0
    private var fileSize = 0

    /// Creates the file at `path` (which must not exist) and unlinks it; `cutShort` is what a read
    /// says when the file ends inside a record.
    init(path: String, cutShort: String, capacity: Int = 16 << 10) throws {
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ByteSourceError(source: path, reason: FileByteSource.describe(errno: errno)) }
        unlink(path)
        self.path = path
        self.cutShort = cutShort
        descriptor = fd
        self.capacity = capacity
        buffer = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        buffer.deallocate()
        close(descriptor)
    }

    // MARK: Writing

    func append(_ bytes: UnsafeRawBufferPointer) throws {
        if end + bytes.count > capacity {
            try flush()
            if bytes.count > capacity { grow(to: bytes.count) }
        }
        if let base = bytes.baseAddress { (buffer + end).copyMemory(from: base, byteCount: bytes.count) }
        end += bytes.count
    }

    func append(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try append($0) }
    }

    func append(byte: UInt8) throws {
        if end == capacity { try flush() }
        buffer.storeBytes(of: byte, toByteOffset: end, as: UInt8.self)
        end += 1
    }

    /// Appends `value` as a ``VarInt``.
    @inline(__always)
    func append(varInt value: UInt64) throws {
        if end + 10 > capacity { try flush() }
        var value = value
        while value >= 0x80 {
            buffer.storeBytes(of: UInt8(truncatingIfNeeded: value) | 0x80, toByteOffset: end, as: UInt8.self)
            end += 1
            value >>= 7
        }
        buffer.storeBytes(of: UInt8(value), toByteOffset: end, as: UInt8.self)
        end += 1
    }

    /// Writes what is buffered; reads start from the beginning of the file afterwards.
    func finishWriting() throws {
        try flush()
        start = 0
        end = 0
        fileOffset = 0
    }

    private func flush() throws {
        try FileSystem.writeAll(descriptor, UnsafeRawBufferPointer(start: buffer, count: end), at: fileSize, path: path)
        fileSize += end
        end = 0
    }

    // MARK: Reading

    /// Whether every byte written was read.
    func isAtEnd() throws -> Bool {
        try ensure(1)
        return start == end
    }

    func readByte() throws -> UInt8 {
        try ensure(1)
        guard start < end else { throw ByteSourceError(source: path, reason: cutShort) }
        defer { start += 1 }
        return buffer.load(fromByteOffset: start, as: UInt8.self)
    }

    @inline(__always)
    func readVarInt() throws -> UInt64 {
        if end - start < 10 { try ensure(10) }
        var offset = 0
        guard let value = VarInt.read(UnsafeRawBufferPointer(start: buffer + start, count: end - start), at: &offset) else {
            throw ByteSourceError(source: path, reason: cutShort)
        }
        start += offset
        return value
    }

    /// Up to `count` next bytes (fewer at the end of the file), left unread; valid until the next
    /// read of this file.
    func peek(count: Int) throws -> UnsafeRawBufferPointer {
        try ensure(count)
        return UnsafeRawBufferPointer(start: buffer + start, count: min(count, end - start))
    }

    /// The next `count` bytes, valid until the next read of this file.
    func read(count: Int) throws -> UnsafeRawBufferPointer {
        try ensure(count)
        guard end - start >= count else { throw ByteSourceError(source: path, reason: cutShort) }
        defer { start += count }
        return UnsafeRawBufferPointer(start: buffer + start, count: count)
    }

    /// Makes sure `needed` bytes are buffered from `start` (fewer at the end of the file).
    private func ensure(_ needed: Int) throws {
        guard end - start < needed, fileOffset < fileSize else { return }
        let remaining = end - start
        if needed > capacity { grow(to: needed) }
        if remaining > 0, start > 0 { buffer.copyMemory(from: buffer + start, byteCount: remaining) }
        start = 0
        end = remaining
        while end < capacity, fileOffset < fileSize {
            let n = pread(descriptor, buffer + end, min(capacity - end, fileSize - fileOffset), off_t(fileOffset))
            if n < 0 {
                if errno == EINTR { continue }
                throw ByteSourceError(source: path, reason: FileByteSource.describe(errno: errno))
            }
            if n == 0 { break }
            end += n
            fileOffset += n
        }
    }

    /// A buffer of `size` bytes at least, holding the unread (or unwritten) bytes at its start.
    private func grow(to size: Int) {
        let bigger = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        bigger.copyMemory(from: buffer + start, byteCount: end - start)
        buffer.deallocate()
        buffer = bigger
        end -= start
        start = 0
        capacity = size
    }
}
