/// Sorts full arenas into runs on a second core while the reader fills the next arena.
///
/// Two arenas take turns: the reader encodes rows into one while this sorts the other, drops
/// its duplicates and spills it to a ``FileRun``. The last arena is sorted by the caller and
/// kept in memory as a ``MemoryRun``: a file that fits in one arena is never written to disk.
final class RunSorter {
    private let full = BlockingQueue<RowArena>(capacity: 1)
    private let empty = BlockingQueue<RowArena>(capacity: 2)
    private let worker: Worker<(runs: [any SortedRun], duplicates: Int)>
    private let policy: DuplicatePolicy

    /// Starts the sorting thread; `pathPrefix` names the (unlinked) run files.
    init(arenaCapacity: Int, policy: DuplicatePolicy, pathPrefix: String) {
        self.policy = policy
        let full = self.full
        let empty = self.empty
        empty.put(RowArena(capacity: arenaCapacity))
        worker = Worker {
            var runs: [any SortedRun] = []
            var duplicates = 0
            do {
                while let arena = try full.take() {
                    arena.sort()
                    duplicates += try arena.removeDuplicates(policy)
                    runs.append(try FileRun(writing: arena, pathPrefix: pathPrefix, number: runs.count))
                    arena.removeAll()
                    empty.put(arena)
                }
            } catch {
                empty.close(throwing: error)
                throw error
            }
            return (runs, duplicates)
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
