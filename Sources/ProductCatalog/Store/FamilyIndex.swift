/// The index that finds a family's variants: the products that have a groupId, by groupId.
///
/// ```sql
/// CREATE INDEX products_family ON products (groupId) WHERE groupId > '';
/// ```
///
/// An empty groupId is no family (an import keeps a file's empty cell as `''`), so the index
/// holds only the products of real families, and a query reads it only when it says
/// `groupId > ''` too (``inFamily(_:)``): SQLite uses a partial index only for a query whose
/// conditions hold its own.
///
/// Only a catalog whose products have families keeps it: an import whose file fills groupId
/// builds it at its end (a plain million without families would pay 0.14 s to build an empty
/// one), and an upsert or an edit that writes a groupId builds it if it is missing. So a catalog
/// without the index has no families, and a search lists its products as they are.
enum FamilyIndex {
    static let name = "\(CatalogSchema.table)_family"

    static let createStatement =
        "CREATE INDEX IF NOT EXISTS \(name) ON \(CatalogSchema.table) (\(ProductField.groupId.columnName)) WHERE \(inFamily(nil))"

    /// The condition of the index on the product `alias` (none: the table's own column): it has a groupId that is not empty.
    static func inFamily(_ alias: String?) -> String {
        (alias.map { $0 + "." } ?? "") + ProductField.groupId.columnName + " > ''"
    }

    /// The family of the product `alias`, as a text that two products share only when they are of
    /// one family: `g` and its groupId, or `p` and its productId for a product alone.
    static func familyKey(_ alias: String) -> String {
        "CASE WHEN \(inFamily(alias)) THEN 'g' || \(alias).\(ProductField.groupId.columnName) ELSE 'p' || \(alias).productId END"
    }

    /// Builds the index unless the catalog has it.
    static func create(_ connection: Connection) throws {
        try connection.execute(createStatement)
    }

    /// True when the catalog keeps the index, so some of its products may have families.
    static func exists(_ connection: Connection) throws -> Bool {
        try connection.scalarInt("SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = '\(name)')") == 1
    }
}
