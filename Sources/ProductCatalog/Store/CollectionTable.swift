/// Named groups of products: manual ones list their products, smart ones keep a search.
///
/// ```sql
/// CREATE TABLE collections (name TEXT NOT NULL COLLATE NOCASE PRIMARY KEY, search TEXT,
///   products INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
/// CREATE TABLE collection_products (collection TEXT NOT NULL COLLATE NOCASE,
///   productId TEXT NOT NULL COLLATE NOCASE, PRIMARY KEY (collection, productId)) WITHOUT ROWID;
/// ```
///
/// `search` is a smart collection's saved search (``SavedSearch/parameters``), NULL for a manual
/// one; `products` counts a manual one's members, kept by triggers. Keyed by collection then
/// product, a collection's members are one range in the search's own order. Created by the first
/// collection; triggers keep the members with their products (a product deleted leaves its
/// collections, one renamed stays in them), and a replacing import carries the collections and
/// the members it keeps (``carry(intoMainFrom:_:)``).
enum CollectionTable {
    static let table = "collections"
    static let membersTable = "collection_products"

    static let createStatements = """
        CREATE TABLE IF NOT EXISTS \(table) (
          name TEXT NOT NULL COLLATE NOCASE PRIMARY KEY, search TEXT, products INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS \(membersTable) (
          collection TEXT NOT NULL COLLATE NOCASE, productId TEXT NOT NULL COLLATE NOCASE,
          PRIMARY KEY (collection, productId)) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS \(membersTable)_product ON \(membersTable) (productId);
        """ + CatalogSchema.followingProducts(membersTable, triggers: "collection_product") + """
        CREATE TRIGGER IF NOT EXISTS collection_member_insert AFTER INSERT ON \(membersTable) BEGIN
          UPDATE \(table) SET products = products + 1 WHERE name = new.collection;
        END;
        CREATE TRIGGER IF NOT EXISTS collection_member_delete AFTER DELETE ON \(membersTable) BEGIN
          UPDATE \(table) SET products = products - 1 WHERE name = old.collection;
        END;
        CREATE TRIGGER IF NOT EXISTS collection_delete AFTER DELETE ON \(table) BEGIN
          DELETE FROM \(membersTable) WHERE collection = old.name;
        END;
        """

    /// True when the catalog on `connection` has collections.
    static func exists(_ connection: Connection) throws -> Bool {
        try connection.hasTable(table)
    }

    /// Every collection, by name (ASCII case ignored).
    static func all(_ connection: Connection) throws -> [ProductCollection] {
        guard try exists(connection) else { return [] }
        let statement = try connection.prepare("SELECT name, search, products FROM \(table) ORDER BY name")
        var collections: [ProductCollection] = []
        while try statement.step() { collections.append(collection(from: statement)) }
        return collections
    }

    /// The collection named `name` (ASCII case ignored), if any.
    static func named(_ name: String, _ connection: Connection) throws -> ProductCollection? {
        guard try exists(connection) else { return nil }
        let statement = try connection.prepare("SELECT name, search, products FROM \(table) WHERE name = ?1")
        try statement.bind(1, name)
        return try statement.step() ? collection(from: statement) : nil
    }

    private static func collection(from statement: Statement) -> ProductCollection {
        let name = statement.text(at: 0) ?? ""
        if let search = statement.text(at: 1) {
            return ProductCollection(name: name, search: SavedSearch(parameters: search), products: nil)
        }
        return ProductCollection(name: name, search: nil, products: Int(statement.int64(at: 2)))
    }

    /// True when counting what `filters` keeps checks each member of a collection against other
    /// filters: the engine then counts up to its cap (a collection alone is counted from its kept count).
    static func countsEachMember(_ filters: SearchFilters) -> Bool {
        guard filters.collection != nil else { return false }
        var others = filters
        others.collection = nil
        return !others.isEmpty
    }

    /// How many products the manual collection that `filters` names holds, when `filters` asks for nothing else; nil otherwise.
    static func members(only filters: SearchFilters, _ connection: Connection) throws -> Int? {
        guard let name = filters.collection else { return nil }
        var others = filters
        others.collection = nil
        guard others.isEmpty else { return nil }
        guard let collection = try named(ProductRules.trimmed(name), connection) else { return 0 }
        return collection.products
    }

    /// The condition that the product `alias` is in the manual collection named by parameter
    /// `parameter`: one seek of the members' key per product checked. (`IN (SELECT …)` would read
    /// every member into a temporary table at each statement: 20 ms a page for 100,000 members.)
    static func membership(alias: String, parameter: String) -> String {
        "EXISTS (SELECT 1 FROM \(membersTable) c WHERE c.collection = \(parameter) AND c.productId = \(alias).productId)"
    }

    /// Copies the collections of the catalog attached as `live` into `main`, and the members that
    /// `main` holds, for a replacing import; nothing when the live catalog has none.
    static func carry(intoMainFrom live: String, _ connection: Connection) throws {
        guard try connection.scalarInt(
            "SELECT count(*) FROM \(live).sqlite_master WHERE type = 'table' AND name = '\(membersTable)'") == 1 else { return }
        try connection.execute(createStatements)
        try connection.execute("""
            INSERT INTO main.\(table) (name, search, products) SELECT name, search, 0 FROM \(live).\(table) ORDER BY name;
            INSERT INTO main.\(membersTable) (collection, productId)
              SELECT m.collection, m.productId FROM \(live).\(membersTable) m
              WHERE EXISTS (SELECT 1 FROM main.\(CatalogSchema.table) p WHERE p.productId = m.productId)
              ORDER BY m.collection, m.productId;
            """)
    }
}
