/// How many products have each product type, color and size, kept exact for the whole catalog.
///
/// ```sql
/// CREATE TABLE facet_values (field TEXT NOT NULL, valueKey TEXT NOT NULL, value TEXT NOT NULL,
///   products INTEGER NOT NULL, PRIMARY KEY (field, valueKey)) WITHOUT ROWID;
/// ```
///
/// Values are grouped ignoring ASCII case (`valueKey` is SQLite's `lower`, which folds ASCII
/// only, as facets do), shown as spelled by the first product in productId order, or by the
/// first product that brought the value later; a product without a value counts under the
/// empty key. A replacing import tallies the table as it writes (``FacetTotals``), an upgrade fills
/// it in one pass per field; triggers keep it
/// exact through every later write, by any program. Facets of the whole catalog (no query, no
/// filter) read it instead of counting the products, so they are exact and as fast on ten
/// million products as on ten.
enum FacetIndex {
    static let table = "facet_values"
    /// The fields counted, in the order facets list them.
    static let fields: [ProductField] = [.productType, .color, .size]

    /// True when the catalog on `connection` keeps the table.
    static func exists(_ connection: Connection) throws -> Bool {
        try connection.hasTable(table)
    }

    /// How many products the catalog holds, from the table (each product counts once under each
    /// field, the empty key for none); nil without the table.
    static func productCount(_ connection: Connection) throws -> Int? {
        guard try exists(connection) else { return nil }
        return Int(try connection.scalarInt("SELECT ifnull(sum(products), 0) FROM \(table) WHERE field = '\(fields[0].rawValue)'") ?? 0)
    }

    /// Creates the empty table.
    static let createTable = """
        CREATE TABLE \(table) (
          field TEXT NOT NULL, valueKey TEXT NOT NULL, value TEXT NOT NULL, products INTEGER NOT NULL,
          PRIMARY KEY (field, valueKey)
        ) WITHOUT ROWID;
        """

    /// Creates and fills the table from the products, when it is missing, and adds the triggers.
    /// (A replacing import fills it as it writes, see ``FacetTotals``.)
    static func upgrade(_ connection: Connection) throws {
        if try !exists(connection) {
            var statements = createTable
            for field in fields {
                let column = "ifnull(\(field.columnName), '')"
                // With min(productId) as the one aggregate, the bare value is that product's spelling.
                statements += """

                    INSERT INTO \(table) (field, valueKey, value, products)
                      SELECT '\(field.rawValue)', lower(value), value, count FROM (
                        SELECT \(column) AS value, count(*) AS count, min(productId) FROM \(CatalogSchema.table) GROUP BY lower(\(column))
                      );
                    """
            }
            try connection.execute(statements)
        }
        try createTriggers(connection)
    }

    private static func createTriggers(_ connection: Connection) throws {
        func count(_ row: String, _ change: String) -> String {
            fields.map { field in
                let column = "ifnull(\(row).\(field.columnName), '')"
                return change == "+"
                    ? "INSERT INTO \(table) (field, valueKey, value, products) VALUES ('\(field.rawValue)', lower(\(column)), \(column), 1) ON CONFLICT (field, valueKey) DO UPDATE SET products = products + 1;"
                    : "UPDATE \(table) SET products = products - 1 WHERE field = '\(field.rawValue)' AND valueKey = lower(\(column));"
            }.joined(separator: "\n  ")
        }
        let columns = fields.map(\.columnName).joined(separator: ", ")
        // Only a change of a counted value moves a count (an upsert's price change moves none).
        let changed = fields.map { "old.\($0.columnName) IS NOT new.\($0.columnName) COLLATE BINARY" }.joined(separator: " OR ")
        try CatalogSchema.replaceTrigger("facets_update", unlessItHas: "WHEN", connection)
        try connection.execute("""
            CREATE TRIGGER IF NOT EXISTS facets_insert AFTER INSERT ON \(CatalogSchema.table) BEGIN
              \(count("new", "+"))
            END;
            CREATE TRIGGER IF NOT EXISTS facets_delete AFTER DELETE ON \(CatalogSchema.table) BEGIN
              \(count("old", "-"))
              DELETE FROM \(table) WHERE products <= 0;
            END;
            CREATE TRIGGER IF NOT EXISTS facets_update AFTER UPDATE OF \(columns) ON \(CatalogSchema.table)
              WHEN \(changed) BEGIN
              \(count("old", "-"))
              \(count("new", "+"))
              DELETE FROM \(table) WHERE products <= 0;
            END;
            """)
    }
}
