import ProductCatalog

/// The shape of a catalog on PostgreSQL: the tables in the location's schema and their indexes.
///
/// ```sql
/// CREATE TABLE products (
///   "productId" text COLLATE "C" NOT NULL, title text, "listPriceMilli" bigint, …, "<each extra header>" text,
///   catalog_words tsvector NOT NULL, catalog_word_row bigint NOT NULL, catalog_title_key bigint NOT NULL
/// );
/// CREATE UNIQUE INDEX products_key ON products (lower("productId"));
/// CREATE INDEX products_words ON products USING gin (catalog_words);
/// CREATE INDEX products_title_key ON products (catalog_title_key);
/// CREATE INDEX products_word_row ON products (catalog_word_row);
/// CREATE INDEX products_family ON products ("groupId") WHERE "groupId" <> '';
/// CREATE TABLE catalog_terms (term text COLLATE "C" PRIMARY KEY, docs bigint NOT NULL);
/// CREATE TABLE catalog_meta (name text PRIMARY KEY, value bigint NOT NULL);
/// ```
///
/// Column names are those of the SQLite catalog, quoted. `productId` has the `C` collation, so
/// `lower("productId")` folds ASCII letters only, as SQLite's `NOCASE` does: `ab12` and `AB12`
/// are one product, the unique index's order is the search order, and a prefix is one range of
/// it. `catalog_words` holds the words of the title, brand and type as a ``WordFolder`` folds
/// them (lower case, no accents, the SQLite catalog's words exactly), written by this tool with
/// every row and matched by PostgreSQL's full-text search: the title's words with weight `A`,
/// the brand's and type's with `B`, so a query can ask for words in the title alone. So the same
/// query finds the same products in a file and here, and the index builds in less than half the
/// time it took over `to_tsvector` (which split every title on the server while the index was built).
///
/// Search lists word matches in the file's order (see ``PostgresWordTiers``): `catalog_word_row`
/// is the product's row in a file's word index (the number of its title's words above its place,
/// productId order for a replacing import's products, the order they came in after), and
/// `catalog_title_key` the hash of its title's words (``WordFolder/titleShape(_:place:)``).
/// `catalog_terms` lists every word with the products holding it, which a search plans by
/// (``WordVocabulary``); `catalog_meta` holds the next place (`nextPlace`) and a number that
/// changes whenever terms are added (`termsVersion`). A replacing import builds
/// `products_importing` and `catalog_terms_importing` and renames them over the live ones in one transaction.
enum PostgresSchema {
    static let table = "products"
    /// The table a replacing import fills, renamed over ``table`` when complete.
    static let buildTable = "products_importing"
    /// The live table's name for the moment of the swap, before it is dropped.
    static let replacedTable = "products_replaced"
    /// The upsert's rows, in a temporary table of the import's session.
    static let upsertTable = "products_upsert"
    /// The starred productIds, kept beside the products.
    static let favoritesTable = "catalog_favorites"
    /// The productIds (folded) added, edited or deleted by hand since the last replacing import.
    static let editsTable = "catalog_edits"
    /// The collections: manual ones (no search) and smart ones (a saved search), by folded name.
    static let collectionsTable = "catalog_collections"
    /// The products (folded productIds) of each manual collection (folded name).
    static let collectionMembersTable = "catalog_collection_products"
    /// Each product's quantity at each store, by folded productId and store, made by the first stock import.
    static let stockTable = "catalog_stock"
    /// A stock import's rows as read, in a temporary table of the import's session.
    static let stagedStockTable = "stock_staged"
    /// The table comment that marks a catalog made by this tool.
    static let marker = "ProductCatalog products, layout 3"
    /// The markers of earlier layouts: words found by `to_tsvector` in the index (1), words
    /// without fields or places (2).
    static let earlierMarkers: Set<String> = ["ProductCatalog products, layout 1", "ProductCatalog products, layout 2"]
    /// Every word with the products holding it.
    static let termsTable = "catalog_terms"
    /// The term list a replacing import builds, renamed over ``termsTable`` when complete.
    static let buildTermsTable = "catalog_terms_importing"
    /// The catalog's counters: `nextPlace` and `termsVersion`.
    static let metaTable = "catalog_meta"

    /// The unique index on the folded productId of `table`.
    static func keyIndex(_ table: String) -> String { table + "_key" }
    /// The full-text index of `table`.
    static func wordsIndex(_ table: String) -> String { table + "_words" }
    /// The index of `table`'s title keys.
    static func titleKeyIndex(_ table: String) -> String { table + "_title_key" }
    /// The index of `table`'s families: the products with a groupId, by groupId.
    static func familyIndex(_ table: String) -> String { table + "_family" }
    /// The index of `table`'s word rows, which a page of a tier with many matches walks in order.
    static func wordRowIndex(_ table: String) -> String { table + "_word_row" }
    /// The primary key of a terms table.
    static func termsKey(_ table: String) -> String { table + "_key" }

    /// The folded productId, the key of every search and lookup.
    static let key = "lower(\"productId\")"
    /// The column of each product's folded words, which the word index covers.
    static let wordsColumn = "catalog_words"
    /// The column of each product's row in the word index's order.
    static let wordRowColumn = "catalog_word_row"
    /// The column of each product's title key.
    static let titleKeyColumn = "catalog_title_key"
    /// The columns this tool keeps beside a product's fields, in this order after them.
    static let wordColumns = [wordsColumn, wordRowColumn, titleKeyColumn]

    /// The advisory lock of an import into the catalog in `schema` (held for the session), which
    /// edits take shared for their transaction: "PCAT" and a hash of the schema.
    static func lockKey(schema: String) -> String {
        "1346585940, hashtext(\(literal(schema)))"
    }

    /// `name` as an SQL identifier.
    static func quote(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `text` as an SQL string literal.
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// `word` as a quoted lexeme of a `tsvector` or `tsquery` value: in quotes, a quote or backslash doubled.
    static func lexeme(_ word: String) -> String {
        "'" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// The longest word a `tsvector` holds, in UTF-8 bytes; longer words are left out of the word index.
    static let longestWord = 2046
    /// The most bytes of words kept for one product: half of what a `tsvector` holds.
    static let mostWordBytes = 1 << 19

    /// The `tsvector` text of the folded words of a title and of the other indexed fields: the
    /// title's with weight `A`, the others' with `B`, each once, without those too long to index.
    static func tsvector(title: [String], other: [String]) -> String {
        var total = 0
        var kept: [String] = []
        for (words, label) in [(title, ":1A"), (other, ":2B")] {
            for word in Set(words).sorted() where word.utf8.count <= longestWord {
                total += word.utf8.count
                if total > mostWordBytes { break }
                kept.append(lexeme(word) + label)
            }
        }
        return kept.joined(separator: " ")
    }

    /// The SQL type of a column.
    static func type(isInteger: Bool) -> String { isInteger ? "bigint" : "text" }

    /// `CREATE TABLE` for `columns` (productId first), in this order, and then the words.
    static func createTable(_ name: String, columns: [CheckedColumn], temporary: Bool = false) -> String {
        let definitions = columns.enumerated().map { index, column in
            index == 0
                ? "\(quote(column.name)) text COLLATE \"C\" NOT NULL"
                : "\(quote(column.name)) \(type(isInteger: column.isInteger))"
        }
        let words = [
            "\(wordsColumn) tsvector NOT NULL DEFAULT ''", "\(wordRowColumn) bigint NOT NULL DEFAULT 0", "\(titleKeyColumn) bigint NOT NULL DEFAULT 0",
        ]
        return "CREATE \(temporary ? "TEMPORARY " : "")TABLE \(name) (\((definitions + words).joined(separator: ", ")))"
    }

    /// `CREATE INDEX` for the word index of `table`.
    static func createWordsIndex(_ table: String) -> String {
        "CREATE INDEX \(wordsIndex(table)) ON \(table) USING gin (\(wordsColumn))"
    }

    /// `CREATE INDEX` for the title keys of `table`.
    static func createTitleKeyIndex(_ table: String) -> String {
        "CREATE INDEX \(titleKeyIndex(table)) ON \(table) (\(titleKeyColumn))"
    }

    /// `CREATE INDEX` for the families of `table`: only the products that have a groupId, as a
    /// catalog file's `products_family`.
    static func createFamilyIndex(_ table: String) -> String {
        "CREATE INDEX IF NOT EXISTS \(familyIndex(table)) ON \(table) (\"groupId\") WHERE \"groupId\" <> ''"
    }

    /// `CREATE INDEX` for the word rows of `table`.
    static func createWordRowIndex(_ table: String) -> String {
        "CREATE INDEX \(wordRowIndex(table)) ON \(table) (\(wordRowColumn))"
    }

    /// `CREATE TABLE` for a term list named `name`, without its key.
    static func createTerms(_ name: String) -> String {
        "CREATE TABLE \(name) (term text COLLATE \"C\" NOT NULL, docs bigint NOT NULL)"
    }

    /// The primary key of the term list `name`.
    static func keyTerms(_ name: String) -> String {
        "ALTER TABLE \(name) ADD CONSTRAINT \(termsKey(name)) PRIMARY KEY (term)"
    }

    static let createMeta = """
        CREATE TABLE IF NOT EXISTS \(metaTable) (name text PRIMARY KEY, value bigint NOT NULL)
        """

    /// Sets the counter `name` to `value`.
    static func setMeta(_ name: String, _ value: String) -> String {
        "INSERT INTO \(metaTable) (name, value) VALUES (\(literal(name)), \(value)) ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value"
    }

    /// Adds one to `termsVersion`.
    static let bumpTermsVersion = """
        INSERT INTO \(metaTable) (name, value) VALUES ('termsVersion', 1) ON CONFLICT (name) DO UPDATE SET value = \(metaTable).value + 1
        """

    /// `name`, or, when a file's column would take the words column's name, that name with the
    /// first free suffix `_2`, `_3`…, as a header repeating a field's name gets.
    static func storedName(_ name: String, among names: Set<String>) -> String {
        guard wordColumns.contains(name.lowercased()) else { return name }
        var suffix = 2
        while names.contains("\(name)_\(suffix)".lowercased()) { suffix += 1 }
        return "\(name)_\(suffix)"
    }

    /// The known fields as columns, productId first.
    static var fieldColumns: [CheckedColumn] {
        ProductField.allCases.map { CheckedColumn(name: $0.columnName, isInteger: $0.isInteger) }
    }

    static let createFavorites = """
        CREATE TABLE IF NOT EXISTS \(favoritesTable) ("productKey" text COLLATE "C" PRIMARY KEY, "starredAt" bigint NOT NULL)
        """
    /// The collections' tables, one statement each.
    static let createCollections = [
        """
        CREATE TABLE IF NOT EXISTS \(collectionsTable) ("nameKey" text COLLATE "C" PRIMARY KEY, name text NOT NULL, search text)
        """,
        """
        CREATE TABLE IF NOT EXISTS \(collectionMembersTable) (
          "collectionKey" text COLLATE "C" NOT NULL, "productKey" text COLLATE "C" NOT NULL, PRIMARY KEY ("collectionKey", "productKey"))
        """,
        "CREATE INDEX IF NOT EXISTS \(collectionMembersTable)_product ON \(collectionMembersTable) (\"productKey\")",
    ]
    /// Drops the members whose product the live table no longer holds (after a swap or a deleting upsert).
    static let dropGoneMembers = """
        DELETE FROM \(collectionMembersTable) m WHERE NOT EXISTS (SELECT 1 FROM \(table) p WHERE \(key) = m."productKey")
        """
    /// The stock table and its index of the products in stock at each store, one statement each:
    /// a catalog file's ``StockTable``, keyed by folded productId and store (ASCII case ignored)
    /// with the store's name as written.
    static let createStock = [
        createStockTable(stockTable, ifNotExists: true) + ", PRIMARY KEY (\"productKey\", \"storeKey\"))",
        "CREATE INDEX IF NOT EXISTS \(stockTable)_store ON \(stockTable) (\"storeKey\", \"productKey\") WHERE quantity > 0",
    ]

    /// `CREATE TABLE` for a stock table named `name`, without its key (a replacing stock import adds it once filled).
    static func createStockTable(_ name: String, ifNotExists: Bool = false) -> String {
        """
        CREATE TABLE \(ifNotExists ? "IF NOT EXISTS " : "")\(name) (
          "productKey" text COLLATE "C" NOT NULL, "storeKey" text COLLATE "C" NOT NULL, store text NOT NULL, quantity bigint NOT NULL
        """ + (ifNotExists ? "" : ")")
    }

    /// The stock table a replacing stock import fills, renamed over ``stockTable`` when complete.
    static let buildStockTable = "catalog_stock_importing"

    /// The key and store index of the filled stock table `name`, under the names they take once it is renamed.
    static func indexStock(_ name: String) -> [String] {
        [
            "ALTER TABLE \(name) ADD CONSTRAINT \(name)_pkey PRIMARY KEY (\"productKey\", \"storeKey\")",
            "CREATE INDEX \(name)_store ON \(name) (\"storeKey\", \"productKey\") WHERE quantity > 0",
        ]
    }

    /// Renames the filled ``buildStockTable`` and its indexes over the live stock.
    static let swapStock = [
        "DROP TABLE IF EXISTS \(stockTable)",
        "ALTER TABLE \(buildStockTable) RENAME TO \(stockTable)",
        "ALTER TABLE \(stockTable) RENAME CONSTRAINT \(buildStockTable)_pkey TO \(stockTable)_pkey",
        "ALTER INDEX \(buildStockTable)_store RENAME TO \(stockTable)_store",
    ]

    /// The products in stock at each store (by folded name), counted again by every stock import
    /// and after products leave: the whole catalog's store counts read it, where counting the
    /// stock table took 0.9 s for 2,000,000 rows.
    static let stockStoresTable = "catalog_stock_stores"

    /// Makes ``stockStoresTable`` count the stock as it is now.
    static let recountStockStores = [
        "CREATE TABLE IF NOT EXISTS \(stockStoresTable) (\"storeKey\" text COLLATE \"C\" PRIMARY KEY, products bigint NOT NULL)",
        "DELETE FROM \(stockStoresTable)",
        """
        INSERT INTO \(stockStoresTable) ("storeKey", products)
        SELECT "storeKey", count(*) FROM \(stockTable) WHERE quantity > 0 GROUP BY "storeKey"
        """,
    ]

    /// Drops the stock of the products the live table no longer holds (after a swap or a
    /// deleting upsert), when the catalog keeps stock, and counts the stores again when some went.
    static let dropGoneStock = """
        DO $$ BEGIN
          IF to_regclass('\(stockTable)') IS NOT NULL THEN
            DELETE FROM \(stockTable) s WHERE NOT EXISTS (SELECT 1 FROM \(table) p WHERE \(key) = s."productKey");
            IF FOUND THEN
              \(recountStockStores.joined(separator: ";\n      "));
            END IF;
          END IF;
        END $$
        """
    static let createEdits = """
        CREATE TABLE IF NOT EXISTS \(editsTable) ("productKey" text COLLATE "C" PRIMARY KEY)
        """
}
