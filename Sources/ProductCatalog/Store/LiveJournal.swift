/// How a live catalog file is written: in SQLite's write-ahead log mode (`<db>-wal` beside it), so
/// that a search never waits for a write, nor a write for a search.
///
/// A writer appends its pages to the log and commits by appending one more frame; a reader reads
/// the file as of the moment its transaction began, whatever commits meanwhile, and takes no lock
/// a writer needs. So edits, batches, upserts, stock imports and merges run while searches go on
/// at their idle speed: with a writer committing 1,000 title changes back to back, readers in
/// rollback-journal mode waited up to 1.6 s and read 2% as often; in WAL mode their worst was
/// 11 ms (Benchmarks/tools/storage_choices.py, Benchmarks/measurements/changes-before-20261128.md). The log is folded back into the file by
/// checkpoints: SQLite's own after a commit that leaves it past 1,000 pages, and one at the end
/// of each command that wrote, so that a command pays for its own pages only.
///
/// A catalog made by an earlier version (a rollback journal) is turned to WAL mode by its first
/// writer, which holds the catalog's import lock or an edit's permit (``ImportLock``): no import
/// can swap files meanwhile. A replacing import's swap keeps the mode (``CatalogBuild/install()``).
enum LiveJournal {
    /// The most bytes the log keeps on disk after a checkpoint emptied it.
    static let logSizeLimit = 64 << 20

    /// Opens the live catalog at `path` for a writer that holds its import lock or an edit permit:
    /// read-write, in WAL mode, committing durably (`synchronous = FULL`: a commit acknowledged
    /// survives a power cut, as it did under the rollback journal).
    static func openWriter(at path: String, busyTimeout: Int32) throws -> Connection {
        let connection = try Connection(path: path, mode: .readWrite)
        connection.setBusyTimeout(milliseconds: busyTimeout)
        try prepareWriter(connection)
        return connection
    }

    /// Readies `connection`, open read-write on a live catalog outside a transaction, for writing:
    /// and with recursive triggers on, so that a row a write replaces fires the triggers of a delete
    /// (see ``FacetIndex``).
    static func prepareWriter(_ connection: Connection) throws {
        try useWAL(connection)
        try connection.execute("PRAGMA synchronous = FULL; PRAGMA journal_size_limit = \(logSizeLimit); PRAGMA recursive_triggers = ON;")
    }

    /// Turns the catalog on `connection` (outside a transaction) to WAL mode when it is not in it:
    /// a catalog written by an earlier version, or a new empty one. The mode is kept in the file.
    static func useWAL(_ connection: Connection) throws {
        guard try connection.scalarText("PRAGMA journal_mode") != "wal" else { return }
        _ = try connection.scalarText("PRAGMA journal_mode = WAL")
    }

    /// Folds what the log holds back into the file, as far as no reader still needs the log's
    /// older pages, without waiting for anyone.
    static func checkpoint(_ connection: Connection) {
        _ = try? connection.scalarInt("PRAGMA wal_checkpoint(PASSIVE)")
    }

    /// Deletes the log, journal and shared memory at `path` when no file is there: they belong to
    /// a catalog deleted while a program had it open (or after one was killed), yet SQLite would
    /// replay them into a new file at the path at its first open, over that file's own pages.
    /// Called just before a new catalog is put or created at the path.
    static func removeLeftovers(at path: String) throws {
        guard try FileSystem.size(ofFileAt: path) == nil else { return }
        for suffix in ["-wal", "-journal", "-shm"] { try FileSystem.removeIfPresent(path + suffix) }
    }
}
