/// Listing families (``ResultListing/families``): each family once, as the variant the search
/// would list first.
///
/// The rule is stated without the pages before: a variant is listed when no other variant of its
/// family that the search lists comes before it. So a page after any cursor needs only the
/// variants of the families it meets (``FamilyIndex`` finds them), never the pages before it,
/// and paging over families has neither repeats nor gaps.
extension ProductSearch {
    /// True when `listing` asks for families and the catalog has some.
    func listsFamilies(_ listing: ResultListing) throws -> Bool {
        guard listing == .families else { return false }
        return try FamilyIndex.exists(connection)
    }

    /// `AND …` that keeps, among the products `p` whose productId lies in the range `?6`…`?7`
    /// (the prefix's, whatever a cursor starts the page at) and pass `filters`, only the first of
    /// each family in productId order. `?8` names the collection whose members lead, when they do.
    func familyFirstClause(_ filters: SearchFilters, source: ProductSource, hasUpper: Bool) throws -> String {
        let group = ProductField.groupId.columnName
        let member = source.byCollection ? CollectionTable.membership(alias: "q", parameter: "?8") : ""
        let filter = try filterClause(filters, drivenByCollection: source.byCollection, alias: "q").sql
        return " AND (NOT \(FamilyIndex.inFamily("p")) OR NOT EXISTS (SELECT 1 FROM \(CatalogSchema.table) q WHERE \(FamilyIndex.inFamily("q")) AND q.\(group) = p.\(group)"
            + " AND q.productId < p.productId AND q.productId >= ?6" + (hasUpper ? " AND q.productId < ?7" : "")
            + (member.isEmpty ? "" : " AND " + member) + filter + "))"
    }

    /// Binds the range of ``familyFirstClause(_:source:hasUpper:)``.
    func bindFamilyRange(_ range: PrefixRange, to statement: Statement) throws {
        try statement.bind(6, utf8: range.lower)
        if let upper = range.upper { try statement.bind(7, utf8: upper) }
    }

    /// The other variants of the family `groupId` that pass `filters`, with `columns` (SQL on `p`).
    func familyMembers(_ groupId: String, except productId: String, filters: SearchFilters, columns: String,
                       from source: String = "FROM \(CatalogSchema.table) p", _ body: (Statement) throws -> Void) throws {
        let filter = try filterClause(filters)
        let statement = try prepared("SELECT \(columns) \(source) WHERE \(FamilyIndex.inFamily("p")) AND p.\(ProductField.groupId.columnName) = ?1 AND p.productId != ?2" + filter.sql)
        try statement.using {
            try statement.bind(1, groupId)
            try statement.bind(2, productId)
            try filter.bind(to: statement)
            while try statement.step() { try body(statement) }
        }
    }

    /// Whether some product's productId lies in `range` (a query's productId matches).
    func hasProducts(in range: PrefixRange) throws -> Bool {
        try count(prefix: String(decoding: range.lower, as: UTF8.self), listing: .variants, upTo: 1) > 0
    }

    /// The groupId of the product `productId`, nil for none (or an empty one).
    func groupId(of productId: String) throws -> String? {
        let statement = try prepared("SELECT \(ProductField.groupId.columnName) FROM \(CatalogSchema.table) WHERE productId = ?1")
        return try statement.using {
            try statement.bind(1, productId)
            guard try statement.step(), let groupId = statement.text(at: 0), !groupId.isEmpty else { return nil }
            return groupId
        }
    }

    /// How many families the catalog holds: its products less the variants beyond each family's first.
    func familyCount() throws -> Int? {
        guard let products = try FacetIndex.productCount(connection) else { return nil }
        let group = ProductField.groupId.columnName
        let statement = try prepared("SELECT count(*) - count(DISTINCT \(group)) FROM \(CatalogSchema.table) INDEXED BY \(FamilyIndex.name) WHERE \(FamilyIndex.inFamily(nil))")
        return try statement.using {
            try statement.step()
            return products - Int(statement.int64(at: 0))
        }
    }
}

/// Tells, for the word matches of one search in the ranking rules' order, which are listed when
/// families are: the first match of each family the search meets, unless a variant of it comes
/// before (in the productId matches, or in a better bucket or an earlier row).
struct FamilyJudge {
    let search: ProductSearch
    let plan: WordPlan
    let range: PrefixRange
    let filters: SearchFilters
    /// The families met so far: each is listed at most at its first match.
    private var met = Set<String>()
    private let matcher: WordMatcher
    private let tokenizer: WordTokenizer
    /// What is read of a family's other variants: the productId, then the fields words are matched in (``WordLists/fields``).
    private let memberColumns: String
    /// True while every match before the hits judged next has been judged here: the hits were
    /// given in order from the first match on. Then a family's first match met is its first in
    /// the rules' order, and only a variant listed by its productId can come before it.
    private let fromFirstMatch: Bool
    /// Whether some product's productId is in `range`, read at first need.
    private var rangeHasProducts: Bool?

    /// A judge of the hits of `plan`; with `fromFirstMatch`, they are given from the first match on.
    init(search: ProductSearch, plan: WordPlan, range: PrefixRange, filters: SearchFilters, fromFirstMatch: Bool = false) throws {
        self.search = search
        self.plan = plan
        self.range = range
        self.filters = filters
        self.fromFirstMatch = fromFirstMatch
        matcher = WordMatcher(plan: plan)
        tokenizer = try search.wordTokenizer
        memberColumns = "p.productId, " + WordLists.fields.map { "p." + $0.columnName }.joined(separator: ", ")
    }

    /// Whether each of `hits` (in the rules' order, after those already judged) is listed: the
    /// other variants of the family of each hit are ranked by their own words (``WordMatcher``,
    /// which the ranking tests hold to the lists' order), a few microseconds each, where moving a
    /// word's lists to them costs what reading a page does (a four-letter start of many terms is
    /// hundreds of lists).
    mutating func lists(_ hits: [ProductSearch.IndexHit]) throws -> [Bool] {
        var verdicts = [Bool](repeating: true, count: hits.count)
        guard let view = try search.indexView() else { return verdicts }
        for (position, hit) in hits.enumerated() {
            guard let groupId = try search.groupId(of: hit.productId) else { continue }
            guard met.insert(groupId).inserted else {
                verdicts[position] = false
                continue
            }
            if fromFirstMatch {
                if try listedByProductId(groupId, except: hit.productId) { verdicts[position] = false }
                continue
            }
            var before = false
            try search.familyMembers(groupId, except: hit.productId, filters: filters, columns: memberColumns) { row in
                guard !before else { return }
                let productId = row.text(at: 0) ?? ""
                // A productId match is listed before every word match.
                if range.contains(productId) {
                    before = true
                    return
                }
                let tally = try tally(of: row)
                guard let rank = tally.rank,
                      let place = try view.place(of: productId)
                else { return }
                let wordClass = min(max(Int64(tally.titleWords), 1), WordPlacement.maxClass)
                if (rank, WordPlacement.row(class: wordClass, place: place)) < (hit.rank, hit.row) { before = true }
            }
            if before { verdicts[position] = false }
        }
        return verdicts
    }

    /// The family `groupId` of the word match `productId`: how many of its variants match the
    /// words and pass the filters (the match included), and whether one is listed by its productId.
    func family(_ groupId: String, of productId: String) throws -> (matches: Int, listedByProductId: Bool) {
        var matches = 1
        var listed = false
        try search.familyMembers(groupId, except: productId, filters: filters, columns: memberColumns) { row in
            if range.contains(row.text(at: 0) ?? "") { listed = true }
            if try tally(of: row).rank != nil { matches += 1 }
        }
        return (matches, listed)
    }

    /// Whether a variant of the family `groupId` other than `productId` that passes the filters is
    /// listed by its productId (lies in `range`); no family's is when no product's productId does.
    mutating func listedByProductId(_ groupId: String, except productId: String) throws -> Bool {
        if rangeHasProducts == nil { rangeHasProducts = try search.hasProducts(in: range) }
        guard rangeHasProducts == true else { return false }
        var listed = false
        try search.familyMembers(groupId, except: productId, filters: filters, columns: "p.productId") { row in
            if range.contains(row.text(at: 0) ?? "") { listed = true }
        }
        return listed
    }

    /// The matches of the title, brand and type in columns 1 to 3 of `row`, noted as they are tokenized.
    private func tally(of row: Statement) throws -> WordMatcher.Tally {
        var tally = WordMatcher.Tally(matcher)
        for column in Int32(1)...3 {
            try row.withBytes(at: column) { text in try tokenizer.forEachToken(in: text) { tally.note($0, field: Int(column) - 1) } }
        }
        return tally
    }
}

