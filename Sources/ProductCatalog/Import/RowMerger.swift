/// Merges sorted runs into one stream in catalog order, one row per productId.
///
/// Each run is already free of duplicates (``RowArena/removeDuplicates(_:)``), and runs hold
/// consecutive stretches of the input, so rows with one key meet here in line order. A binary
/// heap of run cursors keeps the merge at O(log runs) per row.
final class RowMerger {
    private var heap: [any SortedRun]
    private let policy: DuplicatePolicy
    /// Rows dropped here because another run had the same productId.
    private(set) var duplicates = 0

    init(runs: [any SortedRun], policy: DuplicatePolicy) {
        self.policy = policy
        heap = []
        heap.reserveCapacity(runs.count)
        for run in runs { push(run) }
    }

    /// Calls `body` with each row in order; the row is valid only during the call.
    func forEach(_ body: (EncodedRow) throws -> Void) throws {
        while var run = pop() {
            // Settle every other run's row with the same productId before writing this one.
            while let other = heap.first, Self.sameKey(run, other) {
                duplicates += 1
                switch policy {
                case .fail:
                    throw ImportError.duplicate(run.current, other.current)
                case .first:
                    let dropped = pop()!
                    if try dropped.advance() { push(dropped) }
                case .last:
                    if try run.advance() { push(run) }
                    run = pop()!
                }
            }
            try body(run.current)
            if try run.advance() { push(run) }
        }
    }

    private static func sameKey(_ a: any SortedRun, _ b: any SortedRun) -> Bool {
        a.currentPrefix == b.currentPrefix && EncodedRow.compareKeys(a.current.key, b.current.key) == 0
    }

    @inline(__always)
    private static func precedes(_ a: any SortedRun, _ b: any SortedRun) -> Bool {
        EncodedRow.precedes(a.current, a.currentPrefix, b.current, b.currentPrefix)
    }

    private func push(_ run: any SortedRun) {
        heap.append(run)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.precedes(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func pop() -> (any SortedRun)? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { break }
            var smallest = left
            if left + 1 < heap.count, Self.precedes(heap[left + 1], heap[left]) { smallest = left + 1 }
            guard Self.precedes(heap[smallest], heap[parent]) else { break }
            heap.swapAt(smallest, parent)
            parent = smallest
        }
        return top
    }
}
