/// Encoded rows copied out of the sorted runs into one buffer, to be inserted together: what
/// "batch" means everywhere in this package (a transaction is counted in rows, a statement in rows).
///
/// A batch is the unit handed from the merging thread to the SQLite thread: the runs' buffers
/// move on as soon as a row is copied, and the batch's bytes stay put until SQLite has them.
final class RowBatch {
    private var storage: UnsafeMutableRawPointer
    private var capacity: Int
    private(set) var used = 0
    private(set) var offsets: [Int] = []

    init(capacity: Int = 256 << 10) {
        self.capacity = capacity
        storage = .allocate(byteCount: capacity, alignment: 16)
        offsets.reserveCapacity(capacity / 32)
    }

    deinit {
        storage.deallocate()
    }

    var count: Int { offsets.count }
    var isFull: Bool { used >= capacity - (capacity >> 3) }

    /// Copies `row` in.
    @inline(__always)
    func append(_ row: EncodedRow) {
        let size = row.totalSize
        if used + size > capacity { grow(to: max(capacity * 2, used + size)) }
        (storage + used).copyMemory(from: row.base, byteCount: size)
        offsets.append(used)
        used += size
    }

    @inline(__always)
    func row(_ index: Int) -> EncodedRow {
        EncodedRow(UnsafeRawPointer(storage + offsets[index]))
    }

    func removeAll() {
        used = 0
        offsets.removeAll(keepingCapacity: true)
    }

    private func grow(to size: Int) {
        let bigger = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
        bigger.copyMemory(from: storage, byteCount: used)
        storage.deallocate()
        storage = bigger
        capacity = size
    }
}
