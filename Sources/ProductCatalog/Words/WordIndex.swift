/// The catalog's word index: the words of each product's title, brand and type, in SQLite FTS5,
/// numbered so that the index's own order is the order search lists products in.
///
/// ```sql
/// CREATE TABLE word_products (wordRow INTEGER PRIMARY KEY, productId TEXT NOT NULL COLLATE NOCASE, titleKey INTEGER);
/// CREATE INDEX word_products_productId ON word_products (productId);
/// CREATE INDEX word_products_titleKey ON word_products (titleKey);
/// CREATE VIRTUAL TABLE words USING fts5 (title, brand, productType, content='', detail=column,
///   columnsize=0, prefix='1 2 3', tokenize='unicode61 remove_diacritics 2');
/// CREATE TABLE word_terms (term TEXT PRIMARY KEY, docs INTEGER NOT NULL) WITHOUT ROWID;
/// CREATE TABLE word_prefixes (prefix TEXT PRIMARY KEY, terms INTEGER NOT NULL, docs INTEGER NOT NULL) WITHOUT ROWID;
/// CREATE TABLE word_pending (wordRow INTEGER PRIMARY KEY);
/// CREATE TABLE word_meta (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
/// ```
///
/// **Order.** `products` is `WITHOUT ROWID` and FTS5 finds rows by integer rowid, so
/// `word_products` gives each product a number, its `wordRow`, which is the index's rowid:
/// the number of words in its title (its *class*, see ``WordPlacement``) in the high bits, then
/// its place in the catalog: productId order for the products of the last replacing import, the
/// order they were added in for later ones. FTS5 lists matches in rowid order, so a search reads
/// the products with the shortest, most focused titles first, and keyset pagination follows that
/// order as cheaply as it follows productIds. `titleKey` is a hash of the title's words, which
/// finds the products whose title is exactly what was typed.
///
/// **What is kept.** The index is contentless (`content=''`): the text is the product's, which
/// the triggers hand to FTS5 to take a row out (`old.title`…) and a search reads to check a
/// candidate's words. The index keeps which field each word is in (`detail=column`), so a search
/// can ask for words in the title alone, but not positions.
/// Words are matched ignoring case and accents (`cafe` finds `Café`). The description is not
/// indexed: its length would multiply the cost.
///
/// **Terms.** `word_terms` lists every term (folded word) with the number of products that had
/// it when it was listed, and `word_prefixes` the same totals for every start of one to three
/// characters: a search turns a typed prefix into the terms it stands for, or learns that it
/// stands for too many to list. The counts are estimates for planning, never for results; the
/// list may hold terms no product has any more.
///
/// **Writes.** A replacing import places each product as it writes it and builds the FTS5 index
/// and term lists on a thread of its own, in a file beside the build, merged into one segment and
/// copied in at its end (``WordIndexBuilder``). From then on the triggers keep the index exact through
/// upserts, edits, deletes and renames by any program: a product they add goes after all others
/// (class 63) and is noted in `word_pending`, with its title key and new terms still to settle;
/// this library's writers settle the pending products before they commit (``settlePending(_:)``),
/// moving each to its class. Until then a search finds such a product, just not in its place,
/// and plans without the terms it may have brought.
enum WordIndex {
    static let table = "words"
    static let rowsTable = "word_products"
    static let termsTable = "word_terms"
    static let prefixesTable = "word_prefixes"
    static let pendingTable = "word_pending"
    static let metaTable = "word_meta"
    /// The index entries a deferring writer has made stale (see ``deferWrites(_:)``).
    static let staleTable = "word_stale"
    /// The `word_meta` row that is present while this library's writer defers the index's writes.
    static let deferringFlag = "deferWords"
    /// The product columns whose words are indexed.
    static let columns: [ProductField] = [.title, .brand, .productType]
    /// The longest starts of terms `word_prefixes` counts, in characters.
    static let countedPrefixLength = 3
    /// The longest starts of terms FTS5's prefix index holds (`prefix='1 2 3'`), in characters:
    /// a prefix query of that length reads one list instead of merging every term's. The third
    /// character costs a fifth more index and build time (a realistic million: FTS5 alone
    /// 116 → 152 MB, 25 → 32 s unsorted), and saves a merge of every term that a three-letter
    /// start stands for (`sko*` on a realistic ten million: 176,340 products, 21 ms, each time a
    /// keystroke reads it).
    static let indexedPrefixLength = 3
    /// The FTS5 options of the prefix index, by which ``hasCurrentPrefixIndex(_:)`` tells an older layout.
    static let prefixOption = "prefix='1 2 3'"

    /// The statements that create the empty tables, without the triggers (see ``createTriggers(_:)``).
    static var createStatements: String {
        """
        CREATE TABLE \(rowsTable) (wordRow INTEGER PRIMARY KEY, productId TEXT NOT NULL COLLATE NOCASE, titleKey INTEGER);
        CREATE INDEX \(rowsTable)_productId ON \(rowsTable) (productId);
        \(createIndexStatements)
        CREATE TABLE \(pendingTable) (wordRow INTEGER PRIMARY KEY);
        CREATE TABLE \(metaTable) (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
        INSERT INTO \(metaTable) (name, value) VALUES ('nextPlace', 1);
        """
    }

    /// The statements that create the FTS5 index and the term lists: what ``WordIndexBuilder``
    /// builds in a file of its own and copies in.
    static var createIndexStatements: String {
        """
        CREATE VIRTUAL TABLE \(table) USING fts5 (
          \(columnList), content='', detail=column, columnsize=0, \(prefixOption), tokenize='unicode61 remove_diacritics 2'
        );
        CREATE TABLE \(termsTable) (term TEXT PRIMARY KEY, docs INTEGER NOT NULL) WITHOUT ROWID;
        CREATE TABLE \(prefixesTable) (prefix TEXT PRIMARY KEY, terms INTEGER NOT NULL, docs INTEGER NOT NULL) WITHOUT ROWID;
        """
    }

    /// True when the catalog on `connection` has the index in this layout (5); an older one is
    /// rebuilt by the next write (``upgrade(_:)``), and until then search finds productIds only.
    static func exists(_ connection: Connection) throws -> Bool {
        try connection.hasTable(prefixesTable) && connection.hasTable(table)
    }

    /// True when the index's prefix index holds starts of up to ``indexedPrefixLength`` characters.
    /// One made by an earlier version (`prefix='1 2'`) answers every search, merging the terms of a
    /// three-letter start, until the next write rebuilds it.
    static func hasCurrentPrefixIndex(_ connection: Connection) throws -> Bool {
        let statement = try connection.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?1")
        try statement.bind(1, table)
        return try statement.step() && (statement.text(at: 0)?.contains(prefixOption) ?? false)
    }

    /// True when no product waits for ``settlePending(_:)``: every product is in its place and every term listed.
    static func isSettled(_ connection: Connection) throws -> Bool {
        try connection.scalarInt("SELECT NOT EXISTS (SELECT 1 FROM \(pendingTable))") == 1
    }

    // MARK: - Building the index whole

    /// Places and indexes every product in productId order, numbering them on: how an upgrade
    /// builds the index in place. (A replacing import builds it beside, see ``WordIndexBuilder``.)
    static func placeProducts(_ connection: Connection) throws {
        let rows = try connection.prepare("SELECT productId, \(columnList) FROM \(CatalogSchema.table) ORDER BY productId")
        let insert = try connection.prepare("INSERT INTO \(rowsTable) (wordRow, productId, titleKey) VALUES (?1, ?2, ?3)")
        var place = try nextPlace(connection)
        let placement = try WordPlacement(connection: connection)
        var indexed: [IndexedRow] = []
        try rows.using {
            while try rows.step() {
                let shape = try rows.withBytes(at: 1) { try placement.shape(ofTitle: $0) }
                let row = WordPlacement.row(class: shape.wordClass, place: place)
                try insert.using {
                    try insert.bind(1, row)
                    try insert.bind(2, rows.text(at: 0))
                    try insert.bind(3, shape.key)
                    _ = try insert.step()
                }
                indexed.append(IndexedRow(row: row, fields: (1...Int32(columns.count)).map { rows.text(at: $0) }))
                place += 1
            }
        }
        try setNextPlace(place, connection)
        try index(indexed.sorted { $0.row < $1.row }, connection)
    }

    /// A product's row and its indexed fields, on their way to FTS5.
    private struct IndexedRow {
        var row: Int64
        var fields: [String?]
    }

    /// Adds `rows` (in word-row order) to the index.
    private static func index(_ rows: [IndexedRow], _ connection: Connection) throws {
        let insert = try connection.prepare("INSERT INTO \(table) (rowid, \(columnList)) VALUES (?1, ?2, ?3, ?4)")
        for row in rows {
            try insert.using {
                try insert.bind(1, row.row)
                for (offset, field) in row.fields.enumerated() { try insert.bind(Int32(2 + offset), field) }
                _ = try insert.step()
            }
        }
    }

    /// Completes the index of an upgrade: merges its segments into one, indexes the title keys,
    /// lists the terms and counts their starts.
    static func finishIndex(_ connection: Connection) throws {
        try mergeSegments(connection)
        try indexTitleKeys(connection)
        try listAllTerms(connection)
    }

    /// Merges the index's segments into one, and lets later writes merge theirs as they go.
    static func mergeSegments(_ connection: Connection) throws {
        try connection.execute("""
            INSERT INTO \(table) (\(table)) VALUES ('optimize');
            INSERT INTO \(table) (\(table), rank) VALUES ('automerge', 4);
            """)
    }

    /// Indexes the title keys of every placed product.
    ///
    /// The keys are hashes, in no order: indexed at once, by one sort, rather than row by row.
    static func indexTitleKeys(_ connection: Connection) throws {
        try connection.execute("CREATE INDEX \(rowsTable)_titleKey ON \(rowsTable) (titleKey)")
    }

    /// Lists every term of the index with its product count, read from the index itself (about
    /// a second for a million products), counts the terms and products of each start of up
    /// to ``countedPrefixLength`` characters, and settles every pending product's terms.
    static func listAllTerms(_ connection: Connection) throws {
        try countTerms(connection)
        try connection.execute("DELETE FROM \(pendingTable)")
        try bumpTermsVersion(connection)
    }

    /// Fills the term lists from the index (see ``listAllTerms(_:)``).
    static func countTerms(_ connection: Connection) throws {
        var statements = """
            CREATE VIRTUAL TABLE temp.catalog_word_vocabulary USING fts5vocab(main, \(table), row);
            DELETE FROM \(termsTable);
            INSERT INTO \(termsTable) (term, docs) SELECT term, doc FROM temp.catalog_word_vocabulary;
            DROP TABLE temp.catalog_word_vocabulary;
            DELETE FROM \(prefixesTable);
            """
        for length in 1...countedPrefixLength {
            statements += """

                INSERT INTO \(prefixesTable) (prefix, terms, docs)
                  SELECT substr(term, 1, \(length)), count(*), sum(docs) FROM \(termsTable)
                  WHERE length(term) >= \(length) GROUP BY 1;
                """
        }
        try connection.execute(statements)
    }

    /// Replaces the index and term lists of the catalog on `connection` with those of the
    /// attached database `schema` (see ``WordIndexBuilder``).
    ///
    /// FTS5 keeps its index in ordinary tables, which copy as they are; `connection` must not
    /// have read the index before (FTS5 caches its structure).
    static func adoptIndex(from schema: String, _ connection: Connection) throws {
        var statements = ""
        for shadow in ["\(table)_data", "\(table)_idx", "\(table)_config", termsTable, prefixesTable] {
            statements += "DELETE FROM main.\(shadow); INSERT INTO main.\(shadow) SELECT * FROM \(schema).\(shadow);\n"
        }
        try connection.execute(statements)
        try connection.execute("DELETE FROM \(pendingTable)")
        try bumpTermsVersion(connection)
    }

    // MARK: - Later writes

    /// Settles the products the triggers noted since the last call, inside the caller's
    /// transaction: gives each its title key, moves it to its class (keeping its place, or giving
    /// a new product the next one), and lists its new terms. After ``deferWrites(_:)``, it also
    /// takes the stale entries out of the index and puts the pending products in, each in rowid
    /// order, and ends the deferral.
    static func settlePending(_ connection: Connection) throws {
        let deferring = try isDeferring(connection)
        if deferring { try forgetStale(connection) }
        guard try !isSettled(connection) else { return }
        let placement = try WordPlacement(connection: connection)
        // The pending rows first (CROSS JOIN keeps that order): SQLite, knowing no table's size,
        // would otherwise walk all of word_products in rowid order to meet the ORDER BY.
        let pending = try connection.prepare("""
            SELECT w.wordRow, \(columns.map { "p.\($0.columnName)" }.joined(separator: ", "))
              FROM \(pendingTable) q CROSS JOIN \(rowsTable) w ON w.wordRow = q.wordRow CROSS JOIN \(CatalogSchema.table) p ON p.productId = w.productId
              ORDER BY q.wordRow
            """)
        var rows: [(row: Int64, fields: [String?])] = []
        while try pending.step() {
            rows.append((pending.int64(at: 0), (0..<columns.count).map { pending.text(at: Int32(1 + $0)) }))
        }
        let addTerm = try connection.prepare("INSERT INTO \(termsTable) (term, docs) VALUES (?1, ?2) ON CONFLICT (term) DO UPDATE SET docs = docs + ?2")
        let setKey = try connection.prepare("UPDATE \(rowsTable) SET titleKey = ?2 WHERE wordRow = ?1")
        let move = try connection.prepare("UPDATE \(rowsTable) SET wordRow = ?2, titleKey = ?3 WHERE wordRow = ?1")
        let forget = try connection.prepare("INSERT INTO \(table) (\(table), rowid, \(columnList)) VALUES ('delete', ?1, ?2, ?3, ?4)")
        let index = try connection.prepare("INSERT INTO \(table) (rowid, \(columnList)) VALUES (?1, ?2, ?3, ?4)")
        /// Runs `statement` (`forget` or `index`) for a row and its words.
        func write(_ statement: Statement, _ row: Int64, _ fields: [String?]) throws {
            try statement.using {
                try statement.bind(1, row)
                for (offset, field) in fields.enumerated() { try statement.bind(Int32(2 + offset), field) }
                _ = try statement.step()
            }
        }
        var next = try nextPlace(connection)
        // Deferred, the pending products are not in the index yet: they go in at the end, in rowid order.
        var deferred: [(row: Int64, fields: [String?])] = []
        // How many of the settled products have each term.
        var termProducts: [String: Int] = [:]
        for (row, fields) in rows {
            let shape = try placement.shape(ofTitle: fields[0] ?? "")
            let place: Int64
            if WordPlacement.wordClass(of: row) == WordPlacement.unplacedClass {
                place = next
                next += 1
            } else {
                place = WordPlacement.place(of: row)
            }
            let settled = WordPlacement.row(class: shape.wordClass, place: place)
            if settled == row {
                try setKey.using {
                    try setKey.bind(1, row)
                    try setKey.bind(2, shape.key)
                    _ = try setKey.step()
                }
            } else {
                if !deferring { try write(forget, row, fields) }
                try move.using {
                    try move.bind(1, row)
                    try move.bind(2, settled)
                    try move.bind(3, shape.key)
                    _ = try move.step()
                }
                if !deferring { try write(index, settled, fields) }
            }
            if deferring { deferred.append((settled, fields)) }
            var terms = Set<String>()
            for field in fields {
                guard let field else { continue }
                terms.formUnion(try placement.tokenizer.tokens(field))
            }
            for term in terms { termProducts[term, default: 0] += 1 }
        }
        // Each term once, in the list's (byte) order: many products share their terms.
        for (term, products) in termProducts.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            try addTerm.using {
                try addTerm.bind(1, term)
                try addTerm.bind(2, Int64(products))
                _ = try addTerm.step()
            }
        }
        for (row, fields) in deferred.sorted(by: { $0.row < $1.row }) { try write(index, row, fields) }
        try setNextPlace(next, connection)
        try connection.execute("DELETE FROM \(pendingTable)")
        try bumpTermsVersion(connection)
    }

    /// Takes the entries a deferring writer made stale out of the index, in rowid order, and
    /// ends the deferral (settling writes no products, so no trigger fires after it).
    private static func forgetStale(_ connection: Connection) throws {
        try connection.execute("""
            INSERT INTO \(table) (\(table), rowid, \(columnList))
              SELECT 'delete', wordRow, \(columnList) FROM \(staleTable) ORDER BY wordRow;
            DELETE FROM \(staleTable);
            DELETE FROM \(metaTable) WHERE name = '\(deferringFlag)';
            """)
    }

    /// A number that changes whenever terms may have been added to the list: a search that keeps
    /// the terms in memory (``TermDictionary``) reads them again when it changed.
    static func termsVersion(_ connection: Connection) throws -> Int64 {
        try connection.scalarInt("SELECT value FROM \(metaTable) WHERE name = 'termsVersion'") ?? 0
    }

    private static func bumpTermsVersion(_ connection: Connection) throws {
        try connection.execute("""
            INSERT INTO \(metaTable) (name, value) VALUES ('termsVersion', 1)
              ON CONFLICT (name) DO UPDATE SET value = value + 1
            """)
    }

    /// Gives a catalog an index of this layout, built from its products, and the triggers that
    /// keep it, inside the caller's transaction. An index of an earlier layout is dropped first.
    static func upgrade(_ connection: Connection) throws {
        if try !exists(connection) || !hasCurrentPrefixIndex(connection) {
            try connection.execute("""
                DROP TRIGGER IF EXISTS words_insert; DROP TRIGGER IF EXISTS words_update; DROP TRIGGER IF EXISTS words_delete;
                DROP TABLE IF EXISTS \(table); DROP TABLE IF EXISTS \(rowsTable); DROP TABLE IF EXISTS \(termsTable); DROP TABLE IF EXISTS \(prefixesTable);
                DROP TABLE IF EXISTS word_terms_pending; DROP TABLE IF EXISTS \(pendingTable); DROP TABLE IF EXISTS \(metaTable);
                DROP TABLE IF EXISTS \(staleTable);
                """)
            try connection.execute(createStatements)
            try placeProducts(connection)
            try finishIndex(connection)
        }
        try createTriggers(connection)
    }

    /// The triggers that keep the index exact through every later write of a product, by any program.
    ///
    /// While this library's upsert defers the index's writes (``deferWrites(_:)``), they leave
    /// FTS5 alone: a product changed or deleted has what the index holds for it noted in
    /// `word_stale` (once: its first state in the transaction, unless it is new in it), and every
    /// product added or changed waits in `word_pending`, for ``settlePending(_:)`` to write them
    /// all in rowid order.
    static func createTriggers(_ connection: Connection) throws {
        let new = columns.map { "new.\($0.columnName)" }.joined(separator: ", ")
        let old = columns.map { "old.\($0.columnName)" }.joined(separator: ", ")
        let deferring = "EXISTS (SELECT 1 FROM \(metaTable) WHERE name = '\(deferringFlag)')"
        let forget = """
            INSERT INTO \(table) (\(table), rowid, \(columnList))
                SELECT 'delete', wordRow, \(old) FROM \(rowsTable) WHERE productId = old.productId AND NOT \(deferring);
              INSERT OR IGNORE INTO \(staleTable) (wordRow, \(columnList))
                SELECT wordRow, \(old) FROM \(rowsTable) WHERE productId = old.productId AND \(deferring)
                  AND wordRow NOT IN (SELECT wordRow FROM \(pendingTable));
            """
        // An update that leaves the words as they were (an upsert's price change) keeps the index as it is.
        let changed = (["productId"] + columns.map(\.columnName)).map { "old.\($0) IS NOT new.\($0) COLLATE BINARY" }.joined(separator: " OR ")
        // A deferring writer leaves the word row of a product that keeps its productId alone: ``settlePending(_:)`` gives it its new key.
        let renamedOrNotDeferring = "(old.productId IS NOT new.productId COLLATE BINARY OR NOT \(deferring))"
        for trigger in ["words_insert", "words_delete"] {
            try CatalogSchema.replaceTrigger(trigger, unlessItHas: deferringFlag, connection)
        }
        try CatalogSchema.replaceTrigger("words_update", unlessItHas: renamedOrNotDeferring, connection)
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS \(staleTable) (wordRow INTEGER PRIMARY KEY, \(columnList));
            CREATE TRIGGER IF NOT EXISTS words_insert AFTER INSERT ON \(CatalogSchema.table) BEGIN
              INSERT INTO \(rowsTable) (wordRow, productId, titleKey)
                VALUES (max(ifnull((SELECT max(wordRow) FROM \(rowsTable)), 0) + 1, \(WordPlacement.unplacedClass) << \(WordPlacement.placeBits)),
                        new.productId, NULL);
              INSERT INTO \(table) (rowid, \(columnList)) SELECT last_insert_rowid(), \(new) WHERE NOT \(deferring);
              INSERT OR IGNORE INTO \(pendingTable) (wordRow) VALUES (last_insert_rowid());
            END;
            CREATE TRIGGER IF NOT EXISTS words_update AFTER UPDATE OF productId, \(columnList) ON \(CatalogSchema.table)
              WHEN \(changed) BEGIN
              \(forget)
              UPDATE \(rowsTable) SET productId = new.productId, titleKey = NULL WHERE productId = old.productId AND \(renamedOrNotDeferring);
              INSERT INTO \(table) (rowid, \(columnList))
                SELECT wordRow, \(new) FROM \(rowsTable) WHERE productId = new.productId AND NOT \(deferring);
              INSERT OR IGNORE INTO \(pendingTable) (wordRow) SELECT wordRow FROM \(rowsTable) WHERE productId = new.productId;
            END;
            CREATE TRIGGER IF NOT EXISTS words_delete AFTER DELETE ON \(CatalogSchema.table) BEGIN
              \(forget)
              DELETE FROM \(pendingTable) WHERE wordRow IN (SELECT wordRow FROM \(rowsTable) WHERE productId = old.productId);
              DELETE FROM \(rowsTable) WHERE productId = old.productId;
            END;
            """)
    }

    /// Makes the triggers defer the index's writes until ``settlePending(_:)``, inside the
    /// caller's transaction, after settling what earlier writers left pending.
    ///
    /// FTS5 starts a new segment whenever a row comes before the last one it wrote: an upsert's
    /// rows come in productId order, in no order of word rows, so writing each product's words
    /// as it changes cost a segment per product (1,000 changed titles in ten million products:
    /// 1.3 s, against 0.06 s for the same words written in rowid order). The flag is a row of
    /// the transaction, so no other connection ever sees it, and a killed writer's rollback
    /// takes it away with everything else.
    static func deferWrites(_ connection: Connection) throws {
        try settlePending(connection)
        try connection.execute("INSERT OR REPLACE INTO \(metaTable) (name, value) VALUES ('\(deferringFlag)', 1)")
    }

    /// True while the catalog on `connection` defers the index's writes.
    static func isDeferring(_ connection: Connection) throws -> Bool {
        try connection.scalarInt("SELECT count(*) FROM \(metaTable) WHERE name = '\(deferringFlag)'") == 1
    }

    // MARK: - Places

    static func nextPlace(_ connection: Connection) throws -> Int64 {
        try connection.scalarInt("SELECT value FROM \(metaTable) WHERE name = 'nextPlace'") ?? 1
    }

    static func setNextPlace(_ place: Int64, _ connection: Connection) throws {
        try connection.execute("INSERT OR REPLACE INTO \(metaTable) (name, value) VALUES ('nextPlace', \(place))")
    }

    static var columnList: String {
        columns.map(\.columnName).joined(separator: ", ")
    }
}
