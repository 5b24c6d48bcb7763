import PostgresNIO
import ProductCatalog
import Synchronization

/// Search over a catalog on PostgreSQL, a page at a time with keyset pagination, as ``ProductSearch`` does over a file.
///
/// ```swift
/// let search = try await PostgresProductSearch.open(try PostgresLocation(url: "postgres://shop@db/catalog"))
/// let page = try await search.page(query: "linen shirt")
/// ```
///
/// A query lists the products whose productId starts with it (ASCII case ignored), then those
/// with a word starting with each of its words in their title, brand or type, both in productId
/// order; each page is one range of the index on the folded productId, or one match of the word
/// index, never an OFFSET. Words are folded as in a catalog file (``WordFolder``): case and
/// accents are ignored, and a query finds what it finds there. Each statement reads the table as
/// it is then, so an import's swap shows at the next page. Statements on one search run one after
/// another; open one per concurrent reader.
public final class PostgresProductSearch: Sendable {
    let session: PostgresSession
    private let folder: Mutex<WordFolder>

    init(session: PostgresSession) throws {
        self.session = session
        folder = Mutex(try WordFolder())
    }

    /// Connects to the catalog at `location`; throws ``CatalogError/noCatalog(path:)`` when there is none yet.
    public static func open(_ location: PostgresLocation) async throws -> PostgresProductSearch {
        let session = try await PostgresSession.open(location)
        do {
            _ = try await PostgresCatalogState.requireCatalog(session)
            return try PostgresProductSearch(session: session)
        } catch {
            await session.close()
            throw error
        }
    }

    /// Closes the connection.
    public func close() async {
        await session.close()
    }

    /// Up to `limit` products whose productId starts with `prefix` (ASCII case ignored) and that meet `filters`, after `cursor`.
    public func page(prefix: String, filters: SearchFilters = SearchFilters(), after cursor: KeysetCursor? = nil,
                     limit: Int = ProductSearch.defaultPageSize) async throws -> SearchPage {
        precondition(limit > 0, "a page holds at least one product")
        var statement = PostgresStatement("SELECT * FROM products WHERE true")
        statement.sql += PostgresPrefix(prefix).condition(in: &statement)
        if let last = cursor?.lastProductId, !last.isEmpty {
            statement.sql += " AND \(PostgresSchema.key) > \(statement.bind(last.asciiLowercased))"
        }
        statement.sql += PostgresFilters.conditions(filters, in: &statement)
        statement.sql += " ORDER BY \(PostgresSchema.key) LIMIT \(limit + 1)"
        var products = try await products(statement, doing: "search by productId")
        var next: KeysetCursor?
        if products.count > limit {
            products.removeLast()
            next = KeysetCursor(after: products[products.count - 1].productId)
        }
        return SearchPage(products: products, nextCursor: next)
    }

    /// Up to `limit` products matching `query` and meeting `filters`, after `cursor`: first those
    /// whose productId starts with the query, then those with a word starting with each of its
    /// words in their title, brand or type, each in productId order and listed once.
    public func page(query: String, filters: SearchFilters = SearchFilters(), after cursor: KeysetCursor? = nil,
                     limit: Int = ProductSearch.defaultPageSize) async throws -> SearchPage {
        precondition(limit > 0, "a page holds at least one product")
        var products: [Product] = []
        let amongWords = cursor?.lastWordMatchId != nil || cursor?.lastWordRow != nil
        if !amongWords {
            let prefixPage = try await page(prefix: query, filters: filters, after: cursor, limit: limit)
            if prefixPage.nextCursor != nil { return prefixPage }
            products = prefixPage.products
        }
        guard let match = try wordMatch(query) else { return SearchPage(products: products, nextCursor: nil) }
        var statement = PostgresStatement("SELECT * FROM products")
        statement.sql += wordConditions(match, excludingPrefix: query, filters: filters, in: &statement)
        if let last = cursor?.lastWordMatchId {
            statement.sql += " AND \(PostgresSchema.key) > \(statement.bind(last.asciiLowercased))"
        }
        let room = limit - products.count
        statement.sql += " ORDER BY \(PostgresSchema.key) LIMIT \(room + 1)"
        let matches = try await self.products(statement, doing: "search by words")
        let fitting = matches.prefix(room)
        products += fitting
        guard matches.count > room else { return SearchPage(products: products, nextCursor: nil) }
        // A page filled by productId matches alone ends before the first word match.
        let last = fitting.last?.productId ?? cursor?.lastWordMatchId ?? ""
        return SearchPage(products: products, nextCursor: KeysetCursor(afterWordMatch: last))
    }

    /// How many products ``page(prefix:filters:after:limit:)`` lists in all; with `limit`, counting stops there.
    public func count(prefix: String, filters: SearchFilters = SearchFilters(), upTo limit: Int? = nil) async throws -> Int {
        var statement = PostgresStatement("FROM products WHERE true")
        statement.sql += PostgresPrefix(prefix).condition(in: &statement)
        statement.sql += PostgresFilters.conditions(filters, in: &statement)
        return try await count(statement, upTo: limit)
    }

    /// How many products ``page(query:filters:after:limit:)`` lists in all; with `limit`, counting stops there.
    public func count(query: String, filters: SearchFilters = SearchFilters(), upTo limit: Int? = nil) async throws -> Int {
        let byId = try await count(prefix: query, filters: filters, upTo: limit)
        if let limit, byId >= limit { return limit }
        guard let match = try wordMatch(query) else { return byId }
        var statement = PostgresStatement("FROM products")
        statement.sql += wordConditions(match, excludingPrefix: query, filters: filters, in: &statement)
        return byId + (try await count(statement, upTo: limit.map { $0 - byId }))
    }

    /// How many of the first `cap` products ``page(query:filters:after:limit:)`` lists have each type, color and size.
    public func facets(query: String, filters: SearchFilters = SearchFilters(), top: Int = 10, cap: Int = ProductSearch.facetCap) async throws -> FacetCounts {
        try await facets(query, words: true, filters: filters, top: top, cap: cap)
    }

    /// How many of the first `cap` products ``page(prefix:filters:after:limit:)`` lists have each type, color and size.
    public func facets(prefix: String, filters: SearchFilters = SearchFilters(), top: Int = 10, cap: Int = ProductSearch.facetCap) async throws -> FacetCounts {
        try await facets(prefix, words: false, filters: filters, top: top, cap: cap)
    }

    private func facets(_ text: String, words: Bool, filters: SearchFilters, top: Int, cap: Int) async throws -> FacetCounts {
        let columns = FacetCounts.fields.map { PostgresSchema.quote($0.columnName) }.joined(separator: ", ")
        var statement = PostgresStatement("SELECT \(columns) FROM products WHERE true")
        statement.sql += PostgresPrefix(text).condition(in: &statement)
        statement.sql += PostgresFilters.conditions(filters, in: &statement)
        statement.sql += " ORDER BY \(PostgresSchema.key) LIMIT \(cap + 1)"
        var rows = try await values(statement)
        if words, rows.count <= cap, let match = try wordMatch(text) {
            var wordStatement = PostgresStatement("SELECT \(columns) FROM products")
            wordStatement.sql += wordConditions(match, excludingPrefix: text, filters: filters, in: &wordStatement)
            wordStatement.sql += " ORDER BY \(PostgresSchema.key) LIMIT \(cap + 1 - rows.count)"
            rows += try await values(wordStatement)
        }
        let complete = rows.count <= cap
        return FacetCounts(tallying: Array(rows.prefix(cap)), top: top, isComplete: complete)
    }

    /// The product with exactly this productId (ASCII case ignored), if any.
    public func product(id: String) async throws -> Product? {
        var statement = PostgresStatement("SELECT * FROM products WHERE \(PostgresSchema.key) = ")
        statement.sql += statement.bind(id.asciiLowercased)
        return try await products(statement, doing: "read a product").first
    }

    /// The starred products, in productId order.
    public func favorites() async throws -> [Product] {
        guard try await hasTable(PostgresSchema.favoritesTable) else { return [] }
        let statement = PostgresStatement("""
            SELECT p.* FROM \(PostgresSchema.favoritesTable) f JOIN products p ON \(PostgresSchema.key) = f."productKey"
            ORDER BY \(PostgresSchema.key)
            """)
        return try await products(statement, doing: "read the starred products")
    }

    /// The products with this groupId, in productId order, at most `limit`.
    public func variants(groupId: String, limit: Int = 500) async throws -> [Product] {
        var statement = PostgresStatement("SELECT * FROM products WHERE \"groupId\" = ")
        statement.sql += statement.bind(groupId) + " ORDER BY \(PostgresSchema.key) LIMIT \(limit)"
        return try await products(statement, doing: "read the variants")
    }

    /// The catalog's product types, the most used first (ASCII case ignored), at most `limit`.
    public func productTypes(limit: Int = 500) async throws -> [String] {
        let statement = PostgresStatement("""
            SELECT min("productType") FROM products WHERE coalesce("productType", '') <> ''
            GROUP BY lower("productType" COLLATE "C") ORDER BY count(*) DESC, 1 LIMIT \(limit)
            """)
        return try await session.rows(statement.query, doing: "read the product types").map {
            try $0.makeRandomAccess()[0].decode(String.self)
        }
    }

    /// How many products the catalog holds.
    public func productCount() async throws -> Int {
        try await session.scalar("SELECT count(*) FROM products", as: Int.self, doing: "count the products") ?? 0
    }

    // MARK: - Statements

    /// `WHERE …` for the products with a word starting with each word of `match`, but not a
    /// productId starting with `prefix`, that meet `filters`.
    private func wordConditions(_ match: String, excludingPrefix prefix: String, filters: SearchFilters,
                                in statement: inout PostgresStatement) -> String {
        var sql = " WHERE \(PostgresSchema.wordsColumn) @@ \(statement.bind(match))::tsquery"
        sql += PostgresPrefix(prefix).condition(in: &statement, excluding: true)
        sql += PostgresFilters.conditions(filters, in: &statement)
        return sql
    }

    /// The `tsquery` for rows with a word starting with each word of `query`, folded; nil when it
    /// has no words, or a word longer than any the index holds.
    func wordMatch(_ query: String) throws -> String? {
        let prefixes = try folder.withLock { folder in
            try WordQuery(query).words.flatMap { try folder.prefixes(of: $0) }.filter { !$0.isEmpty }
        }
        guard !prefixes.isEmpty, prefixes.allSatisfy({ $0.utf8.count <= PostgresSchema.longestWord }) else { return nil }
        return prefixes.map { PostgresSchema.lexeme($0) + ":*" }.joined(separator: " & ")
    }

    private func products(_ statement: PostgresStatement, doing: String) async throws -> [Product] {
        let rows = try await session.rows(statement.query, doing: doing)
        do {
            return try rows.map(PostgresProductRow.product)
        } catch {
            throw PostgresCatalogError.wrap(error, location: session.location, doing: doing)
        }
    }

    private func values(_ statement: PostgresStatement) async throws -> [[String?]] {
        try await session.rows(statement.query, doing: "count the facets").map { row in
            try row.map { try $0.decode(String?.self) }
        }
    }

    /// `SELECT count(*)` of the rows `clauses` (`FROM … WHERE …`) select, stopping at `limit` rows.
    private func count(_ clauses: PostgresStatement, upTo limit: Int?) async throws -> Int {
        var statement = clauses
        statement.sql = limit.map { "SELECT count(*) FROM (SELECT 1 \(clauses.sql) LIMIT \($0)) AS matches" } ?? "SELECT count(*) \(clauses.sql)"
        return try await session.scalar(statement.query, as: Int.self, doing: "count the matches") ?? 0
    }

    private func hasTable(_ name: String) async throws -> Bool {
        var statement = PostgresStatement("SELECT to_regclass(")
        statement.sql += statement.bind(name) + ") IS NOT NULL"
        return try await session.scalar(statement.query, as: Bool.self, doing: "look for \(name)") ?? false
    }
}
