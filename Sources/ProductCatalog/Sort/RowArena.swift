/// A fixed block of memory that holds encoded rows back to back, and the order to sort them in.
///
/// One arena is filled, sorted and written out as a run, then reused: the import's memory
/// stays the arena's size whatever the input's.
final class RowArena: EncodedRowStorage {
    /// Where a row sits, with its key's first bytes for quick comparisons.
    struct Entry {
        var prefix: KeyPrefix
        var offset: Int
    }

    let capacity: Int
    private let storage: UnsafeMutableRawPointer
    private(set) var used = 0
    private(set) var entries: [Entry] = []

    init(capacity: Int) {
        self.capacity = capacity
        storage = .allocate(byteCount: capacity, alignment: 16)
    }

    deinit {
        storage.deallocate()
    }

    var isEmpty: Bool { entries.isEmpty }

    /// Room for `size` more bytes, or nil when the arena is too full.
    @inline(__always)
    func reserve(_ size: Int) -> UnsafeMutableRawPointer? {
        guard used + size <= capacity else { return nil }
        return storage + used
    }

    /// Records the row just written at the reserved place.
    @inline(__always)
    func commit() {
        let row = EncodedRow(UnsafeRawPointer(storage + used))
        entries.append(Entry(prefix: row.keyPrefix, offset: used))
        used += row.totalSize
    }

    /// The row at position `index` of ``entries``.
    @inline(__always)
    func row(_ index: Int) -> EncodedRow {
        EncodedRow(UnsafeRawPointer(storage + entries[index].offset))
    }

    /// Sorts the rows by productId (`NOCASE`), then by line.
    func sort() {
        let base = UnsafeRawPointer(storage)
        entries.sort { a, b in
            EncodedRow.precedes(EncodedRow(base + a.offset), a.prefix, EncodedRow(base + b.offset), b.prefix)
        }
    }

    /// Empties the arena for the next run.
    func removeAll() {
        used = 0
        entries.removeAll(keepingCapacity: true)
    }
}

extension RowArena {
    /// Keeps one row per productId in the sorted arena, as `policy` says; returns how many it dropped.
    ///
    /// Rows with one key are adjacent after ``sort()``, earliest line first.
    func removeDuplicates(_ policy: DuplicatePolicy) throws -> Int {
        guard entries.count > 1 else { return 0 }
        var kept = 0
        for index in 1..<entries.count {
            let previous = row(kept)
            let next = row(index)
            if entries[kept].prefix == entries[index].prefix, EncodedRow.compareKeys(previous.key, next.key) == 0 {
                switch policy {
                case .first: continue
                case .last: entries[kept] = entries[index]
                case .fail: throw SortError.duplicate(previous, next)
                }
            } else {
                kept += 1
                entries[kept] = entries[index]
            }
        }
        let dropped = entries.count - (kept + 1)
        entries.removeLast(dropped)
        return dropped
    }
}
