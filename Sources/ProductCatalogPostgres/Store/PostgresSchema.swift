import ProductCatalog

/// The shape of a catalog on PostgreSQL: the tables in the location's schema and their indexes.
///
/// ```sql
/// CREATE TABLE products (
///   "productId" text COLLATE "C" NOT NULL, title text, "listPriceMilli" bigint, …, "<each extra header>" text
/// );
/// CREATE UNIQUE INDEX products_key ON products (lower("productId"));
/// CREATE INDEX products_words ON products USING gin (to_tsvector('simple', …title, brand, productType…));
/// ```
///
/// Column names are those of the SQLite catalog, quoted. `productId` has the `C` collation, so
/// `lower("productId")` folds ASCII letters only, as SQLite's `NOCASE` does: `ab12` and `AB12`
/// are one product, the unique index's order is the search order, and a prefix is one range of
/// it. The word index uses PostgreSQL's own full-text search with the `simple` configuration
/// (lower case, no stemming, no stop words). A replacing import builds `products_importing`
/// and renames it over `products` in one transaction.
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
    /// The table comment that marks a catalog made by this tool.
    static let marker = "ProductCatalog products, layout 1"

    /// The unique index on the folded productId of `table`.
    static func keyIndex(_ table: String) -> String { table + "_key" }
    /// The full-text index of `table`.
    static func wordsIndex(_ table: String) -> String { table + "_words" }

    /// The folded productId, the key of every search and lookup.
    static let key = "lower(\"productId\")"
    /// The words a search looks in: title, brand and product type.
    static let words = """
        to_tsvector('simple'::regconfig, coalesce(title, '') || ' ' || coalesce(brand, '') || ' ' || coalesce("productType", ''))
        """

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

    /// The SQL type of a column.
    static func type(isInteger: Bool) -> String { isInteger ? "bigint" : "text" }

    /// `CREATE TABLE` for `columns` (productId first), in this order.
    static func createTable(_ name: String, columns: [CheckedColumn], temporary: Bool = false) -> String {
        let definitions = columns.enumerated().map { index, column in
            index == 0
                ? "\(quote(column.name)) text COLLATE \"C\" NOT NULL"
                : "\(quote(column.name)) \(type(isInteger: column.isInteger))"
        }
        return "CREATE \(temporary ? "TEMPORARY " : "")TABLE \(name) (\(definitions.joined(separator: ", ")))"
    }

    /// The known fields as columns, productId first.
    static var fieldColumns: [CheckedColumn] {
        ProductField.allCases.map { CheckedColumn(name: $0.columnName, isInteger: $0.isInteger) }
    }

    static let createFavorites = """
        CREATE TABLE IF NOT EXISTS \(favoritesTable) ("productKey" text COLLATE "C" PRIMARY KEY, "starredAt" bigint NOT NULL)
        """
    static let createEdits = """
        CREATE TABLE IF NOT EXISTS \(editsTable) ("productKey" text COLLATE "C" PRIMARY KEY)
        """
}

extension String {
    /// The text with ASCII letters in lower case, as `lower()` under the `C` collation and SQLite's `NOCASE` fold it.
    var asciiLowercased: String {
        String(decoding: utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
