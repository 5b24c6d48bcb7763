/// Sorts full arenas into runs on a second core while the reader fills the next arena.
///
/// Two arenas take turns: the reader encodes rows into one while this sorts the other, drops
/// its duplicates and spills it to a ``FileRun``. The last arena is sorted by the caller and
/// kept in memory as a ``MemoryRun``: a file that fits in one arena is never written to disk.
///
/// Each open run holds a file and a read buffer, so their number is bounded: whenever the last
/// `mergeWidth` runs are of one generation (spilled arenas, or merges of as many runs of the
/// generation before), they are merged into one while the reader goes on. Runs hold consecutive
/// stretches of the input and rows with one key are settled in line order, so these merges keep
/// the rows and count the duplicates the final merge would. A file of any size leaves at most
/// `mergeWidth - 1` runs of each generation: at the default 128, with 8 MiB arenas, 127 runs
/// stand for 1 GB of rows and 127 of the next generation for 127 GB.
final class RunSorter {
    /// How many runs are merged into one while the sort goes on, unless the caller says otherwise.
    static let mergeWidth = 128

    private let full = BlockingQueue<RowArena>(capacity: 1)
    private let empty = BlockingQueue<RowArena>(capacity: 2)
    private let worker: Worker<(runs: [any SortedRun], duplicates: Int)>
    private let policy: DuplicatePolicy

    /// Starts the sorting thread; `pathPrefix` names the (unlinked) run files.
    init(arenaCapacity: Int, policy: DuplicatePolicy, pathPrefix: String, mergeWidth: Int = RunSorter.mergeWidth) {
        precondition(mergeWidth >= 2)
        self.policy = policy
        let full = self.full
        let empty = self.empty
        empty.put(RowArena(capacity: arenaCapacity))
        worker = Worker {
            // Each run with how many merges made it (0 for a spilled arena): never more than the runs before it.
            var runs: [(run: FileRun, merges: Int)] = []
            var written = 0
            var duplicates = 0
            do {
                while let arena = try full.take() {
                    arena.sort()
                    duplicates += try arena.removeDuplicates(policy)
                    runs.append((try FileRun(writing: arena, pathPrefix: pathPrefix, number: written), 0))
                    written += 1
                    arena.removeAll()
                    empty.put(arena)
                    while runs.count >= mergeWidth, runs[runs.count - mergeWidth].merges == runs[runs.count - 1].merges {
                        let merger = RowMerger(runs: runs.suffix(mergeWidth).map(\.run), policy: policy)
                        let merged = try FileRun(merging: merger, pathPrefix: pathPrefix, number: written)
                        written += 1
                        duplicates += merger.duplicates
                        let merges = runs[runs.count - 1].merges + 1
                        runs.removeLast(mergeWidth)
                        runs.append((merged, merges))
                    }
                }
            } catch {
                empty.close(throwing: error)
                throw error
            }
            return (runs.map(\.run), duplicates)
        }
    }

    /// Hands over a full arena and returns an empty one, waiting while the other is still being sorted.
    func exchange(_ arena: RowArena) throws -> RowArena {
        full.put(arena)
        guard let next = try empty.take() else { throw SortError.stopped }
        return next
    }

    /// Sorts the last arena here and returns every run, with the duplicates dropped so far.
    func finish(last arena: RowArena) throws -> (runs: [any SortedRun], duplicates: Int) {
        full.close()
        var (runs, duplicates) = try worker.join()
        empty.close()
        arena.sort()
        duplicates += try arena.removeDuplicates(policy)
        if !arena.isEmpty { runs.append(MemoryRun(arena: arena)) }
        return (runs, duplicates)
    }

    /// Stops the sorting thread after a failure elsewhere.
    func abandon() {
        full.close()
        empty.close()
        _ = try? worker.join()
    }
}
