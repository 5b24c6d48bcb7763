#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A sequence of encoded rows in catalog order, read one at a time by ``RowMerger``.
protocol SortedRun: AnyObject {
    /// The row under the cursor; valid until ``advance()``.
    var current: EncodedRow { get }
    /// ``current``'s key prefix.
    var currentPrefix: KeyPrefix { get }
    /// Moves to the next row; false at the end.
    func advance() throws -> Bool
}

/// The last run, still in the arena: merged straight from memory, never written out.
final class MemoryRun: SortedRun {
    private let arena: RowArena
    private var index = 0

    /// A run over the sorted arena; it must not be empty.
    init(arena: RowArena) {
        precondition(!arena.isEmpty)
        self.arena = arena
    }

    var current: EncodedRow { arena.row(index) }
    var currentPrefix: KeyPrefix { arena.entries[index].prefix }

    func advance() throws -> Bool {
        index += 1
        return index < arena.entries.count
    }
}

/// A sorted run spilled to an unlinked temporary file: gone when closed, even after a crash.
final class FileRun: SortedRun {
    private let descriptor: Int32
    private let path: String
    private var buffer: UnsafeMutableRawPointer
    private var bufferCapacity: Int
    private var start = 0
    private var end = 0
    private var fileOffset = 0
    private var fileSize = 0
    private(set) var currentPrefix = KeyPrefix(high: 0, low: 0)

    /// Writes the arena's rows, in entry order, to a new file next to `pathPrefix`.
    convenience init(writing arena: RowArena, pathPrefix: String, number: Int, bufferCapacity: Int = 64 << 10) throws {
        try self.init(path: "\(pathPrefix).run\(number)", bufferCapacity: bufferCapacity) { append in
            for index in arena.entries.indices { try append(arena.row(index)) }
        }
    }

    /// Writes the rows `merger` gives, in order, to a new file next to `pathPrefix`: one run in
    /// place of the runs it merges.
    convenience init(merging merger: RowMerger, pathPrefix: String, number: Int, bufferCapacity: Int = 64 << 10) throws {
        try self.init(path: "\(pathPrefix).run\(number)", bufferCapacity: bufferCapacity) { append in
            try merger.forEach(append)
        }
    }

    /// Creates the file at `path`, unlinks it, writes the rows `rows` hands to its argument, and
    /// reads the first one back.
    private init(path: String, bufferCapacity: Int, rows: ((EncodedRow) throws -> Void) throws -> Void) throws {
        self.path = path
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ByteSourceError(source: path, reason: FileByteSource.describe(errno: errno)) }
        unlink(path)
        descriptor = fd
        self.bufferCapacity = bufferCapacity
        buffer = .allocate(byteCount: bufferCapacity, alignment: 16)
        try rows { row in
            let size = row.totalSize
            if end + size > self.bufferCapacity { try flush() }
            if size > self.bufferCapacity { try grow(to: size) }
            (buffer + end).copyMemory(from: row.base, byteCount: size)
            end += size
        }
        try flush()
        guard try fill(), try load() else { throw ByteSourceError(source: path, reason: "an empty run was written") }
    }

    deinit {
        buffer.deallocate()
        close(descriptor)
    }

    var current: EncodedRow { EncodedRow(UnsafeRawPointer(buffer + start)) }

    func advance() throws -> Bool {
        start += current.totalSize
        return try load()
    }

    /// Makes sure a whole row starts at `start`, refilling the buffer as needed.
    private func load() throws -> Bool {
        if end - start < 4, !(try fill()) { return false }
        let size = current.totalSize
        if end - start < size {
            if size > bufferCapacity { try grow(to: size) }
            guard try fill(), end - start >= size else {
                throw ByteSourceError(source: path, reason: "a spilled run ends inside a row")
            }
        }
        currentPrefix = current.keyPrefix
        return true
    }

    /// Moves the unread bytes to the front and reads more; false when nothing is left.
    private func fill() throws -> Bool {
        let remaining = end - start
        if remaining > 0, start > 0 { buffer.copyMemory(from: buffer + start, byteCount: remaining) }
        start = 0
        end = remaining
        while end < bufferCapacity, fileOffset < fileSize {
            let n = pread(descriptor, buffer + end, bufferCapacity - end, off_t(fileOffset))
            if n < 0 {
                if errno == EINTR { continue }
                throw ByteSourceError(source: path, reason: FileByteSource.describe(errno: errno))
            }
            if n == 0 { break }
            end += n
            fileOffset += n
        }
        return end > 0
    }

    private func flush() throws {
        try FileSystem.writeAll(descriptor, UnsafeRawBufferPointer(start: buffer, count: end), at: fileSize, path: path)
        fileSize += end
        end = 0
    }

    private func grow(to size: Int) throws {
        let bigger = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        bigger.copyMemory(from: buffer + start, byteCount: end - start)
        buffer.deallocate()
        buffer = bigger
        end -= start
        start = 0
        bufferCapacity = size
    }
}
