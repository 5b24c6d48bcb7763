/// The catalog's word index: the words of each product's title, brand and type, in SQLite FTS5.
///
/// ```sql
/// CREATE TABLE word_products (wordRow INTEGER PRIMARY KEY, productId TEXT NOT NULL COLLATE NOCASE);
/// CREATE INDEX word_products_productId ON word_products (productId);
/// CREATE VIRTUAL TABLE words USING fts5 (title, brand, productType, content='', detail=none,
///   columnsize=0, tokenize='unicode61 remove_diacritics 2');
/// CREATE TABLE word_terms (term TEXT PRIMARY KEY) WITHOUT ROWID;
/// CREATE TABLE word_terms_pending (wordRow INTEGER PRIMARY KEY);
/// ```
///
/// `products` is `WITHOUT ROWID`, and FTS5 finds rows by integer rowid, so `word_products` gives
/// each product a number, its `wordRow`: the index's rowid. A replacing import numbers the
/// products in productId order; products added later (by an upsert or an edit) come after them,
/// and an edited product keeps its number. Word matches are listed in `wordRow` order, which
/// keyset pagination follows as cheaply as it follows productIds.
///
/// The index is contentless (`content=''`) and keeps no word positions or lengths (`detail=none`,
/// `columnsize=0`): it answers "which rows have words starting so", all a search needs, at the
/// least cost. The description is not indexed: its length would multiply that cost. Words are
/// matched ignoring case and accents (`cafe` finds `Café`), by prefix.
///
/// A replacing import fills the index as it writes the rows, then adds the triggers; from then
/// on the triggers keep it exact through upserts, edits, deletes and renames.
///
/// `word_terms` lists the index's terms (folded words), so that a search can turn a word prefix
/// into the terms it stands for and match those exactly. FTS5 (as of SQLite 3.40) answers a
/// prefix query only after merging the rows of every term with that prefix, which made the
/// first page for `shirt*` cost 10 ms on a million products and 100 ms on ten million; matching
/// the term `shirt` reads the first rows and stops. The list may hold terms no product has any
/// more. A write that may bring new terms notes the product in `word_terms_pending` (the
/// triggers do, so any program's write does), and this library's writers list the pending
/// products' terms before they commit (``foldPendingTerms(_:)``); while a product is pending,
/// searches fall back to prefix queries, which are slower but find the same products.
enum WordIndex {
    static let table = "words"
    static let rowsTable = "word_products"
    static let termsTable = "word_terms"
    static let pendingTable = "word_terms_pending"
    /// The product columns whose words are indexed.
    static let columns: [ProductField] = [.title, .brand, .productType]

    /// The statements that create the empty tables, without the triggers (see ``createTriggers(_:)``).
    static var createStatements: String {
        """
        CREATE TABLE \(rowsTable) (wordRow INTEGER PRIMARY KEY, productId TEXT NOT NULL COLLATE NOCASE);
        CREATE INDEX \(rowsTable)_productId ON \(rowsTable) (productId);
        CREATE VIRTUAL TABLE \(table) USING fts5 (
          \(columnList), content='', detail=none, columnsize=0, tokenize='unicode61 remove_diacritics 2'
        );
        \(createTermStatements)
        """
    }

    private static var createTermStatements: String {
        """
        CREATE TABLE \(termsTable) (term TEXT PRIMARY KEY) WITHOUT ROWID;
        CREATE TABLE \(pendingTable) (wordRow INTEGER PRIMARY KEY);
        """
    }

    /// True when the catalog on `connection` lists its index's terms (layout 4 on).
    static func hasTermList(_ connection: Connection) throws -> Bool {
        try connection.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '\(termsTable)'") ?? 0 > 0
    }

    /// True when every term of the index is in `word_terms`: the list exists and no product is pending.
    static func termsAreComplete(_ connection: Connection) throws -> Bool {
        guard try hasTermList(connection) else { return false }
        return try connection.scalarInt("SELECT NOT EXISTS (SELECT 1 FROM \(pendingTable))") == 1
    }

    /// Lists every term of the index in `word_terms`, read from the index itself: for a
    /// replacing import at its end (0.8 s for ten million generated titles), or an upgrade.
    static func listAllTerms(_ connection: Connection) throws {
        try connection.execute("""
            CREATE VIRTUAL TABLE temp.catalog_word_vocabulary USING fts5vocab(main, \(table), row);
            INSERT OR IGNORE INTO \(termsTable) (term) SELECT term FROM temp.catalog_word_vocabulary;
            DROP TABLE temp.catalog_word_vocabulary;
            DELETE FROM \(pendingTable);
            """)
    }

    /// Adds the terms of the pending products to `word_terms`, with the index's own tokenizer,
    /// and clears the pending list; inside the caller's transaction.
    static func foldPendingTerms(_ connection: Connection) throws {
        guard try hasTermList(connection),
              try connection.scalarInt("SELECT EXISTS (SELECT 1 FROM \(pendingTable))") == 1 else { return }
        let tokenizer = try WordTokenizer(connection: connection)
        let pending = try connection.prepare("""
            SELECT \(columns.map { "p.\($0.columnName)" }.joined(separator: ", ")) FROM \(pendingTable) q
              JOIN \(rowsTable) w ON w.wordRow = q.wordRow JOIN \(CatalogSchema.table) p ON p.productId = w.productId
            """)
        let insert = try connection.prepare("INSERT OR IGNORE INTO \(termsTable) (term) VALUES (?1)")
        while try pending.step() {
            for index in columns.indices {
                guard let text = pending.text(at: Int32(index)) else { continue }
                for term in try tokenizer.tokens(text) {
                    try insert.using {
                        try insert.bind(1, term)
                        _ = try insert.step()
                    }
                }
            }
        }
        try connection.execute("DELETE FROM \(pendingTable)")
    }

    /// True when the catalog on `connection` has the index.
    static func exists(_ connection: Connection) throws -> Bool {
        try connection.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '\(table)'") ?? 0 > 0
    }

    /// Gives the index a catalog that lacks it, filled from its products, and makes sure the
    /// triggers are there; inside the caller's transaction.
    static func upgrade(_ connection: Connection) throws {
        if try !exists(connection) {
            try connection.execute(createStatements)
            try indexNewProducts(connection)
            try listAllTerms(connection)
        } else if try !hasTermList(connection) {
            // Layout 3: the index without its term list, and triggers that do not note pending products.
            try connection.execute(createTermStatements)
            try listAllTerms(connection)
            try connection.execute("DROP TRIGGER IF EXISTS words_insert; DROP TRIGGER IF EXISTS words_update;")
        }
        try createTriggers(connection)
    }

    /// Indexes the products not yet in the index, which come after the last one in it in productId
    /// order, numbering them on from it.
    ///
    /// The import calls it after each transaction's rows, which are the last ones in productId
    /// order, while its table has only the `presentColumns` its file fills (all, for nil). The
    /// numbers are the rowids `word_products` gives (a window function numbering the rows would
    /// sort them all again: 0.65 s a million), and each row's words are read back by its key.
    static func indexNewProducts(presentColumns: [String]? = nil, _ connection: Connection) throws {
        let values = columns.map { field in
            presentColumns.map { $0.contains(field.columnName) } ?? true ? "p.\(field.columnName)" : "NULL"
        }.joined(separator: ", ")
        let lastRow = try connection.scalarInt("SELECT ifnull(max(wordRow), 0) FROM \(rowsTable)") ?? 0
        let lastProductId = try connection.scalarText("SELECT productId FROM \(rowsTable) WHERE wordRow = \(lastRow)")
        let rows = try connection.prepare(
            "INSERT INTO \(rowsTable) (productId) SELECT productId FROM \(CatalogSchema.table)"
                + (lastProductId == nil ? "" : " WHERE productId > ?1") + " ORDER BY productId")
        try rows.using {
            if let lastProductId { try rows.bind(1, lastProductId) }
            _ = try rows.step()
        }
        try connection.execute("""
            INSERT INTO \(table) (rowid, \(columnList))
              SELECT w.wordRow, \(values) FROM \(rowsTable) w JOIN \(CatalogSchema.table) p ON p.productId = w.productId
              WHERE w.wordRow > \(lastRow)
            """)
    }

    /// The triggers that keep the index exact through every later write of a product.
    static func createTriggers(_ connection: Connection) throws {
        let new = columns.map { "new.\($0.columnName)" }.joined(separator: ", ")
        let old = columns.map { "old.\($0.columnName)" }.joined(separator: ", ")
        let forget = """
            INSERT INTO \(table) (\(table), rowid, \(columnList))
              SELECT 'delete', wordRow, \(old) FROM \(rowsTable) WHERE productId = old.productId;
            """
        try connection.execute("""
            CREATE TRIGGER IF NOT EXISTS words_insert AFTER INSERT ON \(CatalogSchema.table) BEGIN
              INSERT INTO \(rowsTable) (productId) VALUES (new.productId);
              INSERT INTO \(table) (rowid, \(columnList)) VALUES (last_insert_rowid(), \(new));
              INSERT OR IGNORE INTO \(pendingTable) (wordRow) SELECT wordRow FROM \(rowsTable) WHERE productId = new.productId;
            END;
            CREATE TRIGGER IF NOT EXISTS words_update AFTER UPDATE OF productId, \(columnList) ON \(CatalogSchema.table) BEGIN
              \(forget)
              UPDATE \(rowsTable) SET productId = new.productId WHERE productId = old.productId;
              INSERT INTO \(table) (rowid, \(columnList))
                SELECT wordRow, \(new) FROM \(rowsTable) WHERE productId = new.productId;
              INSERT OR IGNORE INTO \(pendingTable) (wordRow) SELECT wordRow FROM \(rowsTable) WHERE productId = new.productId;
            END;
            CREATE TRIGGER IF NOT EXISTS words_delete AFTER DELETE ON \(CatalogSchema.table) BEGIN
              \(forget)
              DELETE FROM \(rowsTable) WHERE productId = old.productId;
            END;
            """)
    }

    private static var columnList: String {
        columns.map(\.columnName).joined(separator: ", ")
    }
}
