/// Prefix search over a catalog's productIds, a page at a time, with keyset pagination.
///
/// ```swift
/// let search = try ProductSearch(databasePath: "catalog.sqlite")
/// var page = try search.page(prefix: "ab")
/// while let next = page.nextCursor { page = try search.page(prefix: "ab", after: next) }
/// ```
///
/// Each page is one range scan of the primary key starting right after the previous page's
/// last key, never an OFFSET, so page 40,000 costs what page 1 costs. Prefixes are bound as
/// parameters: `%`, `_` and quotes are ordinary characters.
public final class ProductSearch {
    /// The default page size.
    public static let defaultPageSize = 20
    /// The most matches an engine counts for a query with words; one that matches more says "at
    /// least": counting every match of a common word on ten million products takes seconds.
    public static let queryCountCap = 10_000

    let connection: Connection
    private var statements: [String: Statement] = [:]
    private var columns: [ProductColumn]?
    private var columnNames: [String]?
    private var tokenizer: WordTokenizer?
    /// Where word search switches between its ways of looking a word up; tests lower them to try each way on small catalogs.
    var planLimits = WordPlan.Limits()
    /// The most matches a sorted search sorts in memory; with more, it reads the catalog in the
    /// sort's order and keeps the products that match, which then come often enough.
    var sortedInMemory = 5_000
    /// The catalog's own word index's segments and views of them, read at the first word search
    /// and again as the index changes (``indexView()``).
    var indexViews: IndexViews?
    /// The whole catalog's options facets, counted among its first products, and the file's
    /// `data_version`, cap and top they were counted at: read again at each change of the file.
    var wholeCatalogOptions: (version: Int64, cap: Int, top: Int, counts: FacetCounts)?

    /// Opens the catalog at `databasePath` for reading.
    public init(databasePath: String) throws {
        switch try CatalogSchema.kind(ofFileAt: databasePath) {
        case .catalog: break
        case .missing: throw CatalogError.noCatalog(path: databasePath)
        case .empty, .otherDatabase, .notADatabase: throw CatalogError.notACatalog(path: databasePath)
        }
        connection = try Connection.reading(databasePath)
        connection.setBusyTimeout(milliseconds: 5_000)
        // Searches read pages all over the file (a product per word match): mapped, a page read
        // is a memory access instead of a system call into the page cache.
        _ = try connection.scalarInt("PRAGMA mmap_size = \(Self.mappedBytes)")
    }

    /// How much of the catalog file a search maps into memory (only the pages it reads take memory).
    static let mappedBytes = 1 << 30

    /// Up to `limit` products whose productId starts with `prefix` (ASCII case ignored) and that
    /// meet `filters`, after `cursor`; listing families, the first of each in productId order.
    public func page(prefix: String, filters: SearchFilters = SearchFilters(), listing: ResultListing = .families,
                     after cursor: KeysetCursor? = nil, limit: Int = defaultPageSize) throws -> SearchPage {
        precondition(limit > 0, "a page holds at least one product")
        let range = PrefixRange(prefix: prefix)
        let useCursor = cursor.map { !range.isBefore($0.lastProductId) } ?? false
        let source = try self.source(filters)
        let filter = try filterClause(filters, drivenByCollection: source.byCollection)
        let families = try listsFamilies(listing)
        var sql = "SELECT p.* \(source.from) WHERE \(source.key) \(useCursor ? ">" : ">=") ?1"
        if range.upper != nil { sql += " AND \(source.key) < ?2" }
        sql += filter.sql
        if families { sql += try familyFirstClause(filters, source: source, hasUpper: range.upper != nil) }
        sql += " ORDER BY \(source.key) LIMIT ?3"

        let statement = try prepared(sql)
        var products: [Product] = []
        products.reserveCapacity(limit + 1)
        try statement.using {
            if useCursor, let cursor {
                try statement.bind(1, cursor.lastProductId)
            } else {
                try statement.bind(1, utf8: range.lower)
            }
            if let upper = range.upper { try statement.bind(2, utf8: upper) }
            try statement.bind(3, Int64(limit + 1))
            try source.bind(to: statement)
            try filter.bind(to: statement)
            if families { try bindFamilyRange(range, to: statement) }
            let columns = try self.columns(of: statement)
            while try statement.step() {
                products.append(ProductColumn.product(from: statement, columns: columns))
            }
        }
        var next: KeysetCursor?
        if products.count > limit {
            products.removeLast()
            next = KeysetCursor(after: products[products.count - 1].productId)
        }
        return SearchPage(products: products, nextCursor: next)
    }

    /// How many products start with `prefix` and meet `filters` (families, when `listing` says
    /// so: see ``ResultListing``); with `limit`, counting stops there.
    public func count(prefix: String, filters: SearchFilters = SearchFilters(), listing: ResultListing = .families,
                      upTo limit: Int? = nil) throws -> Int {
        precondition(limit.map { $0 >= 0 } ?? true, "a count stops at 0 or more")
        let families = try listsFamilies(listing)
        // The whole catalog: its count is kept with its facets, so it costs the same at any size.
        if prefix.isEmpty, filters.isEmpty, let total = try families ? familyCount() : FacetIndex.productCount(connection) {
            return limit.map { min($0, total) } ?? total
        }
        if families {
            // Each family of the matches once, by its key, kept distinct in a temporary index as
            // SQLite reads the matches: checking each match for an earlier variant of its family
            // (``familyFirstClause(_:source:hasUpper:)``, as a page does for its 20) took 14 ms for
            // a first letter's 10,000 families on a million in families of 1 to 20, this 5.
            let key = FamilyIndex.familyKey("p")
            let clauses = try prefixMatchClauses(prefix, filters)
            let statement = try prepared(limit != nil ? "SELECT count(*) FROM (SELECT DISTINCT \(key) " + clauses + " LIMIT ?9)"
                                                      : "SELECT count(DISTINCT \(key)) " + clauses)
            return try statement.using {
                try bindPrefixMatch(prefix, filters, to: statement)
                if let limit { try statement.bind(9, Int64(limit)) }
                try statement.step()
                return Int(statement.int64(at: 0))
            }
        }
        // Products in stock at some stores, and nothing else asked: counted from the stock, not by
        // checking each product (a million products: 4 s), kept exact for one store.
        if prefix.isEmpty, let total = try StockTable.productsInStock(at: filters, upTo: limit, connection) {
            return limit.map { min($0, total) } ?? total
        }
        // A manual collection alone: its count is kept with it.
        if prefix.isEmpty, let total = try CollectionTable.members(only: filters, connection) {
            return limit.map { min($0, total) } ?? total
        }
        let statement = try prepared(Self.counting(try prefixMatchClauses(prefix, filters), limited: limit != nil))
        return try statement.using {
            try bindPrefixMatch(prefix, filters, to: statement)
            if let limit { try statement.bind(9, Int64(limit)) }
            try statement.step()
            return Int(statement.int64(at: 0))
        }
    }

    /// `FROM … WHERE …` for the products `p` whose productId starts with `prefix` (`?1`, `?2`)
    /// and that meet `filters` (`?8`, and `?10` on), in the order of ``prefixMatchKey(_:)``.
    /// With `families`, only the first of each family (``familyFirstClause(_:source:hasUpper:)``, `?6` and `?7`).
    func prefixMatchClauses(_ prefix: String, _ filters: SearchFilters, families: Bool = false) throws -> String {
        let range = PrefixRange(prefix: prefix)
        let source = try self.source(filters)
        return "\(source.from) WHERE \(source.key) >= ?1" + (range.upper == nil ? "" : " AND \(source.key) < ?2")
            + (try filterClause(filters, drivenByCollection: source.byCollection)).sql
            + (families ? try familyFirstClause(filters, source: source, hasUpper: range.upper != nil) : "")
    }

    /// The productId column ``prefixMatchClauses(_:_:)`` reads in order.
    func prefixMatchKey(_ filters: SearchFilters) throws -> String {
        try source(filters).key
    }

    /// Binds the parameters of ``prefixMatchClauses(_:_:)``.
    func bindPrefixMatch(_ prefix: String, _ filters: SearchFilters, to statement: Statement) throws {
        let range = PrefixRange(prefix: prefix)
        let source = try self.source(filters)
        try statement.bind(1, utf8: range.lower)
        if let upper = range.upper { try statement.bind(2, utf8: upper) }
        try source.bind(to: statement)
        try filterClause(filters, drivenByCollection: source.byCollection).bind(to: statement)
    }

    /// Where a search in productId order reads its products: the catalog, or the members of the
    /// manual collection `filters` names, which are fewer and in the same order (so a page of a
    /// collection reads its 20 members, where reading the catalog for them would read 20 products
    /// for each of its members among them: all of it for a small collection).
    struct ProductSource {
        var from: String
        /// The productId column read in order: the member's, or the product's.
        var key: String
        /// The collection's name, bound to `?8`, when its members lead.
        var collection: String?

        var byCollection: Bool { collection != nil }

        func bind(to statement: Statement) throws {
            if let collection { try statement.bind(8, collection) }
        }
    }

    func source(_ filters: SearchFilters) throws -> ProductSource {
        if let name = filters.collection, try CollectionTable.exists(connection) {
            return ProductSource(from: "FROM \(CollectionTable.membersTable) c CROSS JOIN \(CatalogSchema.table) p ON p.productId = c.productId AND c.collection = ?8",
                                 key: "c.productId", collection: ProductRules.trimmed(name))
        }
        return ProductSource(from: "FROM \(CatalogSchema.table) p", key: "p.productId", collection: nil)
    }

    /// The conditions of `filters` on the product `p`, numbered from `?10`; with
    /// `drivenByCollection`, all but the collection's, which the members read give.
    func filterClause(_ filters: SearchFilters, drivenByCollection: Bool = false, alias: String = "p") throws -> FilterClause {
        let asksStock = filters.inStock || !filters.stores.isEmpty
        var filters = filters
        if drivenByCollection { filters.collection = nil }
        return FilterClause(filters, alias: alias, columnNames: try productColumnNames,
                            keepsStock: try asksStock && StockTable.exists(connection),
                            keepsCollections: try filters.collection != nil && CollectionTable.exists(connection), firstParameter: 10)
    }

    /// The names of the `products` table's columns, read once.
    var productColumnNames: [String] {
        get throws {
            if let names = columnNames { return names }
            var names: [String] = []
            let statement = try connection.prepare("SELECT name FROM pragma_table_info('\(CatalogSchema.table)')")
            while try statement.step() { names.append(statement.text(at: 0) ?? "") }
            columnNames = names
            return names
        }
    }

    /// The product with exactly this productId (ASCII case ignored), if any.
    public func product(id: String) throws -> Product? {
        let statement = try prepared("SELECT * FROM \(CatalogSchema.table) WHERE productId = ?1")
        return try statement.using {
            try statement.bind(1, id)
            guard try statement.step() else { return nil }
            return ProductColumn.product(from: statement, columns: try columns(of: statement))
        }
    }

    /// The products `statement` returns, in its order.
    func products(from statement: Statement) throws -> [Product] {
        var products: [Product] = []
        let columns = ProductColumn.columns(of: statement)
        while try statement.step() { products.append(ProductColumn.product(from: statement, columns: columns)) }
        return products
    }

    /// True when the catalog's table has `field`'s column (older layouts may lack some).
    func hasColumn(_ field: ProductField) throws -> Bool {
        let name = field.columnName.lowercased()
        return try productColumnNames.contains { $0.lowercased() == name }
    }

    /// The word index's tokenizer, made at first use.
    var wordTokenizer: WordTokenizer {
        get throws {
            if let tokenizer { return tokenizer }
            let made = try WordTokenizer(connection: connection)
            tokenizer = made
            return made
        }
    }

    /// About how many products the catalog holds (0 for a layout without facet counts), for
    /// choosing how to look words up.
    func catalogProducts() throws -> Int {
        try FacetIndex.productCount(connection) ?? 0
    }

    /// Reads the word index's term list and the typo dictionary made from it (about 10 MB and
    /// 50 ms for a million terms), which the first word search would read otherwise; again only
    /// after the index was built anew.
    public func loadTermList() throws {
        _ = try connection.reading { try indexView()?.base.fullDictionary }
    }

    func prepared(_ sql: String) throws -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try connection.prepare(sql)
        statements[sql] = statement
        return statement
    }

    private func columns(of statement: Statement) throws -> [ProductColumn] {
        if let columns { return columns }
        let columns = ProductColumn.columns(of: statement)
        self.columns = columns
        return columns
    }
}
