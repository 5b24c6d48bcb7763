/// Merges sorted runs into one stream in catalog order, one row per productId.
///
/// Each run is already free of duplicates (``RowArena/removeDuplicates(_:)``), and runs hold
/// consecutive stretches of the input, so rows with one key meet here in line order. The heap
/// holds plain values (a row's address and key prefix, and its run's number), so sifting
/// touches no reference counts; a run is asked for its next row once per row it gives.
final class RowMerger {
    private struct Head {
        var prefix: KeyPrefix
        var row: EncodedRow
        var run: Int
    }

    private let runs: [any SortedRun]
    private var heap: [Head]
    private let policy: DuplicatePolicy
    /// Rows dropped here because another run had the same productId.
    private(set) var duplicates = 0

    init(runs: [any SortedRun], policy: DuplicatePolicy) {
        self.runs = runs
        self.policy = policy
        heap = runs.indices.map { Head(prefix: runs[$0].currentPrefix, row: runs[$0].current, run: $0) }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) {
            Self.siftDown(&heap, from: index)
        }
    }

    /// Calls `body` with each row in order; the row is valid only during the call.
    func forEach(_ body: (EncodedRow) throws -> Void) throws {
        var heap = self.heap
        defer { self.heap = heap }
        while !heap.isEmpty {
            var top = heap[0]
            // Settle the other runs' rows with the same productId before writing this one.
            while let other = Self.secondSmallest(heap), Self.sameKey(top, heap[other]) {
                duplicates += 1
                switch policy {
                case .fail:
                    throw SortError.duplicate(top.row, heap[other].row)
                case .first:
                    try advance(&heap, at: other)
                case .last:
                    try advance(&heap, at: 0)
                    top = heap[0]
                }
            }
            try body(top.row)
            try advance(&heap, at: 0)
        }
    }

    /// Moves run `heap[index]` to its next row, or drops it when it has none, and restores the heap.
    private func advance(_ heap: inout [Head], at index: Int) throws {
        let run = runs[heap[index].run]
        if try run.advance() {
            heap[index].row = run.current
            heap[index].prefix = run.currentPrefix
        } else {
            heap.swapAt(index, heap.count - 1)
            heap.removeLast()
            guard index < heap.count else { return }
        }
        Self.siftUp(&heap, from: index)
        Self.siftDown(&heap, from: index)
    }

    /// The position of the smallest head after the top: one of the top's children.
    @inline(__always)
    private static func secondSmallest(_ heap: [Head]) -> Int? {
        switch heap.count {
        case 0, 1: return nil
        case 2: return 1
        default: return precedes(heap[2], heap[1]) ? 2 : 1
        }
    }

    @inline(__always)
    private static func sameKey(_ a: Head, _ b: Head) -> Bool {
        a.prefix == b.prefix && EncodedRow.compareKeys(a.row.key, b.row.key) == 0
    }

    @inline(__always)
    private static func precedes(_ a: Head, _ b: Head) -> Bool {
        EncodedRow.precedes(a.row, a.prefix, b.row, b.prefix)
    }

    private static func siftUp(_ heap: inout [Head], from index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(heap[child], heap[parent]) else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private static func siftDown(_ heap: inout [Head], from index: Int) {
        var parent = index
        let count = heap.count
        while true {
            let left = 2 * parent + 1
            guard left < count else { return }
            var smallest = left
            if left + 1 < count, precedes(heap[left + 1], heap[left]) { smallest = left + 1 }
            guard precedes(heap[smallest], heap[parent]) else { return }
            heap.swapAt(smallest, parent)
            parent = smallest
        }
    }
}
