/// A new catalog being written beside the live one, then swapped in by one atomic rename.
///
/// The file is built at `<db>.importing` with bulk-load settings that are only safe because
/// nobody reads it yet: `journal_mode=OFF` and `synchronous=OFF` (a crash leaves a broken
/// *build* file, which the next import deletes), `locking_mode=EXCLUSIVE` (no lock traffic per
/// transaction) and a larger cache. At the end it is switched back to an ordinary rollback
/// journal, closed, fsynced, and renamed over the live catalog while an exclusive lock on the
/// old file keeps writers out and rolls back any hot journal of the old file first: a
/// `-journal` left beside the path could otherwise be replayed into the new file.
final class CatalogBuild {
    let livePath: String
    let buildPath: String
    private var connection: Connection?
    private var insert: Statement?
    private var multiInsert: Statement?

    /// Starts a build for the catalog at `livePath`, clearing what an interrupted build left.
    init(livePath: String) throws {
        self.livePath = livePath
        buildPath = livePath + ".importing"
        switch try CatalogSchema.kind(ofFileAt: livePath) {
        case .missing, .empty, .catalog: break
        case .otherDatabase, .notADatabase: throw ImportError.catalog(.notACatalog(path: livePath))
        }
        try removeBuildFiles()
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
        }
    }

    /// Rows per multi-row INSERT: one statement step stores this many rows.
    static let rowsPerStatement = 32

    /// Creates the table and prepares the inserts for `columns` (productId first).
    ///
    /// Rows arrive sorted by productId and free of duplicates, so a plain INSERT adds each
    /// one at the right edge of the table's B-tree. Inserting 32 rows per statement cuts the
    /// per-statement work (step, reset, VDBE setup) to a thirty-second.
    func createTable(extraColumns: [String], insertColumns: [String]) throws {
        guard let connection else { return }
        try database {
            try connection.execute(CatalogSchema.createStatements(extraColumns: extraColumns))
            func insertSQL(rows: Int) -> String {
                let names = insertColumns.map(quoteIdentifier).joined(separator: ", ")
                let tuples = (0..<rows).map { row in
                    "(" + (1...insertColumns.count).map { "?\(row * insertColumns.count + $0)" }.joined(separator: ", ") + ")"
                }
                return "INSERT INTO \(CatalogSchema.table) (\(names)) VALUES \(tuples.joined(separator: ", "))"
            }
            insert = try connection.prepare(insertSQL(rows: 1))
            multiInsert = try connection.prepare(insertSQL(rows: Self.rowsPerStatement))
            try connection.execute("BEGIN")
        }
    }

    /// Inserts every row of `batch`, `rowsPerStatement` at a time.
    func insert(_ batch: RowBatch, kinds: UnsafeBufferPointer<Bool>) throws {
        guard let insert, let multiInsert else { return }
        let columns = Int32(kinds.count)
        var index = 0
        try database {
            while batch.count - index >= Self.rowsPerStatement {
                for offset in 0..<Self.rowsPerStatement {
                    batch.row(index + offset).bind(to: multiInsert, firstParameter: Int32(offset) * columns + 1, kinds: kinds)
                }
                try multiInsert.step()
                multiInsert.reset()
                index += Self.rowsPerStatement
            }
            while index < batch.count {
                batch.row(index).bind(to: insert, firstParameter: 1, kinds: kinds)
                try insert.step()
                insert.reset()
                index += 1
            }
        }
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
            insert = nil
            multiInsert = nil
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
            // Wait out readers and writers of the old file; taking the lock also rolls back
            // any hot journal of the old file, so no journal is left for the new one to meet.
            let connection = try database { try Connection(path: livePath, mode: .readWrite) }
            connection.setBusyTimeout(milliseconds: 30_000)
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
        insert = nil
        multiInsert = nil
        connection = nil
        try? removeBuildFiles()
    }

    private func removeBuildFiles() throws {
        try FileSystem.removeIfPresent(buildPath)
        try FileSystem.removeIfPresent(buildPath + "-journal")
    }

    /// Runs `body`, naming the database in any SQLite error.
    func database<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw ImportError.database(path: livePath, error)
        }
    }
}
