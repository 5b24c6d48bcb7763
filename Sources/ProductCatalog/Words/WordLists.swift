/// The catalog's own word index: every term's and every short start's list of products, in the
/// order search lists them, packed into page-sized rows; what search reads its words from.
///
/// ```sql
/// CREATE TABLE word_lists (block INTEGER PRIMARY KEY, data BLOB NOT NULL);          -- PostingBlocks
/// CREATE TABLE word_list_starts (list, row, block, PRIMARY KEY (list, row)) WITHOUT ROWID;
/// CREATE TABLE word_list_terms (block INTEGER PRIMARY KEY, data BLOB NOT NULL);     -- TermList
/// CREATE TABLE word_places (place INTEGER PRIMARY KEY, firstId TEXT, data BLOB);    -- PlaceMap
/// CREATE TABLE word_lists_meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
/// ```
///
/// **Order.** A list holds a product's *word row*: the number of words in its title (its class,
/// 1 to 62) above its place, its productId's rank among the products of the replacing import
/// that built the index. So a list reads the products with the shortest, most focused titles
/// first, and within a class in the catalog's order; a search's keyset cursor is a list position.
///
/// **Terms.** Words are folded by the index's tokenizer (FTS5's `unicode61 remove_diacritics 2`,
/// called directly: `Café` is `cafe`). Each term has a list, and so does each start of one to
/// three characters of a term, whose list is the union of its terms': a keystroke's short last
/// word reads one list. So does a start of four characters that more than 256 terms have (a
/// real language's `schw`, `niep`: hundreds to thousands of terms, each a list to merge). Each posting says which of the title, brand and type hold the term.
///
/// **Built** by a replacing import on its second core (``WordIndexBuild``) and copied into the
/// new file before the swap, as the index's base segment; every write after it adds a segment of
/// its own (``SegmentManifest``, ``SegmentWriter``). `maxPlace` in `word_lists_meta` is the
/// import's last place, `version` a number of its build (a search's caches are the build's).
@_spi(WordIndex) public enum WordLists {
    /// The product fields whose words the index holds, in the order of ``Posting``'s field bits.
    public static let fields: [ProductField] = [.title, .brand, .productType]
    public static let metaTable = "word_lists_meta"

    /// The statements that create the index's empty tables.
    public static var createStatements: String {
        """
        \(SQLitePostingStore.createStatements)
        \(TermList.createStatement);
        \(PlaceMap.createStatement);
        \(SortLists.createStatement);
        \(SegmentPlaces.createStatement);
        \(SegmentManifest.createStatement);
        CREATE TABLE IF NOT EXISTS \(metaTable) (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
        """
    }

    /// The statements that drop the index's tables.
    static var dropStatements: String {
        (tables + [SegmentMerge.table, SegmentMerge.termsTable, SegmentMerge.garbageTable]).map { "DROP TABLE IF EXISTS \($0);\n" }.joined()
    }

    /// The word index of layouts 3 to 5, FTS5's (its tables, triggers and index), which this
    /// layout's replaces.
    static let dropFTS5Statements = """
        DROP TRIGGER IF EXISTS words_insert; DROP TRIGGER IF EXISTS words_update; DROP TRIGGER IF EXISTS words_delete;
        DROP TABLE IF EXISTS words; DROP TABLE IF EXISTS word_products; DROP TABLE IF EXISTS word_terms;
        DROP TABLE IF EXISTS word_prefixes; DROP TABLE IF EXISTS word_terms_pending; DROP TABLE IF EXISTS word_pending;
        DROP TABLE IF EXISTS word_meta; DROP TABLE IF EXISTS word_stale;
        """

    /// Gives the catalog on `connection` this layout's index, inside the caller's transaction:
    /// one made by an earlier version drops FTS5's and has its index built from its products;
    /// one of layout 7 (a base and notes, no segments) gets the list of segments, its base alone,
    /// and keeps its notes for the next segment. Then the triggers that note changes
    /// (``ChangeNotes``) are made. Every writer calls it before it writes (``CatalogSchema/upgrade(_:)``).
    static func upgrade(_ connection: Connection) throws {
        if try connection.hasTable("word_products") || connection.hasTable("words") {
            try connection.execute(dropFTS5Statements)
        }
        // Layout 6 kept no sort lists: its indexes by price and by title give way to them.
        if try !exists(connection) || !SortLists.exists(connection) {
            try connection.execute("DROP INDEX IF EXISTS \(CatalogSchema.table)_price; DROP INDEX IF EXISTS \(CatalogSchema.table)_title;")
            try WordListsWriter.rebuild(connection, spillPath: connection.path + ".words")
        }
        if try !SegmentManifest.exists(connection) {
            let products = try maxPlace(connection)
            let nextPlace = try SegmentManifest.nextPlace(connection)
            try connection.execute(SegmentPlaces.createStatement)
            try SegmentManifest.startWithBase(products: Int(products), postings: 0, connection)
            try SegmentManifest.setCounter("nextPlace", nextPlace, connection)
            // Layout 7's notes, with their origins, stay; their table gains the state of each.
            if try connection.hasTable(ChangeNotes.table),
               try connection.scalarInt("SELECT count(*) FROM pragma_table_info('\(ChangeNotes.table)') WHERE name = 'state'") == 0 {
                try connection.execute("ALTER TABLE \(ChangeNotes.table) ADD COLUMN state INTEGER NOT NULL DEFAULT 0")
            }
        }
        for trigger in ["word_changes_insert", "word_changes_update", "word_changes_delete"] {
            try CatalogSchema.replaceTrigger(trigger, unlessItHas: "state", connection)
        }
        // Layout 7 noted the sort lists' changes apart; the next segment takes its notes in.
        try connection.execute("DROP TRIGGER IF EXISTS sort_changes_insert; DROP TRIGGER IF EXISTS sort_changes_update; DROP TRIGGER IF EXISTS sort_changes_delete;")
        try connection.execute(ChangeNotes.createStatements)
    }

    /// The tables copied from a build's file into the catalog.
    static let tables = [SQLitePostingStore.blocksTable, SQLitePostingStore.startsTable, TermList.table, PlaceMap.table,
                         SortLists.table, SegmentPlaces.table, SegmentManifest.table, metaTable]

    /// True when the catalog on `connection` has this index.
    public static func exists(_ connection: Connection) throws -> Bool {
        try connection.hasTable(TermList.table) && connection.hasTable(metaTable)
    }

    /// Replaces the index of the catalog on `connection` with that of the attached database `schema`.
    static func adopt(from schema: String, _ connection: Connection) throws {
        try connection.execute(createStatements)
        var statements = ""
        for table in tables {
            statements += "DELETE FROM main.\(table); INSERT INTO main.\(table) SELECT * FROM \(schema).\(table);\n"
        }
        try connection.execute(statements)
    }

    /// The last place of the index's products.
    public static func maxPlace(_ connection: Connection) throws -> Int64 {
        try connection.scalarInt("SELECT value FROM \(metaTable) WHERE name = 'maxPlace'") ?? 0
    }

    static func setMaxPlace(_ place: Int64, _ connection: Connection) throws {
        try connection.execute("INSERT OR REPLACE INTO \(metaTable) (name, value) VALUES ('maxPlace', \(place))")
    }

    /// A number that changes whenever the index is built anew (a replacing import): places and
    /// segments mean nothing across builds.
    public static func version(_ connection: Connection) throws -> Int64 {
        try connection.scalarInt("SELECT value FROM \(metaTable) WHERE name = 'version'") ?? 0
    }

    static func setVersion(_ version: Int64, _ connection: Connection) throws {
        try connection.execute("INSERT OR REPLACE INTO \(metaTable) (name, value) VALUES ('version', \(version))")
    }
}
