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
    private(set) var insert: Statement?
    private var lineLookup: Statement?
    private var lineRecord: Statement?

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
                PRAGMA page_size = 8192;
                PRAGMA journal_mode = OFF;
                PRAGMA synchronous = OFF;
                PRAGMA locking_mode = EXCLUSIVE;
                PRAGMA cache_size = -16384;
                """)
        }
    }

    /// Creates the table and prepares the insert for `columns` (productId first).
    func createTable(extraColumns: [String], insertColumns: [String], onDuplicate: DuplicatePolicy) throws {
        guard let connection else { return }
        try database {
            try connection.execute(CatalogSchema.createStatements(extraColumns: extraColumns))
            let names = insertColumns.map(quoteIdentifier)
            let parameters = (1...names.count).map { "?\($0)" }
            var sql = "INSERT INTO \(CatalogSchema.table) (\(names.joined(separator: ", "))) VALUES (\(parameters.joined(separator: ", "))) ON CONFLICT (productId) DO "
            switch onDuplicate {
            case .last: sql += "UPDATE SET " + names.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
            case .first, .fail: sql += "NOTHING"
            }
            insert = try connection.prepare(sql)
            if onDuplicate == .fail {
                try connection.execute("CREATE TEMP TABLE import_lines (productId TEXT NOT NULL COLLATE NOCASE PRIMARY KEY, line INTEGER NOT NULL) WITHOUT ROWID")
                lineRecord = try connection.prepare("INSERT INTO import_lines VALUES (?1, ?2)")
                lineLookup = try connection.prepare("SELECT line FROM import_lines WHERE productId = ?1")
            }
            try connection.execute("BEGIN")
        }
    }

    /// True when the last insert changed no row (its productId was already there).
    var lastInsertWasDuplicate: Bool { connection?.changes == 0 }

    /// Remembers the line a productId first appeared on (only with `--on-duplicate fail`).
    func recordLine(_ line: Int, productId: UnsafeBufferPointer<UInt8>) throws {
        guard let lineRecord else { return }
        lineRecord.bindText(1, unsafeBytes: productId)
        lineRecord.bind(2, Int64(line))
        defer { lineRecord.reset() }
        try database { try lineRecord.step() }
    }

    /// The line on which `productId` first appeared.
    func firstLine(of productId: String) throws -> Int {
        guard let lineLookup else { return 0 }
        lineLookup.bind(1, productId)
        defer { lineLookup.reset() }
        return try database { try lineLookup.step() ? Int(lineLookup.int64(at: 0)) : 0 }
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
            lineRecord = nil
            lineLookup = nil
            try connection.execute("DROP TABLE IF EXISTS temp.import_lines")
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
        lineRecord = nil
        lineLookup = nil
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
