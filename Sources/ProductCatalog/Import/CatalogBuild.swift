/// A new catalog being written beside the live one, then swapped in by one atomic rename.
///
/// The file is built at `<db>.importing` with bulk-load settings that are only safe because
/// nobody reads it yet: `journal_mode=OFF` and `synchronous=OFF` (a crash leaves a broken
/// *build* file, which the next import deletes), `locking_mode=EXCLUSIVE` (no lock traffic per
/// transaction) and 16 KiB pages; the cache stays small because rows arrive in key order and
/// only the B-tree's right edge is touched. At the end it is switched back to an ordinary rollback
/// journal, closed, fsynced, and renamed over the live catalog while an exclusive lock on the
/// old file keeps writers out and rolls back any hot journal of the old file first: a
/// `-journal` left beside the path could otherwise be replayed into the new file.
final class CatalogBuild: CatalogWriter {
    let livePath: String
    let buildPath: String
    private var connection: Connection?
    private var inserter: BatchInserter?

    /// Starts a build for the catalog at `livePath`, clearing what an interrupted build left.
    ///
    /// The caller holds the catalog's ``ImportLock``, so no other import is using the build file.
    init(livePath: String, maxPages: Int? = nil) throws {
        self.livePath = livePath
        buildPath = livePath + ".importing"
        do {
            try removeBuildFiles()
        } catch let error as ByteSourceError {
            throw ImportError.destination(error)
        }
        let connection = try database { try Connection(path: buildPath, mode: .create) }
        self.connection = connection
        try database {
            try connection.execute("""
                PRAGMA page_size = 16384;
                PRAGMA journal_mode = OFF;
                PRAGMA synchronous = OFF;
                PRAGMA locking_mode = EXCLUSIVE;
                PRAGMA cache_size = -2048;
                """)
            if let maxPages { _ = try connection.scalarInt("PRAGMA max_page_count = \(maxPages)") }
        }
    }

    /// Creates the table and prepares the inserts for `insertColumns` (productId first).
    ///
    /// Rows arrive sorted by productId and free of duplicates, so a plain INSERT adds each
    /// one at the right edge of the table's B-tree.
    func createTable(extraColumns: [String], insertColumns: [String]) throws {
        guard let connection else { return }
        try database {
            try connection.execute(CatalogSchema.createStatements(extraColumns: extraColumns))
            inserter = try BatchInserter(connection: connection, columns: insertColumns)
            try connection.execute("BEGIN")
        }
    }

    func insert(_ batch: RowBatch, kinds: UnsafeBufferPointer<Bool>) throws {
        try database { try inserter?.insert(batch, kinds: kinds) }
    }

    /// Commits the rows so far and begins the next batch.
    func commitBatch() throws {
        try database { try connection?.execute("COMMIT; BEGIN") }
    }

    /// Commits, makes the file an ordinary durable catalog, and returns how many products it holds.
    func finish() throws -> Int {
        guard let connection else { return 0 }
        return try database {
            try connection.execute("COMMIT")
            inserter = nil
            let count = try connection.scalarInt("SELECT count(*) FROM \(CatalogSchema.table)") ?? 0
            try connection.execute("PRAGMA locking_mode = NORMAL; PRAGMA journal_mode = DELETE;")
            self.connection = nil
            return Int(count)
        }
    }

    /// Moves the finished file over the live catalog in one atomic rename.
    func install() throws {
        try FileSystem.sync(buildPath)
        var live: Connection?
        if try FileSystem.size(ofFileAt: livePath) != nil {
            let connection = try database { try Connection(path: livePath, mode: .readWrite) }
            connection.setBusyTimeout(milliseconds: 30_000)
            // A `-wal` beside the path would be read into the new file: fold it back first.
            if try FileSystem.size(ofFileAt: livePath + "-wal") != nil {
                connection.setBusyTimeout(milliseconds: 2_000)
                _ = try? connection.scalarText("PRAGMA journal_mode = DELETE")
                guard try FileSystem.size(ofFileAt: livePath + "-wal") == nil else {
                    throw ImportError.catalogInUse(path: livePath)
                }
                connection.setBusyTimeout(milliseconds: 30_000)
            }
            // Wait out readers and writers of the old file; taking the lock also rolls back
            // any hot journal of the old file, so no journal is left for the new one to meet.
            try database { try connection.execute("BEGIN EXCLUSIVE") }
            live = connection
        }
        try FileSystem.rename(buildPath, to: livePath)
        try FileSystem.sync(FileSystem.directory(of: livePath), directory: true)
        try? live?.execute("ROLLBACK")
        live = nil
    }

    /// Deletes the build file and its journal, leaving the live catalog as it was.
    func abandon() {
        inserter = nil
        connection = nil
        try? removeBuildFiles()
    }

    private func removeBuildFiles() throws {
        try FileSystem.removeIfPresent(buildPath)
        try FileSystem.removeIfPresent(buildPath + "-journal")
    }
}
