import PostgresNIO
import ProductCatalog

/// Listing families (``ResultListing/families``) as a catalog file lists them: a variant is listed
/// when no other variant of its family (its non-empty `groupId`) that the search lists comes
/// before it. Stated without the pages before, so keyset paging over families has neither
/// repeats nor gaps; the `products_family` index finds a family's other variants.
extension PostgresProductSearch {
    static let group = PostgresSchema.quote(ProductField.groupId.columnName)

    /// `AND …` keeping, among the products `p`, those no other variant `q` of whose family meets
    /// `before`: SQL whose unqualified columns are `q`'s.
    static func familyFirst(before: String) -> String {
        " AND (coalesce(p.\(group), '') = '' OR NOT EXISTS (SELECT 1 FROM products q WHERE q.\(group) = p.\(group) AND q.\(group) <> ''"
            + " AND lower(q.\"productId\") <> lower(p.\"productId\") AND \(before)))"
    }

    /// What a count of families counts once for the product `p`: its family, or itself without one.
    static let familyKey = "CASE WHEN coalesce(p.\(group), '') = '' THEN 'p' || lower(p.\"productId\") ELSE 'g' || p.\(group) END"

    /// Whether the family `groupId` of the word match `productId` (in `bucket`, at `row`) has
    /// another variant that passes `filters` and is listed before it: by its productId (it starts
    /// with `query`), or as a word match in an earlier bucket or row. With `fromFirstMatch`, every
    /// earlier word match was met on this page, so only the first can be.
    func familyHasEarlier(_ groupId: String, except productId: String, bucket: Int, row: Int64, query: String,
                          tiers: PostgresWordTiers, filters: SearchFilters, fromFirstMatch: Bool) async throws -> Bool {
        var statement = PostgresStatement()
        var earlier: [String] = []
        let prefix = PostgresPrefix(query)
        if !prefix.lower.isEmpty { earlier.append("(true" + prefix.condition(in: &statement) + ")") }
        if !fromFirstMatch {
            let position = "(\(tiers.bucket(in: &statement)), \(PostgresSchema.wordRowColumn))"
            earlier.append("(\(tiers.anyTier(in: &statement)) AND \(position) < (\(statement.bind(bucket)), \(statement.bind(row))))")
        }
        guard !earlier.isEmpty else { return false }
        var sql = "SELECT 1 FROM products q WHERE \(Self.group) = \(statement.bind(groupId)) AND \(Self.group) <> ''"
        sql += " AND \(PostgresSchema.key) <> \(statement.bind(productId.asciiLowercased))"
        sql += filterConditions(filters, in: &statement)
        statement.sql = sql + " AND (" + earlier.joined(separator: " OR ") + ") LIMIT 1"
        return !(try await session.rows(statement.query, doing: "list the families").isEmpty)
    }

    /// The families of `products` that have a groupId, by groupId: every variant counted, their
    /// prices' range, their options in productId order.
    public func familySummaries(of products: [Product]) async throws -> [String: FamilySummary] {
        let groupIds = Array(Set(products.compactMap(\.groupId).filter { !$0.isEmpty }))
        guard !groupIds.isEmpty else { return [:] }
        let list = PostgresSchema.quote(ProductField.listPrice.columnName), sale = PostgresSchema.quote(ProductField.salesPrice.columnName)
        let options = PostgresSchema.quote(ProductField.options.columnName)
        var statement = PostgresStatement()
        statement.sql = """
            SELECT \(Self.group), count(*), min(coalesce(\(sale), \(list))), max(coalesce(\(sale), \(list))),
              string_agg(coalesce(\(options), ''), chr(30) ORDER BY \(PostgresSchema.key))
            FROM products WHERE \(Self.group) = ANY(\(statement.bind(groupIds))::text[]) AND \(Self.group) <> '' GROUP BY \(Self.group)
            """
        var summaries: [String: FamilySummary] = [:]
        do {
            for row in try await session.rows(statement.query, doing: "read the families") {
                let cells = row.makeRandomAccess()
                let groupId = try cells[0].decode(String.self)
                summaries[groupId] = FamilySummary(
                    groupId: groupId, variants: try cells[1].decode(Int.self),
                    lowestPrice: try cells[2].decode(Int64?.self).map { Price(thousandths: $0) },
                    highestPrice: try cells[3].decode(Int64?.self).map { Price(thousandths: $0) },
                    optionTexts: (try cells[4].decode(String?.self) ?? "").split(separator: "\u{1E}", omittingEmptySubsequences: false).map(String.init))
            }
        } catch {
            throw PostgresCatalogError.wrap(error, location: session.location, doing: "read the families")
        }
        return summaries
    }
}

extension PostgresProductSearch {
    /// The page `request` asks for after `cursor`, as ``ProductSearch/page(_:after:limit:)``
    /// reads a catalog file: listing families, with their summaries.
    public func page(_ request: SearchRequest, after cursor: KeysetCursor? = nil, limit: Int = ProductSearch.defaultPageSize) async throws -> SearchPage {
        var page = request.byPrefix
            ? try await page(prefix: request.text, filters: request.filters, listing: request.listing, after: cursor, limit: limit)
            : try await page(query: request.text, filters: request.filters, typos: request.typos, sort: request.sort, listing: request.listing,
                             after: cursor, limit: limit)
        if request.listing == .families { page.families = try await familySummaries(of: page.products) }
        return page
    }

    /// How many products `request` finds in all; with `limit`, counting stops there.
    public func count(_ request: SearchRequest, upTo limit: Int? = nil) async throws -> Int {
        request.byPrefix
            ? try await count(prefix: request.text, filters: request.filters, listing: request.listing, upTo: limit)
            : try await count(query: request.text, filters: request.filters, typos: request.typos, listing: request.listing, upTo: limit)
    }

    /// How many of the products `request` finds have each type, color, size and option.
    public func facets(_ request: SearchRequest) async throws -> FacetCounts {
        request.byPrefix
            ? try await facets(prefix: request.text, filters: request.filters)
            : try await facets(query: request.text, filters: request.filters, typos: request.typos)
    }
}
