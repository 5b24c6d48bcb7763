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
/// A query lists the products whose productId starts with it (ASCII case ignored), in productId
/// order, then those with its words in their title, brand or type, in a catalog file's tiers and
/// order, typos included (see ``PostgresWordTiers``); each page is one range of the index on the
/// folded productId, or one match of the word index from the cursor's tier and row on, never an
/// OFFSET. Words are folded as in a catalog file (``WordFolder``) and planned by the same code
/// (``WordVocabulary``): a query finds what it finds there, in the same order. Each statement reads the table as
/// it is then, so an import's swap shows at the next page. Statements on one search run one after
/// another; open one per concurrent reader.
public final class PostgresProductSearch: Sendable {
    let session: PostgresSession
    private let folder: Mutex<WordFolder>
    /// The term list and the version it was read at.
    private let vocabulary = Mutex<(version: Int64, vocabulary: WordVocabulary)?>(nil)
    /// Where word search switches ways of finding a tier's products.
    let lookupLimits: PostgresWordTiers.Limits
    /// True once the catalog was seen to keep stock by store: its stock table, once made, stays.
    let stockSeen = Mutex(false)

    init(session: PostgresSession, lookupLimits: PostgresWordTiers.Limits = .init()) throws {
        self.session = session
        self.lookupLimits = lookupLimits
        folder = Mutex(try WordFolder())
    }

    /// Connects to the catalog at `location`; throws ``CatalogError/noCatalog(path:)`` when there is none yet.
    public static func open(_ location: PostgresLocation) async throws -> PostgresProductSearch {
        try await open(location, lookupLimits: .init())
    }

    /// ``open(_:)`` with other limits, so that a test of a small catalog takes every way of finding products.
    static func open(_ location: PostgresLocation, lookupLimits: PostgresWordTiers.Limits) async throws -> PostgresProductSearch {
        let session = try await PostgresSession.open(location)
        do {
            _ = try await PostgresCatalogState.requireCatalog(session)
            return try PostgresProductSearch(session: session, lookupLimits: lookupLimits)
        } catch {
            await session.close()
            throw error
        }
    }

    /// Closes the connection.
    public func close() async {
        await session.close()
    }

    /// Up to `limit` products whose productId starts with `prefix` (ASCII case ignored) and that
    /// meet `filters`, after `cursor`; listing families, the first of each in productId order.
    public func page(prefix: String, filters: SearchFilters = SearchFilters(), listing: ResultListing = .families, after cursor: KeysetCursor? = nil,
                     limit: Int = ProductSearch.defaultPageSize) async throws -> SearchPage {
        try await noteStock(filters)
        precondition(limit > 0, "a page holds at least one product")
        var statement = PostgresStatement("SELECT p.* FROM products p WHERE true")
        statement.sql += PostgresPrefix(prefix).condition(in: &statement)
        if let last = cursor?.lastProductId, !last.isEmpty {
            statement.sql += " AND \(PostgresSchema.key) > \(statement.bind(last.asciiLowercased))"
        }
        statement.sql += filterConditions(filters, in: &statement)
        if listing == .families {
            // An earlier variant in the prefix's range, whatever page it was on.
            var before = "\(PostgresSchema.key) < lower(p.\"productId\")" + PostgresPrefix(prefix).condition(in: &statement)
            before += filterConditions(filters, in: &statement)
            statement.sql += Self.familyFirst(before: before)
        }
        statement.sql += " ORDER BY \(PostgresSchema.key) LIMIT \(limit + 1)"
        var products = try await products(statement, doing: "search by productId")
        var next: KeysetCursor?
        if products.count > limit {
            products.removeLast()
            next = KeysetCursor(after: products[products.count - 1].productId)
        }
        return SearchPage(products: products, nextCursor: next)
    }

    /// Up to `limit` products matching `query` and meeting `filters`, after `cursor`, in a catalog
    /// file's order: first those whose productId starts with the query, in productId order; then
    /// those whose title, brand or type have its words, tier by tier (see ``WordTier``), each tier
    /// in the word index's order, and with `typos` those matched only with typos, fewest first.
    /// Each product is listed once; the page carries each product's highlights.
    /// Listing families, each family once, as the variant it would list first (see ``familyHasEarlier``).
    public func page(query: String, filters: SearchFilters = SearchFilters(), typos: Bool = true, listing: ResultListing = .families,
                     after cursor: KeysetCursor? = nil, limit: Int = ProductSearch.defaultPageSize) async throws -> SearchPage {
        try await noteStock(filters)
        precondition(limit > 0, "a page holds at least one product")
        var products: [Product] = []
        let plan = try await plan(query, typos: typos)
        func highlighted(_ page: SearchPage) throws -> SearchPage {
            guard let plan else { return page }
            var page = page
            page.highlights = try folder.withLock { folder in try page.products.map { try folder.highlights(of: $0, plan: plan) } }
            return page
        }
        let position = cursor?.wordBucket
        if position == nil {
            let prefixPage = try await page(prefix: query, filters: filters, listing: listing, after: cursor, limit: limit)
            if prefixPage.nextCursor != nil { return try highlighted(prefixPage) }
            products = prefixPage.products
        }
        guard let plan, let tiers = try await tiers(plan) else { return try highlighted(SearchPage(products: products, nextCursor: nil)) }
        let room = limit - products.count
        let after = position ?? (0, 0)
        // One more than fits, to know whether a next page exists; listing families, read on until
        // that many are listed, since a family's later matches are passed over.
        var rows: [PostgresRow] = []
        var met = Set<String>()
        var from = after
        do {
            while rows.count <= room {
                let wanted = room + 1 - rows.count
                let read = listing == .families ? max(wanted, 32) : wanted
                let batch = try await wordMatchRows(tiers, after: from, excludingPrefix: query, filters: filters, columns: "p.*", limit: read)
                for row in batch where rows.count <= room {
                    let cells = row.makeRandomAccess()
                    from = (try cells[PostgresWordTiers.tierColumn].decode(Int.self), try cells[PostgresSchema.wordRowColumn].decode(Int64.self))
                    if listing == .families, let groupId = try cells[ProductField.groupId.columnName].decode(String?.self), !groupId.isEmpty {
                        guard met.insert(groupId).inserted else { continue }
                        if try await familyHasEarlier(groupId, except: try cells[ProductField.productId.columnName].decode(String.self),
                                                      bucket: from.code, row: from.row, query: query, tiers: tiers, filters: filters,
                                                      fromFirstMatch: position == nil) { continue }
                    }
                    rows.append(row)
                }
                guard batch.count == read else { break }
            }
        } catch {
            throw PostgresCatalogError.wrap(error, location: session.location, doing: "search by words")
        }
        var last = after
        do {
            for row in rows.prefix(room) {
                products.append(try PostgresProductRow.product(row))
                let cells = row.makeRandomAccess()
                last = (try cells[PostgresWordTiers.tierColumn].decode(Int.self), try cells[PostgresSchema.wordRowColumn].decode(Int64.self))
            }
        } catch {
            throw PostgresCatalogError.wrap(error, location: session.location, doing: "search by words")
        }
        guard rows.count > room else { return try highlighted(SearchPage(products: products, nextCursor: nil)) }
        return try highlighted(SearchPage(products: products, nextCursor: KeysetCursor(afterWordBucket: last.code, row: last.row)))
    }

    /// Up to `limit` word matches after `after`, in order, each row with `columns`, its bucket of
    /// the ranking rules (``KeysetCursor/wordBucket``) and its word row: one query per tier without
    /// typos (buckets 0 to 3), from the cursor's, until `limit` are found,
    /// so that a tier with many matches is read in word-row order from its index and stops at a
    /// page (one query for every tier at once sorted all of `t`'s 600,000 matches on a realistic
    /// million); then one query for the typo tiers together, which hold few products each.
    private func wordMatchRows(_ tiers: PostgresWordTiers, after: (code: Int, row: Int64), excludingPrefix prefix: String,
                               filters: SearchFilters, columns: String, limit: Int) async throws -> [PostgresRow] {
        var rows: [PostgresRow] = []
        let row = PostgresSchema.wordRowColumn
        for tier in tiers.plan.tiers where !tier.isTypo && tier.bucket >= after.code && rows.count < limit {
            var statement = PostgresStatement()
            var sql = "SELECT \(columns), \(tier.bucket) AS \(PostgresWordTiers.tierColumn) FROM products p WHERE "
            sql += tiers.condition(of: tier, in: &statement)
            sql += PostgresPrefix(prefix).condition(in: &statement, excluding: true)
            sql += filterConditions(filters, in: &statement)
            if tier.bucket == after.code { sql += " AND \(row) > \(statement.bind(after.row))" }
            // `+ 0` keeps the planner from walking the word-row index for a tier it would guess dense.
            statement.sql = sql + " ORDER BY \(row)\(tiers.walksWordRows(tier) ? "" : " + 0") LIMIT \(limit - rows.count)"
            rows += try await session.rows(statement.query, doing: "search by words")
        }
        if rows.count < limit, tiers.plan.tiers.contains(where: \.isTypo) {
            var statement = PostgresStatement()
            let bucket = tiers.typoBucket(in: &statement)
            var sql = "SELECT * FROM (SELECT \(columns), \(bucket) AS \(PostgresWordTiers.tierColumn) FROM products p WHERE "
            sql += tiers.typoCandidates(in: &statement)
            sql += PostgresPrefix(prefix).condition(in: &statement, excluding: true)
            sql += filterConditions(filters, in: &statement)
            let from: (code: Int, row: Int64) = after.code >= 4 ? after : (4, 0)
            sql += ") m WHERE (\(PostgresWordTiers.tierColumn), \(row)) > (\(statement.bind(from.code)), \(statement.bind(from.row)))"
            statement.sql = sql + " ORDER BY \(PostgresWordTiers.tierColumn), \(row) LIMIT \(limit - rows.count)"
            rows += try await session.rows(statement.query, doing: "search by words")
        }
        return rows
    }

    /// Up to `limit` products matching `query` and `filters` after `cursor`, in `sort`'s order
    /// (see ``SearchSort``), as a catalog file lists them: the products of
    /// ``page(query:filters:typos:after:limit:)`` (every product for an empty query), by their
    /// value, those without one last, ties in productId order (reversed for `-price` and `newest`).
    /// Listing families, each family once, as its first variant in that order that the search lists.
    public func page(query: String, filters: SearchFilters = SearchFilters(), typos: Bool = true, sort: SearchSort, listing: ResultListing = .families,
                     after cursor: KeysetCursor? = nil, limit: Int = ProductSearch.defaultPageSize) async throws -> SearchPage {
        try await noteStock(filters)
        guard sort != .relevance else { return try await page(query: query, filters: filters, typos: typos, listing: listing, after: cursor, limit: limit) }
        precondition(limit > 0, "a page holds at least one product")
        let plan = try await plan(query, typos: typos)
        let after = cursor?.sortPosition.flatMap { $0.sort == sort ? $0 : nil }
        let value = Self.sortValue(sort)
        let key = PostgresSchema.key
        let descending = sort.isDescending
        let (order, comparison) = descending ? ("DESC", "<") : ("ASC", ">")
        var statement = PostgresStatement()
        /// `AND` what the products the search lists meet: the productId matches or the word matches, and the filters.
        func listed(_ statement: inout PostgresStatement) -> String {
            var conditions = ""
            if !ProductRules.trimmed(query).isEmpty {
                let prefix = PostgresPrefix(query)
                var alternatives: [String] = []
                if !prefix.lower.isEmpty {
                    var range = "\(key) >= \(statement.bind(prefix.lower))"
                    if let upper = prefix.upper { range += " AND \(key) < \(statement.bind(upper))" }
                    alternatives.append("(\(range))")
                }
                if let plan, let tiers = PostgresWordTiers(plan: plan, exactKeys: [], limits: lookupLimits) {
                    alternatives.append(tiers.anyTier(in: &statement))
                }
                conditions += " AND (\(alternatives.isEmpty ? "false" : alternatives.joined(separator: " OR ")))"
            }
            return conditions + filterConditions(filters, in: &statement)
        }
        var conditions = listed(&statement)
        if listing == .families {
            // A listed variant of the family before this one in the sort's order: those with a value first, then by value, then productId.
            let (mine, its) = (Self.sortValue(sort, of: "q"), value)
            let ahead = "(\(its) \(comparison) \(mine) OR (\(mine) IS NOT DISTINCT FROM \(its) AND lower(p.\"productId\") \(comparison) lower(q.\"productId\")))"
            let before = "((\(mine) IS NULL) < (\(its) IS NULL) OR ((\(mine) IS NULL) = (\(its) IS NULL) AND \(ahead)))"
            conditions += Self.familyFirst(before: before + listed(&statement))
        }
        if let after {
            let afterKey = statement.bind(after.productId.asciiLowercased)
            switch after.value {
            case .number(let number)?:
                conditions += " AND (\(value) IS NULL OR (\(value), \(key)) \(comparison) (\(statement.bind(number)), \(afterKey)))"
            case .text(let text)?:
                conditions += " AND (\(value) IS NULL OR (\(value), \(key)) \(comparison) (\(statement.bind(text.asciiLowercased)), \(afterKey)))"
            case nil:
                conditions += " AND \(value) IS NULL AND \(key) \(comparison) \(afterKey)"
            }
        }
        statement.sql = """
            SELECT p.*, \(value) AS catalog_sort FROM products p WHERE true\(conditions)
            ORDER BY \(value) IS NULL, \(value) \(order), \(key) \(order) LIMIT \(limit + 1)
            """
        let rows = try await session.rows(statement.query, doing: "search in order")
        var products: [Product] = []
        var last: SortPosition?
        do {
            for row in rows.prefix(limit) {
                let product = try PostgresProductRow.product(row)
                products.append(product)
                let cell = row.makeRandomAccess()["catalog_sort"]
                let sortValue: SortPosition.SortValue? = switch sort {
                case .title: product.title.flatMap { $0.isEmpty ? nil : .text($0) }
                default: try cell.decode(Int64?.self).map { .number($0) }
                }
                last = SortPosition(sort: sort, value: sortValue, productId: product.productId)
            }
        } catch {
            throw PostgresCatalogError.wrap(error, location: session.location, doing: "search in order")
        }
        var page = SearchPage(products: products, nextCursor: rows.count > limit ? last.map { KeysetCursor(after: $0) } : nil)
        if let plan {
            page.highlights = try folder.withLock { folder in try products.map { try folder.highlights(of: $0, plan: plan) } }
        }
        return page
    }

    /// The SQL value `sort` orders by, NULL for a product without one: the price a product sells
    /// for, the title with ASCII letters folded (as SQLite's `NOCASE` compares), or the place.
    private static func sortValue(_ sort: SearchSort, of row: String = "p") -> String {
        switch sort {
        case .relevance, .price, .priceDescending:
            "coalesce(\(row).\(PostgresSchema.quote(ProductField.salesPrice.columnName)), \(row).\(PostgresSchema.quote(ProductField.listPrice.columnName)))"
        case .title: "lower(nullif(\(row).title, '') COLLATE \"C\")"
        case .newest: "(\(row).\(PostgresSchema.wordRowColumn) & \(WordFolder.placeMask))"
        }
    }

    /// How many products ``page(prefix:filters:after:limit:)`` lists in all (families, when
    /// `listing` says so); with `limit`, counting stops there.
    public func count(prefix: String, filters: SearchFilters = SearchFilters(), listing: ResultListing = .families, upTo limit: Int? = nil) async throws -> Int {
        try await noteStock(filters)
        var statement = PostgresStatement("FROM products p WHERE true")
        statement.sql += PostgresPrefix(prefix).condition(in: &statement)
        statement.sql += filterConditions(filters, in: &statement)
        return try await count(statement, families: listing == .families, upTo: limit)
    }

    /// How many products ``page(query:filters:typos:after:limit:)`` lists in all (families, when
    /// `listing` says so, counted exactly: each family with a variant among the matches once);
    /// with `limit`, counting stops there.
    public func count(query: String, filters: SearchFilters = SearchFilters(), typos: Bool = true, listing: ResultListing = .families,
                      upTo limit: Int? = nil) async throws -> Int {
        try await noteStock(filters)
        if listing == .families {
            var statement = PostgresStatement()
            let prefix = PostgresPrefix(query)
            var alternatives: [String] = []
            if !prefix.lower.isEmpty { alternatives.append("(true" + prefix.condition(in: &statement) + ")") }
            if let plan = try await plan(query, typos: typos), let tiers = PostgresWordTiers(plan: plan, exactKeys: [], limits: lookupLimits) {
                alternatives.append("(" + tiers.anyTier(in: &statement) + ")")
            }
            let matches = ProductRules.trimmed(query).isEmpty ? "true" : alternatives.isEmpty ? "false" : alternatives.joined(separator: " OR ")
            statement.sql = "FROM products p WHERE (\(matches))" + filterConditions(filters, in: &statement)
            return try await count(statement, families: true, upTo: limit)
        }
        let byId = try await count(prefix: query, filters: filters, listing: .variants, upTo: limit)
        if let limit, byId >= limit { return limit }
        guard let plan = try await plan(query, typos: typos), let tiers = PostgresWordTiers(plan: plan, exactKeys: [], limits: lookupLimits) else { return byId }
        var statement = PostgresStatement()
        statement.sql = "FROM products p WHERE " + wordConditions(tiers, excludingPrefix: query, filters: filters, in: &statement)
        return byId + (try await count(statement, upTo: limit.map { $0 - byId }))
    }

    /// How many of the first `cap` products ``page(query:filters:typos:after:limit:)`` lists have each type, color and size.
    public func facets(query: String, filters: SearchFilters = SearchFilters(), typos: Bool = true, top: Int = 10,
                       cap: Int = ProductSearch.facetCap) async throws -> FacetCounts {
        let keepsStock = try await keepsStock()
        // The whole catalog: counted exactly, as a catalog file keeps its counts.
        if ProductRules.trimmed(query).isEmpty, filters.isEmpty { return try await wholeCatalogFacets(top: top, cap: cap, keepsStock: keepsStock) }
        let columns = Self.facetColumns(keepsStock: keepsStock)
        var rows = try await facetRows(prefix: query, filters: filters, cap: cap, columns: columns)
        if rows.count <= cap, let plan = try await plan(query, typos: typos), let tiers = try await tiers(plan) {
            let matches = try await wordMatchRows(tiers, after: (0, 0), excludingPrefix: query, filters: filters,
                                                  columns: columns.joined(separator: ", ") + ", p.\(PostgresSchema.wordRowColumn)",
                                                  limit: cap + 1 - rows.count)
            rows += try matches.map { row in try row.makeRandomAccess()[0..<columns.count].map { try $0.decode(String?.self) } }
        }
        return FacetCounts(tallying: Array(rows.prefix(cap)), top: top, isComplete: rows.count <= cap, keepsStock: keepsStock)
    }

    /// How many of the first `cap` products ``page(prefix:filters:after:limit:)`` lists have each type, color and size.
    public func facets(prefix: String, filters: SearchFilters = SearchFilters(), top: Int = 10, cap: Int = ProductSearch.facetCap) async throws -> FacetCounts {
        let keepsStock = try await keepsStock()
        let rows = try await facetRows(prefix: prefix, filters: filters, cap: cap, columns: Self.facetColumns(keepsStock: keepsStock))
        return FacetCounts(tallying: Array(rows.prefix(cap)), top: top, isComplete: rows.count <= cap, keepsStock: keepsStock)
    }

    /// What facets count of a product `p`: its type, color and size, its options, and with stock
    /// by store the stores it is in stock at, separated by U+001F.
    private static func facetColumns(keepsStock: Bool) -> [String] {
        var columns = (FacetCounts.fields + [.options]).map { "p." + PostgresSchema.quote($0.columnName) }
        if keepsStock {
            columns.append("""
                (SELECT string_agg(s.store, chr(31) ORDER BY s."storeKey") FROM \(PostgresSchema.stockTable) s \
                WHERE s."productKey" = lower(p."productId") AND s.quantity > 0)
                """)
        }
        return columns
    }

    /// The counts of every product's type, color and size, each value spelled as the product
    /// first in productId order spells it.
    private func wholeCatalogFacets(top: Int, cap: Int, keepsStock: Bool) async throws -> FacetCounts {
        let groups = FacetCounts.fields.enumerated().map { index, field in
            let value = "coalesce(\(PostgresSchema.quote(field.columnName)), '')"
            return "SELECT \(index), (array_agg(\(value) ORDER BY \(PostgresSchema.key)))[1], count(*) FROM products GROUP BY lower(\(value) COLLATE \"C\")"
        }
        let rows = try await session.rows(PostgresQuery(unsafeSQL: groups.joined(separator: " UNION ALL ")), doing: "count the facets")
        var totals = Array(repeating: [(value: String?, products: Int)](), count: FacetCounts.fields.count)
        for row in rows {
            let cells = row.makeRandomAccess()
            totals[try cells[0].decode(Int.self)].append((try cells[1].decode(String?.self), try cells[2].decode(Int.self)))
        }
        // Options are not kept: counted among the first `cap` products, as a catalog file counts them.
        let options = try await values(PostgresStatement(
            "SELECT \(PostgresSchema.quote(ProductField.options.columnName)) FROM products ORDER BY \(PostgresSchema.key) LIMIT \(cap + 1)"))
        var counts = FacetCounts(totals: totals, top: top)
            .withOptions(of: options.prefix(cap).map { $0[0] }, top: top, isComplete: options.count <= cap)
        if keepsStock { counts.stores = FacetCounts.StoreCounts(tallying: try await storeCounts(), top: top) }
        return counts
    }

    /// The facet values of the first `cap` + 1 products whose productId starts with `prefix`.
    private func facetRows(prefix: String, filters: SearchFilters, cap: Int, columns: [String]) async throws -> [[String?]] {
        var statement = PostgresStatement("SELECT \(columns.joined(separator: ", ")) FROM products p WHERE true")
        statement.sql += PostgresPrefix(prefix).condition(in: &statement)
        statement.sql += filterConditions(filters, in: &statement)
        statement.sql += " ORDER BY \(PostgresSchema.key) LIMIT \(cap + 1)"
        return try await values(statement)
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

    /// Every distinct `imageURL` that starts with `prefix`, in one pass over the products.
    public func imageURLs(startingWith prefix: String) async throws -> Set<String> {
        var statement = PostgresStatement("SELECT DISTINCT \"imageURL\" FROM products WHERE left(\"imageURL\", ")
        let bound = statement.bind(prefix)
        statement.sql += "length(\(bound))) = \(bound)"
        let rows = try await session.rows(statement.query, doing: "read the pictures in use")
        var urls = Set<String>()
        for row in rows { if let url = try? row.makeRandomAccess()[0].decode(String?.self) { urls.insert(url) } }
        return urls
    }

    /// The products with this groupId, in productId order, at most `limit`.
    public func variants(groupId: String, limit: Int = 500) async throws -> [Product] {
        // `<> ''` lets the planner take the family index, which holds only products with a groupId.
        var statement = PostgresStatement("SELECT * FROM products WHERE \"groupId\" <> '' AND \"groupId\" = ")
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

    /// The conditions of the products in some tier of `tiers` whose productId does not start with
    /// `prefix` (those come before, by productId) and that meet `filters`.
    private func wordConditions(_ tiers: PostgresWordTiers, excludingPrefix prefix: String, filters: SearchFilters,
                                in statement: inout PostgresStatement) -> String {
        var sql = tiers.anyTier(in: &statement)
        sql += PostgresPrefix(prefix).condition(in: &statement, excluding: true)
        sql += filterConditions(filters, in: &statement)
        return sql
    }

    /// The tiers of `plan`, with the products whose title is exactly its words; nil when nothing can match.
    private func tiers(_ plan: WordPlan) async throws -> PostgresWordTiers? {
        var exact: [String] = []
        if plan.tiers.contains(.exactTitle) {
            var statement = PostgresStatement("SELECT \(PostgresSchema.key), title FROM products WHERE \(PostgresSchema.titleKeyColumn) = ")
            statement.sql += statement.bind(plan.exactKey)
            let rows = try await session.rows(statement.query, doing: "find the exact titles")
            let folded = plan.folded
            exact = try folder.withLock { folder in
                try rows.compactMap { row in
                    let cells = row.makeRandomAccess()
                    let words = try folder.words(in: try cells[1].decode(String?.self) ?? "")
                    // The key is a hash: the words themselves decide, byte by byte.
                    guard words.count == folded.count, zip(words, folded).allSatisfy({ $0.utf8.elementsEqual($1.utf8) }) else { return nil }
                    return try cells[0].decode(String.self)
                }
            }
        }
        return PostgresWordTiers(plan: plan, exactKeys: exact, limits: lookupLimits)
    }

    /// How `query` is looked up, as a catalog file plans it (see ``WordVocabulary``); nil without words.
    func plan(_ query: String, typos: Bool) async throws -> WordPlan? {
        guard !WordQuery(query).words.isEmpty else { return nil }
        let vocabulary = try await currentVocabulary()
        return try folder.withLock { try vocabulary.plan(query, typos: typos, folder: $0) }
    }

    /// The term list in memory, read again when a write added terms (`termsVersion` changed).
    private func currentVocabulary() async throws -> WordVocabulary {
        let version = try await session.scalar(PostgresQuery(unsafeSQL: """
            SELECT value FROM \(PostgresSchema.metaTable) WHERE name = 'termsVersion'
            """), as: Int64.self, doing: "read the term list's version") ?? 0
        if let known = vocabulary.withLock({ $0 }), known.version == version { return known.vocabulary }
        let products = try await productCount()
        let rows = try await session.rows(PostgresQuery(unsafeSQL: "SELECT term, docs FROM \(PostgresSchema.termsTable) ORDER BY term"),
                                          doing: "read the term list")
        let terms = try rows.map { row in
            let cells = row.makeRandomAccess()
            return (term: try cells[0].decode(String.self), docs: Int(try cells[1].decode(Int64.self)))
        }
        let read = WordVocabulary(sortedTerms: terms, products: products)
        vocabulary.withLock { $0 = (version, read) }
        return read
    }

    /// Reads the term list, which the first search with words would read otherwise.
    public func loadTermList() async throws {
        _ = try await currentVocabulary()
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

    /// `SELECT count(*)` of the rows `clauses` (`FROM … p WHERE …`) select, or with `families` of
    /// their families, stopping at `limit`.
    private func count(_ clauses: PostgresStatement, families: Bool = false, upTo limit: Int?) async throws -> Int {
        var statement = clauses
        let counted = families ? "DISTINCT \(Self.familyKey)" : "1"
        statement.sql = limit.map { "SELECT count(*) FROM (SELECT \(counted) \(clauses.sql) LIMIT \($0)) AS matches" }
            ?? (families ? "SELECT count(\(counted)) \(clauses.sql)" : "SELECT count(*) \(clauses.sql)")
        return try await session.scalar(statement.query, as: Int.self, doing: "count the matches") ?? 0
    }

    func hasTable(_ name: String) async throws -> Bool {
        var statement = PostgresStatement("SELECT to_regclass(")
        statement.sql += statement.bind(name) + ") IS NOT NULL"
        return try await session.scalar(statement.query, as: Bool.self, doing: "look for \(name)") ?? false
    }
}
