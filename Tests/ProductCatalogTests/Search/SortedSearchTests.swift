import Foundation
import Testing
@testable import ProductCatalog

/// Sorted searches: the products of the search, in the sort's order, paged by keyset.
@Suite struct SortedSearchTests {
    /// Every page of `query` sorted by `sort`, `pageSize` at a time.
    func pages(_ search: ProductSearch, _ query: String, _ sort: SearchSort, filters: SearchFilters = SearchFilters(), pageSize: Int) throws -> [String] {
        var ids: [String] = []
        var cursor: KeysetCursor?
        repeat {
            let page = try search.page(query: query, filters: filters, sort: sort, listing: .variants, after: cursor, limit: pageSize)
            #expect(page.products.count <= pageSize)
            ids += page.products.map(\.productId)
            cursor = page.nextCursor
            // A cursor survives its text form.
            if let next = cursor { #expect(KeysetCursor(next.description) == next) }
        } while cursor != nil
        return ids
    }

    static func folded(_ text: String) -> [UInt8] { text.utf8.map(ProductIdOrder.fold) }

    /// The model: the search's products, ordered by the sort's value, those without one last, ties by productId.
    static func model(_ found: [Product], _ sort: SearchSort, places: [String: Int]) -> [String] {
        func value(_ product: Product) -> (number: Int64?, text: [UInt8]?) {
            switch sort {
            case .price, .priceDescending: ((product.salesPrice ?? product.listPrice)?.thousandths, nil)
            case .title: (nil, (product.title ?? "").isEmpty ? nil : folded(product.title!))
            case .newest: (Int64(places[product.productId] ?? 0), nil)
            case .relevance: (nil, nil)
            }
        }
        let descending = sort == .priceDescending || sort == .newest
        return found.sorted { a, b in
            let (x, y) = (value(a), value(b))
            if let p = x.number, let q = y.number, p != q { return descending ? p > q : p < q }
            if let p = x.text, let q = y.text, p != q { return p.lexicographicallyPrecedes(q) }
            let hasX = x.number != nil || x.text != nil, hasY = y.number != nil || y.text != nil
            if hasX != hasY { return hasX }
            let (idX, idY) = (folded(a.productId), folded(b.productId))
            return descending ? idY.lexicographicallyPrecedes(idX) : idX.lexicographicallyPrecedes(idY)
        }.map(\.productId)
    }

    /// Sorted in memory (every query here matches fewer than 5,000), and by walking the sort's index.
    @Test(arguments: [false, true])
    func everySortAgreesWithAModelPagedToTheEnd(walking: Bool) throws {
        var (fixture, all, _) = try WordSearchTests.realisticCatalog(rows: 900)
        // Products without a price or a title, and some added later (newest first puts them first).
        fixture.options.mode = .upsert
        try fixture.importCSV("productId,title,listPrice\nZ-NOPRICE,Kestrel Lamp,\nZ-NOTITLE,,3.00\n")
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        try editor.add(Product(productId: "A-LATE", title: "Zorblatt Lamp", listPrice: Price("7")))
        let search = try ProductSearch(databasePath: fixture.databasePath)
        if walking { search.sortedInMemory = 0 }
        let everything = try fixture.allProducts(pageSize: 500)
        // Places: the import's products in productId order, then the upsert's, then the added one.
        var places: [String: Int] = [:]
        for (index, product) in all.enumerated() { places[product.productId] = index }
        places["Z-NOPRICE"] = all.count
        places["Z-NOTITLE"] = all.count + 1
        places["A-LATE"] = all.count + 2
        let byId = Dictionary(uniqueKeysWithValues: everything.map { ($0.productId, $0) })
        var cheap = SearchFilters()
        cheap.maxPrice = Price("300")
        let common = WordSearchTests.words(all[0].title).first ?? "a"
        // A misspelt word too: the walk's check and the index must agree on near words (WordMatcher).
        let misspelt = String(common.dropLast()) + (common.hasSuffix("q") ? "x" : "q")
        if common.count >= 5 { #expect(try !search.allPages(query: misspelt, pageSize: 100).isEmpty, "\(misspelt) finds \(common) with a typo") }
        for query in ["", "a", common, misspelt, "\(misspelt) lam", all[5].title ?? "x", "lamp", "zzzzqq"] {
            for filters in [SearchFilters(), cheap] {
                let found = try search.allPages(query: query, filters: filters, pageSize: 100).compactMap { byId[$0] }
                for sort in SearchSort.allCases where sort != .relevance {
                    let expected = Self.model(found, sort, places: places)
                    for pageSize in [7, 20] {
                        #expect(try pages(search, query, sort, filters: filters, pageSize: pageSize) == expected, "\(query) \(sort) \(filters) \(pageSize)")
                    }
                }
            }
        }
    }

    @Test func aCursorOfAnotherSortStartsFromTheTop() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV("productId,title,listPrice\nA,Mug,3\nB,Cup,1\nC,Bowl,2\n")
        let search = try ProductSearch(databasePath: fixture.databasePath)
        let first = try search.page(query: "", sort: .price, limit: 1)
        #expect(first.products.map(\.productId) == ["B"])
        let byTitle = try search.page(query: "", sort: .title, after: first.nextCursor, limit: 5)
        #expect(byTitle.products.map(\.productId) == ["C", "B", "A"])
    }
}
