/// One reading connection of ``SQLiteCatalog`` and what it caches; lives on one of its reading queues.
///
/// Each request reads one state of the catalog, in one read transaction (``transaction(_:)``):
/// its page, its count, its facets and its sorted pages agree, whatever commits meanwhile.
struct SQLiteReader {
    let databasePath: String
    private var search: ProductSearch?
    private var searchIdentity: CatalogFileIdentity?
    /// The schema's version when the search was opened: a replacing import copied into the file
    /// (see ``CatalogBuild``) changes it, and the search is opened anew.
    private var schemaVersion: Int64?
    /// Match counts by prefix or query and filters, valid while the file and its data version stay the same.
    private var counts: [CountKey: MatchCount] = [:]
    /// Whole answers by request, valid as long as the counts are: a query many people type, or
    /// one typed again, is answered without searching.
    private var pages: [PageKey: (page: SearchPage, count: Int, complete: Bool)] = [:]
    private var countsVersion: Int64?
    /// The catalog's product types, valid as long as the counts are.
    private var types: [String]?

    init(databasePath: String) {
        self.databasePath = databasePath
    }

    /// Runs `body`; when a killed writer left a hot journal that this read-only connection
    /// cannot roll back, rolls it back and runs `body` once more on a new connection.
    mutating func recovering<T>(_ body: (inout SQLiteReader) throws -> T) throws -> T {
        do {
            return try body(&self)
        } catch let error as SQLiteError where error.isHotJournal {
            close()
            try CatalogSchema.rollBackInterruptedWrite(databasePath)
            return try body(&self)
        }
    }

    private struct CountKey: Hashable {
        var text: String
        var byPrefix: Bool
        var filters: SearchFilters
        var typos: Bool
        var listing: ResultListing
    }

    private struct PageKey: Hashable {
        var count: CountKey
        var sort: SearchSort
        var cursor: KeysetCursor?
        var limit: Int
    }

    /// The most answers kept; past it the oldest half goes.
    static let keptPages = 512
    /// The most products a kept answer holds: the API's largest page.
    static let largestKeptPage = 100
    private var pageOrder: [PageKey] = []

    /// A page of products matching `text` (as a query, or with `byPrefix` as a productId prefix)
    /// and `filters`, and how many match in all.
    ///
    /// A prefix's count is exact, and so is a query's without words (`q=` alone counts the
    /// catalog); a query with words stops past ``ProductSearch/queryCountCap``, with `complete`
    /// false and the count a lower bound: counting every word match of a common word on ten
    /// million products takes seconds.
    mutating func page(_ request: SearchRequest, after cursor: KeysetCursor?, limit: Int) throws -> (page: SearchPage, count: Int, complete: Bool) {
        guard let search = try currentSearch() else { return (SearchPage(products: [], nextCursor: nil), 0, true) }
        try dropCachesIfChanged()
        let key = CountKey(text: request.text, byPrefix: request.byPrefix, filters: request.filters, typos: request.typos, listing: request.listing)
        let pageKey = PageKey(count: key, sort: request.sort, cursor: cursor, limit: limit)
        if let known = pages[pageKey] { return known }
        let page = try search.page(request, after: cursor, limit: limit)
        let answer = try counted(page, key, search)
        // An export's batches are read once and are large: only pages people look at are kept.
        guard limit <= Self.largestKeptPage else { return answer }
        if pages.count >= Self.keptPages {
            for old in pageOrder.prefix(Self.keptPages / 2) { pages[old] = nil }
            pageOrder.removeFirst(Self.keptPages / 2)
        }
        pages[pageKey] = answer
        pageOrder.append(pageKey)
        return answer
    }

    /// `page` with the count of all matches of `key`.
    private mutating func counted(_ page: SearchPage, _ key: CountKey, _ search: ProductSearch) throws -> (page: SearchPage, count: Int, complete: Bool) {
        let (text, byPrefix, filters) = (key.text, key.byPrefix, key.filters)
        // Words, stock at several stores or anywhere, and a collection with other filters are
        // counted up to the cap: counting every product in stock at two stores of a million reads
        // them all (0.9 s; anywhere, 2.2 s), and a collection's every member is a seek of its own.
        let capped = (!byPrefix && ProductSearch.hasWords(text)) || StockTable.countsEachProduct(filters)
            || CollectionTable.countsEachMember(filters)
        let limit = capped ? ProductSearch.queryCountCap + 1 : nil
        let count: MatchCount
        if let known = counts[key] {
            count = known
        } else {
            if byPrefix {
                let found = try search.count(prefix: text, filters: filters, listing: key.listing, upTo: limit)
                count = MatchCount(count: found, isComplete: limit.map { found < $0 } ?? true)
            } else {
                count = try search.countMatches(query: text, filters: filters, typos: key.typos, listing: key.listing, upTo: limit)
            }
            if counts.count >= 256 { counts.removeAll() }
            counts[key] = count
        }
        var page = page
        page.countIsEstimate = count.isEstimate
        if !capped { return (page, count.count, true) }
        return (page, min(count.count, ProductSearch.queryCountCap), count.isComplete && count.count <= ProductSearch.queryCountCap)
    }

    /// The catalog's product types, the most used first (read once per change of the catalog).
    mutating func productTypes() throws -> [String] {
        guard let search = try currentSearch() else { return [] }
        try dropCachesIfChanged()
        if let types { return types }
        let read = try search.productTypes()
        types = read
        return read
    }

    /// Forgets counts and types when someone committed to the file since they were read
    /// (`PRAGMA data_version`, read inside the request's transaction, changes at every commit of
    /// another connection: this server's editor, or another program).
    private mutating func dropCachesIfChanged() throws {
        let version = try search?.connection.scalarInt("PRAGMA data_version")
        if version != countsVersion {
            counts.removeAll()
            pages.removeAll()
            pageOrder.removeAll()
            types = nil
            countsVersion = version
        }
    }

    /// Runs `body` inside one read transaction on the file now at the path (the search opened
    /// anew when the file was replaced, by rename or in place).
    mutating func transaction<T>(_ body: (inout SQLiteReader) throws -> T) throws -> T {
        for _ in 0..<2 {
            guard let search = try currentSearch() else { return try body(&self) }
            let connection = search.connection
            guard !connection.inTransaction else { return try body(&self) }
            try connection.begin(.deferred)
            do {
                let schema = try connection.scalarInt("PRAGMA schema_version")
                if let schemaVersion, schema != schemaVersion {
                    try connection.rollback()
                    close()
                    continue
                }
                schemaVersion = schema
                let result = try body(&self)
                try connection.commit()
                return result
            } catch {
                if connection.inTransaction { try? connection.rollback() }
                throw error
            }
        }
        throw EngineError.keptChanging(catalog: databasePath)
    }

    /// Drops the connections; the next request opens the file at the path.
    mutating func close() {
        search = nil
        searchIdentity = nil
        schemaVersion = nil
        counts.removeAll()
        pages.removeAll()
        pageOrder.removeAll()
        types = nil
        countsVersion = nil
    }

    /// The search on the file now at the path; nil when there is no catalog yet.
    mutating func currentSearch() throws -> ProductSearch? {
        for _ in 0..<3 {
            let identity = CatalogFileIdentity.ofFile(at: databasePath)
            if let search, identity == searchIdentity { return search }
            close()
            guard let identity else { return nil }
            let opened: ProductSearch
            do {
                opened = try ProductSearch(databasePath: databasePath)
            } catch CatalogError.noCatalog {
                continue
            } catch let error as CatalogError {
                // An empty file is a catalog about to be created; anything else is not ours to read.
                if (try? CatalogSchema.kind(ofFileAt: databasePath)) == .empty { return nil }
                throw error
            }
            // The file may have been swapped between the stat and the open: keep the search only
            // when the path names the same file before and after.
            if CatalogFileIdentity.ofFile(at: databasePath) == identity {
                search = opened
                searchIdentity = identity
                return opened
            }
        }
        throw EngineError.keptChanging(catalog: databasePath)
    }
}
