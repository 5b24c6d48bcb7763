/// The shape of a catalog database file, and how to recognise one.
///
/// ```sql
/// CREATE TABLE products (
///   productId TEXT NOT NULL COLLATE NOCASE PRIMARY KEY,
///   title TEXT, listPriceMilli INTEGER, salesPriceMilli INTEGER, color TEXT, size TEXT,
///   productType TEXT, taxRate TEXT, imageURL TEXT,
///   groupId TEXT, currency TEXT, quantity INTEGER, brand TEXT, description TEXT,
///   "<each extra header>" TEXT, ...
/// ) WITHOUT ROWID;
/// ```
///
/// `productId` is compared ASCII-case-insensitively (`NOCASE`), so `ab12` and `AB12` are one
/// product, the primary key's order is the search order, and a prefix is one index range. The
/// table is `WITHOUT ROWID`: the primary key *is* the table's B-tree, so a search page reads
/// 20 neighbouring rows and no second index exists to build or to look up.
///
/// Prices are integer thousandths of their currency's unit (`12.50` is 12500), exact for every
/// currency, KWD's three decimals included. Layout version 1 kept cents in `listPriceCents` and
/// `salesPriceCents`; it is read as it is and upgraded by the first write (``upgrade(_:)``).
/// Layouts 3 to 5 kept words in FTS5; layout 6 keeps them in the catalog's own index
/// (``WordLists``), with the changes since it was built noted beside it and the order of products
/// added since the last import (`catalog_added`). Layout 7 keeps the orders by price and by title
/// as lists of its own (``SortLists``) where layout 6 kept two indexes. Layout 8 keeps the index,
/// the lists and the places as segments, every write adding one (``SegmentManifest``), and the file
/// in WAL mode (``LiveJournal``); the places give the newest first. A catalog of layouts 3 to 5 is
/// searched by productId alone, and one of layout 6 sorted by its indexes, until its first write
/// (an import or an edit), which drops FTS5's tables or those indexes and builds the index and the
/// lists from its products; one of layout 7 becomes one of layout 8 at its first write.
public enum CatalogSchema {
    /// `PRAGMA application_id` of a catalog file ("PCAT"), so we never overwrite someone else's database.
    public static let applicationID: Int32 = 0x5043_4154
    /// `PRAGMA user_version` of the current layout.
    public static let version: Int32 = 8
    /// The table holding the products.
    public static let table = "products"
    /// The page size of a new catalog whose rows have `lengths`: the smallest of 4, 8 and 16 KiB
    /// that keeps all but one row in 100 whole in its page.
    ///
    /// An upsert rewrites a page for each row and index entry it changes, so small pages write
    /// fewer bytes (1,000 changed products of ten million: 87 MB at 4 KiB, 272 MB at 16 KiB;
    /// Benchmarks/measurements/page-size-20261125.md). But a page of the products table, which has
    /// no rowid, keeps at most about a quarter of itself of one row and puts the rest on overflow
    /// pages of its own: at 4 KiB a product with a description of a kilobyte takes two pages, which
    /// made a realistic million with descriptions 2.6 GB instead of 1.3 GB at 8 KiB and its import
    /// 20% slower (Benchmarks/measurements/page-size-8k-20261125.md). A file keeps the page size it
    /// was made with.
    static func pageSize(for lengths: RowLengths) -> Int {
        for size in [4096, 8192] where lengths.rows(longerThan: longestWholeRow(pageSize: size)) * 100 <= lengths.rows {
            return size
        }
        return 16384
    }

    /// The most bytes of a row a page of an index B-tree (a table without rowid) keeps (SQLite's
    /// file format: a quarter of the usable page, less its cell's header), less 32 bytes for the
    /// record's own header.
    static func longestWholeRow(pageSize: Int) -> Int {
        (pageSize - 12) * 64 / 255 - 23 - 32
    }
    /// The productIds added, edited or deleted by hand since the last replacing import.
    ///
    /// Created by the first edit; a replacing import starts a new file without it, after
    /// counting it, so the import can say how many hand edits it replaced.
    static let editsTable = "catalog_edits"
    /// The starred productIds: kept beside the products, not in a feed's columns.
    ///
    /// Created by the first star. A replacing import carries the stars of the products it
    /// keeps into the new file; an upsert works on a copy, which keeps them all.
    /// The triggers `<triggers>_delete` and `<triggers>_rename` that keep `table`'s rows (keyed
    /// by `productId`) with their products: a product deleted takes its rows, one renamed keeps them.
    static func followingProducts(_ table: String, triggers: String) -> String {
        """
        CREATE TRIGGER IF NOT EXISTS \(triggers)_delete AFTER DELETE ON \(Self.table) BEGIN
          DELETE FROM \(table) WHERE productId = old.productId;
        END;
        CREATE TRIGGER IF NOT EXISTS \(triggers)_rename AFTER UPDATE OF productId ON \(Self.table)
          WHEN old.productId IS NOT new.productId COLLATE BINARY BEGIN
          UPDATE \(table) SET productId = new.productId WHERE productId = old.productId;
        END;

        """
    }

    static let favoritesTable = "catalog_favorites"
    /// Creates ``favoritesTable`` when it is missing.
    static let createFavorites =
        "CREATE TABLE IF NOT EXISTS \(favoritesTable) (productId TEXT NOT NULL COLLATE NOCASE PRIMARY KEY, starredAt INTEGER NOT NULL) WITHOUT ROWID"

    /// The statements that create an empty catalog with these extra columns.
    ///
    /// A bulk load passes only the `fields` its file fills: SQLite stores a NULL for every
    /// column a row leaves out, but nothing for a column added after the row was written, so
    /// the load adds the other known fields at its end (``upgrade(_:)``).
    static func createStatements(extraColumns: [String], fields: [ProductField] = ProductField.allCases) -> String {
        var columns = ["productId TEXT NOT NULL COLLATE NOCASE PRIMARY KEY"]
        for field in ProductField.allCases.dropFirst() where fields.contains(field) {
            columns.append(field.columnDefinition)
        }
        columns += extraColumns.map { "\(quoteIdentifier($0)) TEXT" }
        return """
            PRAGMA application_id = \(applicationID);
            PRAGMA user_version = \(version);
            CREATE TABLE \(table) (
              \(columns.joined(separator: ",\n  "))
            ) WITHOUT ROWID;
            """
    }

    /// Brings a catalog made by an older version to this layout, inside the caller's transaction:
    /// prices in cents become thousandths, the known fields it lacks (`groupId`, `currency`, …)
    /// are added, and so is the word index. Every writer calls it before it writes; readers read
    /// every layout.
    static func upgrade(_ connection: Connection) throws {
        var existing: [String: String] = [:]
        let columns = try connection.prepare("SELECT name FROM pragma_table_info('\(table)')")
        while try columns.step() {
            let name = columns.text(at: 0) ?? ""
            existing[name.lowercased()] = name
        }
        var scaled: [String] = []
        for (old, field) in ProductField.centsColumns.sorted(by: { $0.key < $1.key }) {
            guard let name = existing[old.lowercased()], existing[field.columnName.lowercased()] == nil else { continue }
            try connection.execute("ALTER TABLE \(table) RENAME COLUMN \(quoteIdentifier(name)) TO \(field.columnName)")
            existing[field.columnName.lowercased()] = field.columnName
            scaled.append("\(field.columnName) = \(field.columnName) * 10")
        }
        if !scaled.isEmpty {
            try connection.execute("UPDATE \(table) SET \(scaled.joined(separator: ", "))")
        }
        for field in ProductField.allCases where existing[field.columnName.lowercased()] == nil {
            try connection.execute("ALTER TABLE \(table) ADD COLUMN \(field.columnDefinition)")
        }
        try WordLists.upgrade(connection)
        // Layouts 6 and 7 kept the order products were added in for the newest first; the word
        // index's places are that order now, on both engines.
        try connection.execute("""
            DROP TRIGGER IF EXISTS catalog_added_insert; DROP TRIGGER IF EXISTS catalog_added_delete;
            DROP TRIGGER IF EXISTS catalog_added_rename; DROP TABLE IF EXISTS catalog_added;
            """)
        try FacetIndex.upgrade(connection)
        if try connection.scalarInt("PRAGMA user_version") ?? 0 < Int64(version) {
            try connection.execute("PRAGMA user_version = \(version)")
        }
    }

    /// What an existing file at a path is.
    public enum FileKind: Sendable, Equatable {
        case missing, empty, catalog, otherDatabase, notADatabase
    }

    /// Looks at the file at `path`; throws ``CatalogError/notAFile(path:kind:)`` for a directory, device or FIFO.
    ///
    /// A catalog whose last writer was killed mid-transaction has a hot journal beside it, which
    /// a read-only connection cannot roll back; this rolls it back (as any writer would on its
    /// next open), so every command finds the catalog as it was before the interrupted write.
    public static func kind(ofFileAt path: String) throws -> FileKind {
        let size: Int
        do {
            switch try FileSystem.entry(at: path) {
            case .missing: return .missing
            case .regular(let bytes, _, _, _): size = bytes
            case .other(let kind): throw CatalogError.notAFile(path: path, kind: kind)
            }
        } catch let error as ByteSourceError {
            throw CatalogError.notAFile(path: path, kind: "unreadable (\(error.reason))")
        }
        if size == 0 { return .empty }
        do {
            return try readKind(path)
        } catch let error as SQLiteError where error.isHotJournal {
            try rollBackInterruptedWrite(path)
            return try readKind(path)
        } catch let error as SQLiteError where error.isNotADatabase {
            return .notADatabase
        }
    }

    private static func readKind(_ path: String) throws -> FileKind {
        let connection = try Connection.reading(path)
        connection.setBusyTimeout(milliseconds: 5_000)
        let id = try connection.scalarInt("PRAGMA application_id")
        return id == Int64(applicationID) ? .catalog : .otherDatabase
    }

    /// Rolls back the hot journal a killed writer left beside `path`, by reading it once read-write.
    public static func rollBackInterruptedWrite(_ path: String) throws {
        do {
            let connection = try Connection(path: path, mode: .readWrite)
            connection.setBusyTimeout(milliseconds: 5_000)
            _ = try connection.scalarInt("SELECT count(*) FROM sqlite_master")
        } catch let error as SQLiteError where error.isHotJournal || error.isReadOnly || error.isCannotOpen {
            throw CatalogError.unfinishedWrite(path: path)
        }
    }

    /// Drops the trigger `name` when its SQL lacks `text`, so that the `CREATE TRIGGER IF NOT
    /// EXISTS` after it makes the current one: a catalog made by an earlier version gets it at
    /// its next write, and one that has it is not touched (a schema change makes every
    /// connection prepare its statements again).
    static func replaceTrigger(_ name: String, unlessItHas text: String, _ connection: Connection) throws {
        guard let sql = try connection.scalarText("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = '\(name)'"),
              !sql.contains(text) else { return }
        try connection.execute("DROP TRIGGER \(name)")
    }

}
