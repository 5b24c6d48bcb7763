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
///
/// **Rows replaced.** `INSERT OR REPLACE`, `REPLACE` and `UPDATE OR REPLACE` delete the row they
/// collide with without firing delete triggers, unless the connection turned recursive triggers on
/// (this library's writers do, ``LiveJournal``; another program has no reason to). So on such a
/// connection a trigger before each insert, and before each rename onto a productId in use, keeps
/// the values of the row about to be replaced in `facet_replaced`; the triggers after take them off
/// the counts when the row was indeed replaced, and those that end a productId forget them (a
/// value kept for a row that was not replaced, by `INSERT OR IGNORE` or an upsert, is the row's
/// own and is kept again before it is ever taken off).
enum FacetIndex {
    static let table = "facet_values"
    /// The counted values of rows an insert or a rename is about to replace.
    static let replacedTable = "facet_replaced"
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
        // Only where a replaced row fires no delete trigger.
        let fires = "(SELECT recursive_triggers FROM pragma_recursive_triggers) = 0"
        /// Keeps the counted values of the product `productId` names, about to be replaced.
        func keep(_ productId: String) -> String {
            """
            DELETE FROM \(replacedTable) WHERE productId = \(productId);
              INSERT INTO \(replacedTable) (productId, \(columns)) SELECT productId, \(columns) FROM \(CatalogSchema.table) WHERE productId = \(productId);
            """
        }
        /// Takes the kept values of `productId` off the counts (a row that was replaced) and forgets them.
        func takeOff(_ productId: String) -> String {
            fields.map { field in
                let column = "ifnull(r.\(field.columnName), '')"
                return "UPDATE \(table) SET products = products - 1 WHERE field = '\(field.rawValue)' AND valueKey = (SELECT lower(\(column)) FROM \(replacedTable) r WHERE r.productId = \(productId));"
            }.joined(separator: "\n  ") + "\n  DELETE FROM \(replacedTable) WHERE productId = \(productId);"
        }
        try CatalogSchema.replaceTrigger("facets_update", unlessItHas: "WHEN", connection)
        try CatalogSchema.replaceTrigger("facets_insert", unlessItHas: replacedTable, connection)
        try CatalogSchema.replaceTrigger("facets_delete", unlessItHas: replacedTable, connection)
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS \(replacedTable) (productId TEXT NOT NULL COLLATE NOCASE PRIMARY KEY, \(fields.map { "\($0.columnName) TEXT" }.joined(separator: ", "))) WITHOUT ROWID;
            CREATE TRIGGER IF NOT EXISTS facets_before_insert BEFORE INSERT ON \(CatalogSchema.table)
              WHEN \(fires) AND EXISTS (SELECT 1 FROM \(CatalogSchema.table) WHERE productId = new.productId) BEGIN
              \(keep("new.productId"))
            END;
            CREATE TRIGGER IF NOT EXISTS facets_before_rename BEFORE UPDATE OF productId ON \(CatalogSchema.table)
              WHEN \(fires) AND old.productId IS NOT new.productId COLLATE NOCASE
                AND EXISTS (SELECT 1 FROM \(CatalogSchema.table) WHERE productId = new.productId) BEGIN
              \(keep("new.productId"))
            END;
            CREATE TRIGGER IF NOT EXISTS facets_insert AFTER INSERT ON \(CatalogSchema.table) BEGIN
              \(count("new", "+"))
              \(takeOff("new.productId"))
              DELETE FROM \(table) WHERE products <= 0;
            END;
            CREATE TRIGGER IF NOT EXISTS facets_delete AFTER DELETE ON \(CatalogSchema.table) BEGIN
              \(count("old", "-"))
              DELETE FROM \(table) WHERE products <= 0;
              DELETE FROM \(replacedTable) WHERE productId = old.productId;
            END;
            CREATE TRIGGER IF NOT EXISTS facets_update AFTER UPDATE OF \(columns) ON \(CatalogSchema.table)
              WHEN \(changed) BEGIN
              \(count("old", "-"))
              \(count("new", "+"))
              DELETE FROM \(table) WHERE products <= 0;
            END;
            CREATE TRIGGER IF NOT EXISTS facets_after_rename AFTER UPDATE OF productId ON \(CatalogSchema.table)
              WHEN old.productId IS NOT new.productId COLLATE NOCASE
                AND EXISTS (SELECT 1 FROM \(replacedTable) WHERE productId IN (old.productId, new.productId)) BEGIN
              \(takeOff("new.productId"))
              DELETE FROM \(table) WHERE products <= 0;
              DELETE FROM \(replacedTable) WHERE productId = old.productId;
            END;
            """)
    }
}
