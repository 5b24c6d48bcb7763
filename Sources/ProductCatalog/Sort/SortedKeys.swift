#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte strings given in any order and read back sorted (byte by byte, a prefix first) in bounded
/// memory: kept in one buffer until it holds `budget` bytes, then sorted and spilled to an unlinked
/// file as a run; at the end the runs and what is left in memory are merged.
///
/// Duplicates are kept. The keys of ``SortLists`` go through it.
final class SortedKeys {
    private let pathPrefix: String
    private let budget: Int
    private var bytes: [UInt8] = []
    /// Where each key kept in memory starts in ``bytes`` and how long it is.
    private var spans: [(start: UInt32, count: UInt32)] = []
    private var runs: [KeyRun] = []

    /// Keeps up to `budget` bytes of keys in memory; spills runs to files named from `pathPrefix`.
    init(pathPrefix: String, budget: Int) {
        self.pathPrefix = pathPrefix
        self.budget = budget
        // Reserved once, so that growing never doubles the memory past the budget.
        bytes.reserveCapacity(budget)
        spans.reserveCapacity(max(16, budget / 32))
    }

    /// How many keys were spilled to runs so far (for tests).
    var spilledRuns: Int { runs.count }

    func add(_ key: UnsafeRawBufferPointer) throws {
        spans.append((UInt32(bytes.count), UInt32(key.count)))
        bytes.append(contentsOf: key)
        if bytes.count + key.count >= budget || spans.count == spans.capacity { try spill() }
    }

    func add(_ key: [UInt8]) throws {
        try key.withUnsafeBytes { try add($0) }
    }

    /// Calls `body` with every key added, in order; the keys are forgotten afterwards.
    func forEachSorted(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        sortMemory()
        var sources: [KeySource] = runs.map { KeySource.run($0) }
        if !spans.isEmpty { sources.append(.memory(index: 0)) }
        // Few runs (one per `budget` of keys): a linear pick of the smallest is cheap beside the copying.
        var current: [[UInt8]?] = try sources.indices.map { try next(&sources[$0]) }
        while true {
            var smallest: Int?
            for index in current.indices {
                guard let key = current[index] else { continue }
                if let best = smallest, let bestKey = current[best], !ByteOrder.precedes(key, bestKey) { continue }
                smallest = index
            }
            guard let index = smallest, let key = current[index] else { break }
            try key.withUnsafeBytes { try body($0) }
            current[index] = try next(&sources[index])
        }
        runs = []
        bytes = []
        spans = []
    }

    private enum KeySource {
        case run(KeyRun)
        case memory(index: Int)
    }

    private func next(_ source: inout KeySource) throws -> [UInt8]? {
        switch source {
        case .run(let run): return try run.next()
        case .memory(let index):
            guard index < spans.count else { return nil }
            source = .memory(index: index + 1)
            let span = spans[index]
            return Array(bytes[Int(span.start)..<Int(span.start + span.count)])
        }
    }

    private func sortMemory() {
        bytes.withUnsafeBytes { buffer in
            let base = buffer.baseAddress
            spans.sort { a, b in
                let shared = Int(min(a.count, b.count))
                let order = shared == 0 ? 0 : memcmp(base! + Int(a.start), base! + Int(b.start), shared)
                return order != 0 ? order < 0 : a.count < b.count
            }
        }
    }

    private func spill() throws {
        sortMemory()
        let run = try KeyRun(path: "\(pathPrefix).keys\(runs.count)")
        try bytes.withUnsafeBytes { buffer in
            for span in spans {
                try run.append(UnsafeRawBufferPointer(rebasing: buffer[Int(span.start)..<Int(span.start + span.count)]))
            }
        }
        try run.finishWriting()
        runs.append(run)
        bytes.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
    }
}

/// Sorted keys spilled to an unlinked file, each `varint(length) · bytes`, read back in order.
final class KeyRun {
    private let descriptor: Int32
    private let path: String
    private var buffer: [UInt8] = []
    private var start = 0
    private var fileOffset = 0
    private var fileSize = 0
    private static let bufferCapacity = 64 << 10

    init(path: String) throws {
        self.path = path
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw ByteSourceError(source: path, reason: FileByteSource.describe(errno: errno)) }
        unlink(path)
        descriptor = fd
        buffer.reserveCapacity(Self.bufferCapacity + 4096)
    }

    deinit {
        close(descriptor)
    }

    func append(_ key: UnsafeRawBufferPointer) throws {
        VarInt.append(UInt64(key.count), to: &buffer)
        buffer.append(contentsOf: key)
        if buffer.count >= Self.bufferCapacity { try flush() }
    }

    func finishWriting() throws {
        try flush()
        buffer = []
    }

    private func flush() throws {
        try buffer.withUnsafeBytes { try FileSystem.writeAll(descriptor, $0, at: fileSize, path: path) }
        fileSize += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// The next key, or nil at the end.
    func next() throws -> [UInt8]? {
        try ensure(10)
        guard start < buffer.count else { return nil }
        var offset = start
        let read: UInt64? = buffer.withUnsafeBytes { VarInt.read($0, at: &offset) }
        guard let length = read.map({ Int($0) }) else { throw ByteSourceError(source: path, reason: "a sorted run spilled by this import ends early") }
        start = offset
        try ensure(length)
        guard start + length <= buffer.count else { throw ByteSourceError(source: path, reason: "a sorted run spilled by this import ends early") }
        defer { start += length }
        return Array(buffer[start..<start + length])
    }

    /// Makes sure `needed` bytes are buffered from `start` (fewer at the end of the file).
    private func ensure(_ needed: Int) throws {
        guard buffer.count - start < needed, fileOffset < fileSize else { return }
        buffer.removeFirst(start)
        start = 0
        let old = buffer.count
        buffer += [UInt8](repeating: 0, count: max(needed - old, Self.bufferCapacity))
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
}
