import Foundation

/// A new catalog being written beside the live one, then put in its place whole.
///
/// The file is built at `<db>.importing` with bulk-load settings that are only safe because
/// nobody reads it yet: `journal_mode=OFF` and `synchronous=OFF` (a crash leaves a broken
/// *build* file, which the next import deletes), `locking_mode=EXCLUSIVE` (no lock traffic per
/// transaction); the cache stays small because rows arrive in key order and only the B-tree's
/// right edge is touched. The live file is only read until the end, so searches are never blocked
/// by the import and a killed import leaves the live catalog as it was.
///
/// **The swap.** The live file is in WAL mode (``LiveJournal``), and SQLite pairs a file with its
/// `-wal` and `-shm` by name: renaming a new file over one that another connection has open in
/// WAL mode would hand that connection's log to the new file. So the build asks, when it starts,
/// for the live file to go back to a rollback journal (``releaseLog(of:)``), which SQLite grants
/// only to a connection alone on it. Granted, the finished build (in WAL mode itself) is fsynced
/// and renamed over the live file while a write lock keeps writers off (readers go on, on the old
/// file or the new one): the rename costs what a rename costs. Refused, because a server or
/// another program reads the catalog, the build takes the live file's page size and its pages
/// are copied into the live file in one write transaction (SQLite's backup API, ``install()``):
/// readers keep the state they began with and the next ones see the new catalog, at the cost of
/// writing the catalog twice, through the log and into the file
/// (Benchmarks/measurements/changes-before-20261128.md: about 0.45 s more for the plain million).
final class CatalogBuild {
    let livePath: String
    let buildPath: String
    private var connection: Connection?
    private var inserter: BatchInserter?
    /// Products added, edited or deleted by hand since the previous import, which a replacement discards.
    private(set) var editsReplaced = 0
    /// The word index (``WordLists``), built beside the build.
    private var lists: WordIndexBuild?
    /// True when the file fills groupId, so the catalog keeps ``FamilyIndex``.
    private var fillsFamilies = false
    private let pageSize: Int
    /// The build's facet counts.
    private var facets: FacetTotals?
    private let facetValuesKept: Int
    /// Called before the swap and after it, whatever happened: the engine that made the build
    /// closes its own connections to the live file, so that the rename is open to it.
    private let aroundSwap: SwapHooks?

    /// Starts a build for the catalog at `livePath`, clearing what an interrupted build left.
    ///
    /// The caller holds the catalog's ``ImportLock``, so no other import is using the build file.
    /// The build's pages are `pageSize` bytes (see ``pageSize(wanted:livePath:)``).
    init(livePath: String, pageSize: Int, maxPages: Int? = nil, facetValuesKept: Int = FacetTotals.maxValues,
         aroundSwap: SwapHooks? = nil) throws {
        self.livePath = livePath
        self.facetValuesKept = facetValuesKept
        self.pageSize = pageSize
        self.aroundSwap = aroundSwap
        buildPath = livePath + ".importing"
        do {
            try removeBuildFiles()
        } catch let error as ByteSourceError {
            throw CatalogError.cannotWrite(error)
        }
        let connection = try database { try Connection(path: buildPath, mode: .create) }
        self.connection = connection
        try database {
            // For the build alone (`main.`): unqualified, these would also apply to the live file
            // the build attaches to carry its stock and collections (``StockTable/carry(intoMainFrom:_:)``).
            // A new file holds nothing but what this build writes, so the pages it frees need
            // not be zeroed (Debian's SQLite zeroes them by default, `SECURE_DELETE`).
            try connection.execute("""
                PRAGMA page_size = \(pageSize); PRAGMA main.secure_delete = OFF;
                PRAGMA main.journal_mode = OFF;
                PRAGMA main.synchronous = OFF;
                PRAGMA main.locking_mode = EXCLUSIVE;
                PRAGMA cache_size = -2048;
                """)
            if let maxPages { _ = try connection.scalarInt("PRAGMA max_page_count = \(maxPages)") }
        }
    }

    /// What the engine that made a build does around its swap (see ``init(livePath:pageSize:maxPages:facetValuesKept:aroundSwap:)``).
    struct SwapHooks: Sendable {
        /// Closes the engine's connections to the live file and holds its new requests back.
        var before: @Sendable () -> Void
        /// Lets them go on, on the file at the path now.
        var after: @Sendable () -> Void
    }

    /// The page size of a replacement of the catalog at `livePath`: `wanted` when the live file can
    /// be renamed over (no catalog there yet, or one nobody else has open, which this turns back to
    /// a rollback journal until the swap, see ``releaseLog(of:)``); else the live file's own, which
    /// the copy into it needs.
    static func pageSize(wanted: Int, livePath: String) throws -> Int {
        guard try CatalogSchema.kind(ofFileAt: livePath) == .catalog else { return wanted }
        let connection = try Connection(path: livePath, mode: .readWrite)
        if releaseLog(of: connection) { return wanted }
        return Int(try connection.scalarInt("PRAGMA page_size") ?? Int64(wanted))
    }

    /// Turns the live file on `connection` from WAL mode back to a rollback journal, which folds
    /// its log into it and deletes it; true when it is in that mode now. SQLite allows it only
    /// to a connection alone on the file: a file nobody else has open in WAL mode has no log that
    /// could meet another file, so it may be renamed over.
    static func releaseLog(of connection: Connection) -> Bool {
        // Refused at once when another connection holds the file: the mode stays, and so does the log.
        connection.setBusyTimeout(milliseconds: 200)
        _ = try? connection.scalarText("PRAGMA journal_mode = DELETE")
        connection.setBusyTimeout(milliseconds: 30_000)
        guard let mode = try? connection.scalarText("PRAGMA journal_mode"), mode != "wal" else { return false }
        // No log is left beside it (one that could not be read counts as one).
        do {
            return try FileSystem.size(ofFileAt: connection.path + "-wal") == nil
        } catch {
            return false
        }
    }

    /// Creates the table and prepares the inserts for `insertColumns` (productId first).
    ///
    /// Rows arrive sorted by productId and free of duplicates, so a plain INSERT adds each
    /// one at the right edge of the table's B-tree.
    func createTable(extraColumns: [String], insertColumns: [String]) throws {
        guard let connection else { return }
        try database {
            let fields = ProductField.allCases.filter { insertColumns.contains($0.columnName) }
            fillsFamilies = fields.contains(.groupId)
            try connection.execute(CatalogSchema.createStatements(extraColumns: extraColumns, fields: fields))
            try connection.execute(WordLists.createStatements)
            lists = try WordIndexBuild(path: listsPath, insertColumns: insertColumns, pageSize: pageSize)
            facets = FacetTotals(insertColumns: insertColumns, valuesKept: facetValuesKept)
            inserter = try BatchInserter(connection: connection, columns: insertColumns)
            try connection.begin(.deferred)
        }
    }

    /// Writes rows sorted by productId; `parameters` says how each slot of a row is bound.
    func insert(_ rows: RowBatch, parameters: UnsafeBufferPointer<EncodedRow.Parameter>) throws {
        try database {
            try inserter?.insert(rows, parameters: parameters)
            let checked = CheckedRows(batch: rows, parameters: parameters)
            try lists?.add(checked)
            facets?.add(checked)
        }
    }

    /// Commits the rows so far and begins the next transaction, so the build's cache stays small.
    func commitAndContinue() throws {
        guard let connection else { return }
        try database {
            try lists?.flush()
            try connection.commit()
            try connection.begin(.deferred)
        }
    }

    /// Commits, makes the file an ordinary durable catalog in WAL mode, and returns how many products it holds.
    func finish() throws -> Int {
        guard let connection else { return 0 }
        return try database {
            // The index's thread finishes its index while this one builds the other indexes.
            try lists?.finishWriting()
            if let facets, facets.isComplete { try facets.write(into: connection) }
            facets = nil
            try CatalogSchema.upgrade(connection)
            if fillsFamilies { try FamilyIndex.create(connection) }
            if let lists {
                try connection.commit()
                try lists.finish(into: connection)
                self.lists = nil
                try connection.begin(.deferred)
            }
            try carryFavorites(into: connection)
            try connection.commit()
            if try liveIsCatalog() { try carrySideTables(into: connection) }
            inserter = nil
            let count = try connection.scalarInt("SELECT count(*) FROM \(CatalogSchema.table)") ?? 0
            // The mode the live file is written in, kept in the file's header; closing the
            // connection folds the build's short log back and deletes it.
            try connection.execute("PRAGMA locking_mode = NORMAL; PRAGMA journal_mode = DELETE; PRAGMA journal_mode = WAL;")
            self.connection = nil
            return Int(count)
        }
    }

    /// Puts the finished build in the live catalog's place: renamed over it when no other
    /// connection has it open in WAL mode, else copied into it (see the type's notes).
    func install() throws {
        guard try destination({ try FileSystem.size(ofFileAt: livePath) }) != nil else {
            try destination {
                try LiveJournal.removeLeftovers(at: livePath)
                try FileSystem.sync(buildPath)
                try FileSystem.rename(buildPath, to: livePath)
                try FileSystem.sync(FileSystem.directory(of: livePath), directory: true)
            }
            return
        }
        aroundSwap?.before()
        defer { aroundSwap?.after() }
        let live = try database { try Connection(path: livePath, mode: .readWrite) }
        live.setBusyTimeout(milliseconds: 30_000)
        if Self.releaseLog(of: live) { return try rename(over: live) }
        if try live.scalarInt("PRAGMA page_size") == Int64(pageSize) { return try copy(into: live) }
        // A reader came along since the build began and the page sizes differ, so the pages
        // cannot be copied: the rename waits a little for the file to be free.
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(5)
        while clock.now < deadline {
            usleep(100_000)
            if Self.releaseLog(of: live) { return try rename(over: live) }
        }
        throw CatalogError.inUse(path: livePath)
    }

    /// The swap by rename, the live file on `live` in rollback-journal mode.
    private func rename(over live: Connection) throws {
        try destination {
            try FileSystem.sync(buildPath)
            if case .regular(_, let mode, let owner, let group) = try FileSystem.entry(at: livePath) {
                try FileSystem.setPermissions(buildPath, mode: mode, owner: owner, group: group)
            }
        }
        // Wait out writers of the old file and keep new ones off it until the rename: its
        // shared lock rolls back any hot journal first, so no journal is left for the new file to
        // meet, and no writer can turn it to WAL mode again. Readers go on, on the old file or
        // the new one, never locked out.
        try database { try live.begin(.immediate) }
        editsReplaced = try countHandEdits(live)
        try destination {
            try FileSystem.rename(buildPath, to: livePath)
            try FileSystem.sync(FileSystem.directory(of: livePath), directory: true)
        }
        // Only releases the write lock: the transaction wrote nothing, and the file is already gone.
        try? live.rollback()
    }

    /// The swap by copy: every page of the build written into the live file, in WAL mode, in one
    /// transaction; then the build's files go.
    private func copy(into live: Connection) throws {
        try database {
            editsReplaced = try live.reading { try countHandEdits(live) }
            let build = try Connection(path: buildPath, mode: .readOnly)
            try LiveJournal.prepareWriter(live)
            try live.replaceContents(with: build)
            LiveJournal.checkpoint(live)
        }
        try? removeBuildFiles()
    }

    /// Deletes the build file and its journal, leaving the live catalog as it was.
    func abandon() {
        lists?.abandon()
        lists = nil
        inserter = nil
        connection = nil
        try? removeBuildFiles()
    }

    // MARK: - The live file

    /// Stars the products of the new file that are starred in the live one.
    ///
    /// Stars cannot change meanwhile: edits, stars included, are refused while an import runs.
    private func carryFavorites(into connection: Connection) throws {
        guard try liveIsCatalog() else { return }
        var starred: [(productId: String, at: Int64)] = []
        try database {
            let live = try Connection(path: livePath, mode: .readOnly)
            live.setBusyTimeout(milliseconds: 30_000)
            let table = CatalogSchema.favoritesTable
            guard try live.hasTable(table) else { return }
            let statement = try live.prepare("SELECT productId, starredAt FROM \(table)")
            while try statement.step() { starred.append((statement.text(at: 0) ?? "", statement.int64(at: 1))) }
        }
        guard !starred.isEmpty else { return }
        try connection.execute(CatalogSchema.createFavorites)
        let insert = try connection.prepare("""
            INSERT OR IGNORE INTO \(CatalogSchema.favoritesTable) (productId, starredAt)
            SELECT productId, ?2 FROM \(CatalogSchema.table) WHERE productId = ?1
            """)
        for star in starred {
            try insert.using {
                try insert.bind(1, star.productId)
                try insert.bind(2, star.at)
                try insert.step()
            }
        }
    }

    /// Copies the live catalog's stock by store and collections, for the products the new file
    /// keeps, in a transaction of its own (SQLite attaches only outside one).
    private func carrySideTables(into connection: Connection) throws {
        let attach = try connection.prepare("ATTACH DATABASE ?1 AS live")
        try attach.using {
            try attach.bind(1, livePath)
            _ = try attach.step()
        }
        defer { try? connection.execute("DETACH DATABASE live") }
        try connection.transaction(.deferred) {
            try StockTable.carry(intoMainFrom: "live", connection)
            try CollectionTable.carry(intoMainFrom: "live", connection)
        }
    }

    /// True when a catalog is live at ``livePath`` (a first import has none).
    private func liveIsCatalog() throws -> Bool {
        guard try destination({ try FileSystem.size(ofFileAt: livePath) }) != nil,
              case .catalog = try CatalogSchema.kind(ofFileAt: livePath) else { return false }
        return true
    }

    /// The rows of the edits table, 0 when the catalog has none.
    private func countHandEdits(_ connection: Connection) throws -> Int {
        try database {
            guard try connection.hasTable(CatalogSchema.editsTable) else { return 0 }
            return Int(try connection.scalarInt("SELECT count(*) FROM \(CatalogSchema.editsTable)") ?? 0)
        }
    }

    private func removeBuildFiles() throws {
        try FileSystem.removeIfPresent(buildPath)
        try FileSystem.removeIfPresent(buildPath + "-journal")
        try FileSystem.removeIfPresent(buildPath + "-wal")
        try FileSystem.removeIfPresent(buildPath + "-shm")
        try FileSystem.removeIfPresent(listsPath)
    }

    /// Where a replacement builds its word index (see ``WordIndexBuild``).
    private var listsPath: String { buildPath + ".lists" }

    /// Runs `body`, turning a file error into ``CatalogError/cannotWrite(_:)``.
    private func destination<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ByteSourceError {
            throw CatalogError.cannotWrite(error)
        }
    }
}
