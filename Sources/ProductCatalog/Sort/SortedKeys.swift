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
    /// Sorted runs spilled, each key `varint(length) · bytes`.
    private var runs: [SpillFile] = []

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

    /// Calls `body` with every key added, in order; the keys are forgotten afterwards. A key's
    /// bytes are valid during the call only.
    func forEachSorted(_ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        sortMemory()
        try bytes.withUnsafeBytes { memory in
            // Each source's current key: the runs', then the keys in memory; nil once one is done.
            var memoryIndex = 0
            func next(_ source: Int) throws -> UnsafeRawBufferPointer? {
                if source < runs.count {
                    let run = runs[source]
                    guard !(try run.isAtEnd()) else { return nil }
                    return try run.read(count: Int(try run.readVarInt()))
                }
                guard memoryIndex < spans.count else { return nil }
                defer { memoryIndex += 1 }
                let span = spans[memoryIndex]
                return UnsafeRawBufferPointer(rebasing: memory[Int(span.start)..<Int(span.start + span.count)])
            }
            var current = try (0...runs.count).map(next)
            // Few runs (one per `budget` of keys): a linear pick of the smallest is cheap beside the copying.
            while true {
                var smallest: Int?
                for index in current.indices {
                    guard let key = current[index] else { continue }
                    if let best = smallest, !ByteOrder.precedes(key, current[best]!) { continue }
                    smallest = index
                }
                guard let index = smallest else { break }
                try body(current[index]!)
                current[index] = try next(index)
            }
        }
        runs = []
        bytes = []
        spans = []
    }

    private func sortMemory() {
        bytes.withUnsafeBytes { buffer in
            spans.sort { a, b in
                ByteOrder.precedes(UnsafeRawBufferPointer(rebasing: buffer[Int(a.start)..<Int(a.start + a.count)]),
                                   UnsafeRawBufferPointer(rebasing: buffer[Int(b.start)..<Int(b.start + b.count)]))
            }
        }
    }

    private func spill() throws {
        sortMemory()
        let run = try SpillFile(path: "\(pathPrefix).keys\(runs.count)", cutShort: "a sorted run spilled by this import ends early")
        try bytes.withUnsafeBytes { buffer in
            for span in spans {
                try run.append(varInt: UInt64(span.count))
                try run.append(UnsafeRawBufferPointer(rebasing: buffer[Int(span.start)..<Int(span.start + span.count)]))
            }
        }
        try run.finishWriting()
        runs.append(run)
        bytes.removeAll(keepingCapacity: true)
        spans.removeAll(keepingCapacity: true)
    }
}
