#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The lists of one stretch of an index build's products, spilled to an unlinked file so that the
/// build's memory stays bounded whatever the catalog's size (see ``WordIndexBuild``); merged with
/// the other stretches' at the end (``PostingSegment/merge(_:into:)``).
///
/// A record a list, terms then starts, each in byte order of their names:
/// `kind (0 term, 1 start) · varint(name's length) · name · varint(count) · postings`, a posting
/// `varint(row << 3 | fields)` absolute for the first, the gap from the one before after.
@_spi(WordIndex) public final class PostingSegment {
    private let descriptor: Int32
    private let path: String
    private var buffer: [UInt8] = []
    private var start = 0
    private var fileOffset = 0
    private var fileSize = 0
    private static let bufferCapacity = 64 << 10

    /// The current record's kind and name; nil once every record is read.
    private(set) var key: (isStart: Bool, name: [UInt8])?
    /// The current record's posting count, and where its postings start in ``buffer``.
    private var count = 0

    /// Writes `builder`'s lists to a new unlinked file at `path`, and reads its first record back.
    public init(writing builder: PostingsBuilder, path: String) throws {
        self.path = path
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ByteSourceError(source: path, reason: FileByteSource.describe(errno: errno)) }
        unlink(path)
        descriptor = fd
        var out: [UInt8] = []
        out.reserveCapacity(Self.bufferCapacity + 4096)
        try builder.forEachList { isStart, name, values in
            out.append(isStart ? 1 : 0)
            VarInt.append(UInt64(name.count), to: &out)
            out += name
            VarInt.append(UInt64(values.count), to: &out)
            var previous: UInt64 = 0
            for (index, value) in values.enumerated() {
                let row = value >> Posting.fieldBits
                VarInt.append(index == 0 ? value : (row - previous) << Posting.fieldBits | value & 7, to: &out)
                previous = row
                if out.count >= Self.bufferCapacity { try flush(&out) }
            }
        }
        try flush(&out)
        try readHeader()
    }

    deinit {
        close(descriptor)
    }

    private func flush(_ out: inout [UInt8]) throws {
        try out.withUnsafeBytes { try FileSystem.writeAll(descriptor, $0, at: fileSize, path: path) }
        fileSize += out.count
        out.removeAll(keepingCapacity: true)
    }

    /// Makes sure `needed` bytes are buffered from `start` (fewer at the end of the file).
    private func ensure(_ needed: Int) throws {
        guard buffer.count - start < needed, fileOffset < fileSize else { return }
        buffer.removeFirst(start)
        start = 0
        let wanted = max(needed - buffer.count, Self.bufferCapacity)
        let old = buffer.count
        buffer += [UInt8](repeating: 0, count: wanted)
        var filled = old
        while filled < buffer.count, fileOffset < fileSize {
            let n = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, $0.count - filled, off_t(fileOffset)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ByteSourceError(source: path, reason: FileByteSource.describe(errno: errno))
            }
            if n == 0 { break }
            filled += n
            fileOffset += n
        }
        buffer.removeLast(buffer.count - filled)
    }

    /// Reads a varint at `start` (buffering as needed).
    private func readVarInt() throws -> UInt64 {
        try ensure(10)
        var offset = start
        guard let value = buffer.withUnsafeBytes({ VarInt.read($0, at: &offset) }) else {
            throw ByteSourceError(source: path, reason: "a spilled segment of the word index is cut short")
        }
        start = offset
        return value
    }

    private func readHeader() throws {
        try ensure(1)
        guard start < buffer.count else {
            key = nil
            return
        }
        let kind = buffer[start]
        start += 1
        let length = Int(try readVarInt())
        try ensure(length)
        guard buffer.count - start >= length else { throw ByteSourceError(source: path, reason: "a spilled segment of the word index is cut short") }
        let name = Array(buffer[start..<start + length])
        start += length
        count = Int(try readVarInt())
        key = (kind == 1, name)
    }

    /// Appends the current record's packed postings to `values` and moves to the next record.
    func takePostings(into values: inout [UInt64]) throws {
        var previous: UInt64 = 0
        for index in 0..<count {
            let value = try readVarInt()
            let row = index == 0 ? value >> Posting.fieldBits : previous + (value >> Posting.fieldBits)
            values.append(row << Posting.fieldBits | value & 7)
            previous = row
        }
        try readHeader()
    }

    /// Merges `segments` (each a stretch of the catalog's products) into one index: every list,
    /// terms then starts, in byte order, its postings from every segment in row order, written
    /// into `writer`; returns the term list that finds them. The segments wait in a heap by their
    /// current record's name, and a list held by several has their postings merged pairwise.
    public static func merge(_ segments: [PostingSegment], into writer: inout PostingBlocks.Writer) throws -> TermList {
        var lists = TermList.Builder()
        var termCount = 0
        var heap = SegmentHeap(segments.indices.filter { segments[$0].key != nil }, segments: segments)
        var parts: [[UInt64]] = []
        while let top = heap.top {
            let key = segments[top].key!
            parts.removeAll(keepingCapacity: true)
            while let index = heap.top, let current = segments[index].key, current.isStart == key.isStart, current.name == key.name {
                var part: [UInt64] = []
                try segments[index].takePostings(into: &part)
                parts.append(part)
                heap.replaceTop()
            }
            // Each segment's postings in row order; their products are others', so rows never repeat.
            while parts.count > 1 {
                var merged: [[UInt64]] = []
                for pair in stride(from: 0, to: parts.count, by: 2) {
                    merged.append(pair + 1 < parts.count ? Self.merged(parts[pair], parts[pair + 1]) : parts[pair])
                }
                parts = merged
            }
            if !key.isStart { termCount += 1 }
            try key.name.withUnsafeBufferPointer { try lists.add(name: $0, values: parts[0], to: &writer) }
        }
        return lists.termList(termCount: termCount)
    }

    /// Two sorted arrays as one.
    private static func merged(_ a: [UInt64], _ b: [UInt64]) -> [UInt64] {
        var result: [UInt64] = []
        result.reserveCapacity(a.count + b.count)
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if a[i] < b[j] { result.append(a[i]); i += 1 } else { result.append(b[j]); j += 1 }
        }
        result += a[i...]
        result += b[j...]
        return result
    }

    /// Segments by their current record's key, the smallest on top.
    private struct SegmentHeap {
        private var items: [Int]
        private let segments: [PostingSegment]

        init(_ items: [Int], segments: [PostingSegment]) {
            self.items = items
            self.segments = segments
            for index in stride(from: items.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
        }

        var top: Int? { items.first }

        /// Restores the order after the top segment moved to its next record (drops it at its end).
        mutating func replaceTop() {
            if segments[items[0]].key == nil {
                items.swapAt(0, items.count - 1)
                items.removeLast()
            }
            if !items.isEmpty { siftDown(0) }
        }

        private func less(_ a: Int, _ b: Int) -> Bool {
            let x = segments[a].key!, y = segments[b].key!
            if x.isStart != y.isStart { return !x.isStart }
            return x.name.lexicographicallyPrecedes(y.name)
        }

        private mutating func siftDown(_ start: Int) {
            var index = start
            while true {
                let left = 2 * index + 1, right = left + 1
                var smallest = index
                if left < items.count, less(items[left], items[smallest]) { smallest = left }
                if right < items.count, less(items[right], items[smallest]) { smallest = right }
                if smallest == index { return }
                items.swapAt(index, smallest)
                index = smallest
            }
        }
    }
}
