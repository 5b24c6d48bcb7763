/// Merges the sorted runs on a second core, handing batches of rows to the SQLite thread.
///
/// SQLite's inserts are the longest single cost of an import and must stay on one thread;
/// merging the runs and copying rows into batches happens beside them, three batches
/// taking turns.
final class RowBatchStream {
    private let full = BlockingQueue<RowBatch>(capacity: 2)
    private let empty = BlockingQueue<RowBatch>(capacity: 3)
    private let worker: Worker<Int>

    /// Starts merging `runs`; ``next()`` returns the batches in order.
    init(runs: [any SortedRun], policy: DuplicatePolicy) {
        let full = self.full
        let empty = self.empty
        for _ in 0..<2 { empty.put(RowBatch()) }
        worker = Worker {
            let merger = RowMerger(runs: runs, policy: policy)
            do {
                var batch = RowBatch()
                try merger.forEach { row in
                    batch.append(row)
                    if batch.isFull {
                        guard full.put(batch), let next = try empty.take() else { throw SortError.stopped }
                        batch = next
                    }
                }
                if batch.count > 0 { full.put(batch) }
                full.close()
            } catch {
                full.close(throwing: error)
                throw error
            }
            return merger.duplicates
        }
    }

    /// The next batch in productId order, nil after the last.
    func next() throws -> RowBatch? {
        try full.take()
    }

    /// Gives an inserted batch back for reuse.
    func recycle(_ batch: RowBatch) {
        batch.removeAll()
        empty.put(batch)
    }

    /// Waits for the merge to end and returns the duplicates it dropped between runs.
    func finish() throws -> Int {
        empty.close()
        return try worker.join()
    }

    /// Stops the merging thread after a failure elsewhere.
    func abandon() {
        empty.close()
        full.close()
        _ = try? worker.join()
    }
}
