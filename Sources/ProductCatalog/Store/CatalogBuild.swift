/// A new catalog being written beside the live one, then swapped in by one atomic rename.
///
/// The file is built at `<db>.importing` with bulk-load settings that are only safe because
/// nobody reads it yet: `journal_mode=OFF` and `synchronous=OFF` (a crash leaves a broken
/// *build* file, which the next import deletes), `locking_mode=EXCLUSIVE` (no lock traffic per
/// transaction); the cache stays small because rows arrive in key order and only the B-tree's
/// right edge is touched. A replacing import starts from an empty file (``CatalogSchema/pageSize(for:)``); an
/// upsert starts from a copy of the live catalog, taken under a read lock, and updates the copy.
/// Either way the live file is only read until the end, so searches are never blocked by the
/// import and a killed import leaves no journal behind. At the end the build is switched back to
/// an ordinary rollback journal, closed, fsynced, given the old file's permissions, and renamed
/// over the live catalog while a write lock on the old file keeps other writers out (readers go
/// on) and its shared lock has rolled back any hot journal of the old file first: a `-journal`
/// left beside the path could otherwise be replayed into the new file.
final class CatalogBuild {
    let livePath: String
    let buildPath: String
    /// True for an upsert, which starts from a copy of the live catalog.
    let copyingLive: Bool
    private var connection: Connection?
    private var inserter: BatchInserter?
    /// An upsert's writes; nil for a replacement, which ``inserter`` writes.
    private var upsert: UpsertWriter?
    /// Products an upsert deleted because its file did not list them; final after ``finish()``.
    private(set) var productsDeleted = 0
    /// Products the catalog held before an upsert; 0 for a replacement.
    private(set) var productsBefore = 0
    /// True when an upsert built the word index and the sort lists anew, its changes being many.
    private(set) var listsRebuilt = false
    /// Products added, edited or deleted by hand since the previous import, which a replacement discards.
    private(set) var editsReplaced = 0
    /// A replacement's word index (``WordLists``), built beside it; nil for an upsert, whose
    /// changes the triggers note (``WordChanges``).
    private var lists: WordIndexBuild?
    /// True when the file fills groupId, so the catalog keeps ``FamilyIndex``.
    private var fillsFamilies = false
    private let pageSize: Int
    /// A replacement's facet counts; nil for an upsert, whose counts the triggers keep.
    private var facets: FacetTotals?
    private let facetValuesKept: Int

    /// Starts a build for the catalog at `livePath`, clearing what an interrupted build left.
    ///
    /// The caller holds the catalog's ``ImportLock``, so no other import is using the build file.
    /// With `copyingLive`, the build starts as a copy of the live catalog (and keeps its page
    /// size); otherwise it is a new file of `pageSize` bytes a page.
    init(livePath: String, copyingLive: Bool, pageSize: Int, maxPages: Int? = nil,
         facetValuesKept: Int = FacetTotals.maxValues) throws {
        self.livePath = livePath
        self.facetValuesKept = facetValuesKept
        self.copyingLive = copyingLive
        self.pageSize = pageSize
        buildPath = livePath + ".importing"
        do {
            try removeBuildFiles()
            if copyingLive { try copyLive() }
        } catch let error as ByteSourceError {
            throw CatalogError.cannotWrite(error)
        }
        let connection = try database { try Connection(path: buildPath, mode: .create) }
        self.connection = connection
        try database {
            // For the build alone (`main.`): unqualified, these would also apply to the live file
            // the build attaches to carry its stock and collections (``StockTable/carry(intoMainFrom:_:)``), and turning
            // a live file in WAL mode to no journal needs a lock its other readers hold.
            // A new file holds nothing but what this build writes, so the pages it frees need
            // not be zeroed (Debian's SQLite zeroes them by default, `SECURE_DELETE`). A copy of
            // the live catalog keeps the default: it frees the pages of products it deletes.
            try connection.execute("""
                \(copyingLive ? "" : "PRAGMA page_size = \(pageSize); PRAGMA main.secure_delete = OFF;")
                PRAGMA main.journal_mode = OFF;
                PRAGMA main.synchronous = OFF;
                PRAGMA main.locking_mode = EXCLUSIVE;
                PRAGMA cache_size = -\(copyingLive ? CatalogUpdate.cacheKiB : 2048);
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

    /// Prepares the copy for an upsert (see ``UpsertWriter``); with `deletingMissing` it also
    /// deletes the products the file does not list.
    ///
    /// Products in the file replace those with the same productId (only the columns the file
    /// has); new ones are added; others stay, or go with `deletingMissing`.
    func prepareUpsert(extraColumns: [String], insertColumns: [String], deletingMissing: DeletionOfMissing?) throws {
        guard let connection else { return }
        try database {
            try connection.begin(.deferred)
            productsBefore = try CatalogUpdate.productCount(connection)
            upsert = try UpsertWriter(connection: connection, extraColumns: extraColumns, insertColumns: insertColumns,
                                      deletingMissing: deletingMissing)
        }
    }

    /// Writes rows sorted by productId; `parameters` says how each slot of a row is bound.
    func insert(_ rows: RowBatch, parameters: UnsafeBufferPointer<EncodedRow.Parameter>) throws {
        try database {
            if let upsert { return try upsert.write(rows, parameters: parameters) }
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

    /// Commits, makes the file an ordinary durable catalog, and returns how many products it holds.
    func finish() throws -> Int {
        guard let connection else { return 0 }
        return try database {
            try upsert?.finish()
            productsDeleted = upsert?.deleted ?? 0
            upsert = nil
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
            if copyingLive { listsRebuilt = try WordLists.compactIfWanted(connection, products: try CatalogUpdate.productCount(connection)) }
            if !copyingLive { try carryFavorites(into: connection) }
            try connection.commit()
            if try !copyingLive && liveIsCatalog() { try carrySideTables(into: connection) }
            inserter = nil
            let count = try connection.scalarInt("SELECT count(*) FROM \(CatalogSchema.table)") ?? 0
            try connection.execute("PRAGMA locking_mode = NORMAL; PRAGMA journal_mode = DELETE;")
            self.connection = nil
            return Int(count)
        }
    }

    /// Moves the finished file over the live catalog in one atomic rename, keeping the old file's permissions.
    func install() throws {
        try destination {
            try FileSystem.sync(buildPath)
            if case .regular(_, let mode, let owner, let group) = try FileSystem.entry(at: livePath) {
                try FileSystem.setPermissions(buildPath, mode: mode, owner: owner, group: group)
            }
        }
        var live: Connection?
        if try destination({ try FileSystem.size(ofFileAt: livePath) }) != nil {
            let connection = try openLive()
            // Wait out writers of the old file and keep new ones off it until the rename: its
            // shared lock rolls back any hot journal first, so no journal is left for the new
            // file to meet. Readers go on, on the old file or the new one, never locked out.
            try database { try connection.begin(.immediate) }
            if !copyingLive { editsReplaced = try countHandEdits(connection) }
            live = connection
        }
        try destination {
            try FileSystem.rename(buildPath, to: livePath)
            try FileSystem.sync(FileSystem.directory(of: livePath), directory: true)
        }
        // Only releases the write lock: the transaction wrote nothing, and the file is already gone.
        try? live?.rollback()
        live = nil
    }

    /// Deletes the build file and its journal, leaving the live catalog as it was.
    func abandon() {
        lists?.abandon()
        lists = nil
        inserter = nil
        upsert = nil
        connection = nil
        try? removeBuildFiles()
    }

    // MARK: - The live file

    /// Opens the live catalog read-write, first folding back a `-wal` that would be read into the new file.
    ///
    /// A file in WAL mode gets a `-wal` as soon as a connection reads it, even when none is there
    /// now (another program set the mode and closed): it is turned back to a rollback journal, or,
    /// when another program holds it open, refused.
    private func openLive() throws -> Connection {
        let connection = try database { try Connection(path: livePath, mode: .readWrite) }
        connection.setBusyTimeout(milliseconds: 30_000)
        let inWALMode = try? connection.scalarText("PRAGMA journal_mode") == "wal"
        let walFile = try destination { try FileSystem.size(ofFileAt: livePath + "-wal") }
        if inWALMode ?? true || walFile != nil {
            connection.setBusyTimeout(milliseconds: 2_000)
            _ = try? connection.scalarText("PRAGMA journal_mode = DELETE")
            guard try connection.scalarText("PRAGMA journal_mode") != "wal",
                  try destination({ try FileSystem.size(ofFileAt: livePath + "-wal") }) == nil else {
                throw CatalogError.inUse(path: livePath)
            }
            connection.setBusyTimeout(milliseconds: 30_000)
        }
        return connection
    }

    /// Copies the live catalog to the build path while a read transaction keeps writers from changing it.
    private func copyLive() throws {
        let connection = try openLive()
        try database {
            try connection.begin(.deferred)
            _ = try connection.scalarInt("SELECT count(*) FROM sqlite_master")
        }
        // Only releases the read lock: the transaction wrote nothing.
        defer { try? connection.rollback() }
        try FileSystem.copy(livePath, to: buildPath)
    }

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
