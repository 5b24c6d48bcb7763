/// Each product's quantity at each store, beside the products: what a local inventory feed says.
///
/// ```sql
/// CREATE TABLE stock (productId TEXT NOT NULL COLLATE NOCASE, store TEXT NOT NULL COLLATE NOCASE,
///   quantity INTEGER NOT NULL, PRIMARY KEY (productId, store)) WITHOUT ROWID;
/// CREATE INDEX stock_store ON stock (store, productId) WHERE quantity > 0;
/// ```
///
/// Keyed by product then store, a product's stores are one range of the table; the partial index
/// lists the products in stock at a store in productId order, the search's own. Created by the
/// first stock import (``StockImporter``). Triggers keep it with its products: a product deleted
/// takes its stock with it, a product renamed keeps it. An upsert of products works on the same
/// file or a copy of it, which keeps the stock; a replacing import carries the stock of the
/// products it keeps into the new file (``carry(intoMainFrom:_:)``).
///
/// A product's total quantity is its feed's `quantity` when the feed sets one, else the sum of its
/// stores: "in stock" filters look at that total (``inStock(alias:quantity:)``).
enum StockTable {
    static let table = "stock"

    /// Products in stock at each store, kept exact by triggers on ``table``, for the whole catalog's facet counts.
    static let storesTable = "stock_stores"

    static let createStatements = """
        CREATE TABLE IF NOT EXISTS \(table) (
          productId TEXT NOT NULL COLLATE NOCASE, store TEXT NOT NULL COLLATE NOCASE, quantity INTEGER NOT NULL,
          PRIMARY KEY (productId, store)) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS \(table)_store ON \(table) (store, productId) WHERE quantity > 0;
        CREATE TABLE IF NOT EXISTS \(storesTable) (store TEXT NOT NULL COLLATE NOCASE PRIMARY KEY, products INTEGER NOT NULL) WITHOUT ROWID;
        """ + CatalogSchema.followingProducts(table, triggers: "stock_product") + countTriggers

    /// The triggers that keep ``storesTable`` exact through every write of a stock row; a bulk
    /// write drops them and counts again after (``recount(_:)``) or tallies as it writes (``writeCounts(_:_:)``), which is faster.
    static let countTriggers = """
        CREATE TRIGGER IF NOT EXISTS stock_count_insert AFTER INSERT ON \(table) WHEN new.quantity > 0 BEGIN
          INSERT INTO \(storesTable) (store, products) VALUES (new.store, 1) ON CONFLICT (store) DO UPDATE SET products = products + 1;
        END;
        CREATE TRIGGER IF NOT EXISTS stock_count_delete AFTER DELETE ON \(table) WHEN old.quantity > 0 BEGIN
          UPDATE \(storesTable) SET products = products - 1 WHERE store = old.store;
        END;
        CREATE TRIGGER IF NOT EXISTS stock_count_update AFTER UPDATE OF quantity ON \(table)
          WHEN (old.quantity > 0) IS NOT (new.quantity > 0) BEGIN
          INSERT INTO \(storesTable) (store, products) SELECT new.store, 1 WHERE new.quantity > 0
            ON CONFLICT (store) DO UPDATE SET products = products + 1;
          UPDATE \(storesTable) SET products = products - 1 WHERE store = old.store AND old.quantity > 0;
        END;
        """

    static let dropCountTriggers = """
        DROP TRIGGER IF EXISTS stock_count_insert; DROP TRIGGER IF EXISTS stock_count_delete; DROP TRIGGER IF EXISTS stock_count_update;
        """

    /// Counts the products in stock at each store again, from the partial index.
    static func recount(_ connection: Connection) throws {
        try connection.execute("""
            DELETE FROM \(storesTable);
            INSERT INTO \(storesTable) (store, products) SELECT store, count(*) FROM \(table) WHERE quantity > 0 GROUP BY store;
            """)
    }

    /// The products in stock at each store, from ``storesTable`` (counted, in a file written
    /// before it existed); nil for a catalog without stock. Each store is spelled as the first
    /// product in stock there, in productId order, spells it (one seek of the partial index per
    /// store), as ``stores(_:)`` lists it.
    static func storeCounts(_ connection: Connection) throws -> [(store: String, products: Int)]? {
        guard try exists(connection) else { return nil }
        let kept = try connection.hasTable(storesTable)
        let statement = try connection.prepare(kept
            ? """
              SELECT (SELECT s.store FROM \(table) s WHERE s.store = t.store AND s.quantity > 0 ORDER BY s.productId LIMIT 1), t.products
              FROM \(storesTable) t WHERE t.products > 0
              """
            : "SELECT min(store), count(*) FROM \(table) WHERE quantity > 0 GROUP BY store")
        var counts: [(store: String, products: Int)] = []
        while try statement.step() { counts.append((statement.text(at: 0) ?? "", Int(statement.int64(at: 1)))) }
        return counts
    }

    /// True when the catalog on `connection` keeps stock by store.
    static func exists(_ connection: Connection) throws -> Bool {
        try connection.hasTable(table)
    }

    /// The SQL condition that the product `alias` is in stock: its own quantity above 0, or,
    /// without one, a quantity above 0 at some store. (The sum over its stores is above 0 exactly
    /// then, since an import stores no negative quantity; the first store in stock answers, where a
    /// sum reads them all: in stock anywhere at a million products × 20 stores, a first page and
    /// its count of 10,000 took 20 ms with the sum, 10 ms so.)
    static func inStock(alias: String, quantity: String) -> String {
        "(\(quantity) > 0 OR (\(quantity) IS NULL AND EXISTS (SELECT 1 FROM \(table) s WHERE s.productId = \(alias).productId AND s.quantity > 0)))"
    }

    /// Copies the stock of the products `main` holds from the catalog attached as `live`, for a
    /// replacing import; nothing when the live catalog keeps no stock.
    static func carry(intoMainFrom live: String, _ connection: Connection) throws {
        guard try connection.scalarInt("SELECT count(*) FROM \(live).sqlite_master WHERE type = 'table' AND name = '\(table)'") == 1 else { return }
        try connection.execute(createStatements + dropCountTriggers)
        // Both tables are in productId order: the copy appends.
        try connection.execute("""
            INSERT INTO main.\(table) (productId, store, quantity)
              SELECT s.productId, s.store, s.quantity FROM \(live).\(table) s
              WHERE EXISTS (SELECT 1 FROM main.\(CatalogSchema.table) p WHERE p.productId = s.productId)
              ORDER BY s.productId, s.store
            """)
        try recount(connection)
        try connection.execute(countTriggers)
    }

    /// Makes ``storesTable`` hold `counts`, products in stock by store, tallied while writing.
    static func writeCounts(_ counts: some Sequence<(store: String, products: Int)>, _ connection: Connection) throws {
        try connection.execute("DELETE FROM \(storesTable)")
        let insert = try connection.prepare("INSERT INTO \(storesTable) (store, products) VALUES (?1, ?2)")
        for count in counts where count.products > 0 {
            try insert.using {
                try insert.bind(1, count.store)
                try insert.bind(2, Int64(count.products))
                _ = try insert.step()
            }
        }
    }

    /// The stores with at least one product in stock, by name (ASCII case ignored): one seek of
    /// the partial index per store, whatever the number of rows.
    static func stores(_ connection: Connection) throws -> [String] {
        guard try exists(connection) else { return [] }
        let statement = try connection.prepare("""
            WITH RECURSIVE next(store) AS (
              SELECT min(store) FROM \(table) WHERE quantity > 0
              UNION ALL
              SELECT (SELECT min(store) FROM \(table) WHERE quantity > 0 AND store > next.store) FROM next WHERE next.store IS NOT NULL)
            SELECT store FROM next WHERE store IS NOT NULL
            """)
        var stores: [String] = []
        while try statement.step() { stores.append(statement.text(at: 0) ?? "") }
        return stores
    }

    /// True when counting the products `filters` keeps may check the stock of each product: in
    /// stock anywhere, at several stores, or at a store along with other filters; the engine then
    /// counts up to its cap. (One store alone, and several holding few products, are counted by
    /// ``productsInStock(at:upTo:_:exactUpTo:)``.)
    static func countsEachProduct(_ filters: SearchFilters) -> Bool {
        var others = filters
        others.stores = []
        return filters.inStock || filters.stores.count > 1 || (!filters.stores.isEmpty && !others.isEmpty)
    }

    /// How many products are in stock at one of the stores `filters` names, when it asks for
    /// nothing else and the stock says it cheaply; nil otherwise. One store's count is kept
    /// (``storesTable``); several stores holding up to ``distinctCountLimit`` products in stock
    /// between them are counted from the partial index, and past that up to `limit`, when one is
    /// given (a million products at two stores holding 0.7 million: 0.7 s to count them all);
    /// without one, nil.
    static func productsInStock(at filters: SearchFilters, upTo limit: Int? = nil, _ connection: Connection,
                                exactUpTo distinctLimit: Int = distinctCountLimit) throws -> Int? {
        var others = filters
        others.stores = []
        guard !filters.stores.isEmpty, others.isEmpty, try exists(connection), try connection.hasTable(storesTable) else { return nil }
        let stores = Array(Set(filters.stores.map { ProductRules.trimmed($0) }.filter { !$0.isEmpty }.map { $0.utf8.map(ProductIdOrder.fold) }))
        guard !stores.isEmpty else { return nil }
        let list = stores.indices.map { "?\($0 + 1)" }.joined(separator: ", ")
        func scalar(_ sql: String) throws -> Int {
            let statement = try connection.prepare(sql)
            for (index, store) in stores.enumerated() { try statement.bind(Int32(index + 1), utf8: store) }
            _ = try statement.step()
            return Int(statement.int64(at: 0))
        }
        let kept = try scalar("SELECT ifnull(sum(products), 0) FROM \(storesTable) WHERE store IN (\(list))")
        if stores.count == 1 { return kept }
        if kept <= distinctLimit {
            return try scalar("SELECT count(*) FROM (SELECT DISTINCT productId FROM \(table) WHERE store IN (\(list)) AND quantity > 0)")
        }
        // Past that, up to `limit`: the stores' ranges of the partial index are read until `limit`
        // distinct products came (two stores holding 0.7 million of a million products: the first
        // page and 10,001 counted in 9 ms, where checking product after product took 14 ms).
        guard let limit else { return nil }
        return try scalar("SELECT count(*) FROM (SELECT DISTINCT productId FROM \(table) WHERE store IN (\(list)) AND quantity > 0 LIMIT \(limit))")
    }

    /// The most products in stock at several stores, counted with repeats, that ``productsInStock(at:upTo:_:exactUpTo:)`` counts.
    static let distinctCountLimit = 100_000

    /// The stores of each of `productIds` and their quantities, by store, keyed by the productId
    /// as given; products without stock are left out. One statement serves them all.
    static func stock(of productIds: [String], _ connection: Connection) throws -> [String: [StoreQuantity]] {
        var stock: [String: [StoreQuantity]] = [:]
        guard !productIds.isEmpty, try exists(connection) else { return stock }
        let statement = try connection.prepare("SELECT store, quantity FROM \(table) WHERE productId = ?1 ORDER BY store")
        for productId in productIds {
            let stores = try statement.using {
                try statement.bind(1, productId)
                var stores: [StoreQuantity] = []
                while try statement.step() { stores.append(StoreQuantity(store: statement.text(at: 0) ?? "", quantity: statement.int64(at: 1))) }
                return stores
            }
            if !stores.isEmpty { stock[productId] = stores }
        }
        return stock
    }
}

/// A product's quantity at one store.
public struct StoreQuantity: Sendable, Hashable {
    public var store: String
    public var quantity: Int64

    public init(store: String, quantity: Int64) {
        self.store = store
        self.quantity = quantity
    }
}

extension StoreQuantity: JSONRepresentable {
    /// `{"store": "Berlin Mitte", "quantity": 4}`
    public var jsonValue: JSONValue {
        .object(["store": .string(store), "quantity": .int(Int(quantity))])
    }

    /// `{"A-1": [{"store": "Berlin Mitte", "quantity": 4}, …], …}`: the stock of a page's products, by productId.
    public static func jsonValue(_ stock: [String: [StoreQuantity]]) -> JSONValue {
        .object(stock.keys.sorted().map { JSONValue.Member($0, .array(stock[$0]!.map(\.jsonValue))) })
    }
}
