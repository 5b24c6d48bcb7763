import Foundation
import Testing
@testable import ProductCatalog
import TestSupport

/// Collections: manual ones through edits, upserts, deletes and replacing imports against a model
/// of their members; the collection filter against the model with queries, filters and sorts;
/// smart ones following the catalog; names and errors.
@Suite struct CollectionTests {
    static func csv(_ rows: [String]) -> String {
        "productId,title,listPrice,color\n" + rows.joined(separator: "\n") + "\n"
    }

    /// `ids` with titles and prices that change with `variant`.
    static func rows(_ ids: Range<Int>, variant: Int = 0) -> [String] {
        ids.map { "C-\($0),\(["Linen Shirt", "Wool Scarf", "Canvas Tote"][($0 + variant) % 3]) \($0),\(($0 * 7 + variant) % 90 + 10).00,\(["Navy", "Sand"][$0 % 2])" }
    }

    /// The members of `name` as the filter lists them, page by page in productId order.
    static func members(_ path: String, _ name: String, query: String = "") throws -> [String] {
        var filters = SearchFilters()
        filters.collection = name
        return try ProductSearch(databasePath: path).allPages(query: query, filters: filters, pageSize: 7)
    }

    @Test func manualCollectionsFollowTheirProductsThroughEditsUpsertsDeletesAndImports() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv(Self.rows(0..<400)))
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        try editor.createCollection("Summer")
        try editor.createCollection("Winter")
        var random = SeededRandomGenerator(seed: 32)
        var summer = Set((0..<120).map { _ in Int(random.next() % 400) })
        var winter = Set((0..<40).map { _ in Int(random.next() % 400) })
        // Given in another case and order, with repeats and unknown products.
        let change = try editor.changeCollection("summer", adding: summer.map { "c-\($0)" } + ["C-1", "NOPE-1"] + summer.map { "C-\($0)" })
        #expect(change.changed == summer.count + (summer.contains(1) ? 0 : 1) && change.unknown == ["NOPE-1"])
        summer.insert(1)
        // Chosen in order (a Set's order changes from run to run): the products taken out, renamed and deleted; the last two in Winter too.
        let ordered = summer.sorted()
        let (out, renamed, deleted) = (Array(ordered.prefix(10)), ordered[10], ordered[11])
        winter.formUnion([renamed, deleted])
        try editor.changeCollection("Winter", adding: winter.map { "C-\($0)" })
        func model(_ set: Set<Int>) -> [String] { set.map { "C-\($0)" }.sorted { $0.lowercased() < $1.lowercased() } }
        #expect(try Self.members(fixture.databasePath, "Summer") == model(summer))
        #expect(try ProductSearch(databasePath: fixture.databasePath).collection(named: "SUMMER")?.products == summer.count)

        // Taken out; a rename keeps the product in; a delete takes it out.
        try editor.changeCollection("Summer", adding: out.map { "C-\($0)" }, removing: true)
        summer.subtract(out)
        var product = try #require(try ProductSearch(databasePath: fixture.databasePath).product(id: "C-\(renamed)"))
        product.productId = "R-\(renamed)"
        _ = try editor.replace(productId: "C-\(renamed)", with: product)
        try editor.delete(productId: "C-\(deleted)")
        summer.remove(deleted)
        winter.remove(deleted)
        var expected = model(summer.subtracting([renamed])) + ["R-\(renamed)"]
        expected.sort { $0.lowercased() < $1.lowercased() }
        #expect(try Self.members(fixture.databasePath, "Summer") == expected)
        #expect(try Self.members(fixture.databasePath, "Winter") == (model(winter.subtracting([renamed])) + ["R-\(renamed)"]).sorted { $0.lowercased() < $1.lowercased() })

        // An upsert that changes every product and adds some keeps the members; one that deletes
        // the products missing from the feed takes them out.
        var upsert = fixture.options
        upsert.mode = .upsert
        let changed = try CatalogImporter(options: upsert).run(source: MemoryByteSource(Self.csv(Self.rows(0..<450, variant: 1))))
        // 398 stored products changed; 400…449, and the deleted and renamed ones' old productIds, added.
        #expect(changed.rowsUpdated == 398 && changed.productsInCatalog == 451)
        #expect(try Self.members(fixture.databasePath, "Summer") == expected)
        upsert.deleteMissing = true
        upsert.maxDeletes = .none
        let deleting = try CatalogImporter(options: upsert).run(source: MemoryByteSource(Self.csv(Self.rows(0..<200, variant: 2))))
        #expect(deleting.rowsDeleted == 251)
        summer = summer.filter { $0 < 200 }
        expected = model(summer.subtracting([renamed]))
        #expect(try Self.members(fixture.databasePath, "Summer") == expected)
        #expect(try ProductSearch(databasePath: fixture.databasePath).collection(named: "Summer")?.products == expected.count)

        // A replacing import keeps the collections and the members it keeps.
        try fixture.importCSV(Self.csv(Self.rows(100..<300)))
        let kept = summer.filter { $0 >= 100 }.subtracting([renamed])
        #expect(try Self.members(fixture.databasePath, "Summer") == model(kept))
        // (The upsert that deleted products from 200 on, and the renamed one, took them out of Winter too.)
        let winterKept = winter.subtracting([renamed]).filter { (100..<200).contains($0) }
        #expect(try Self.members(fixture.databasePath, "Winter") == model(winterKept))
        let search = try ProductSearch(databasePath: fixture.databasePath)
        #expect(try search.collections().map(\.name) == ["Summer", "Winter"])
        #expect(try search.collections().map(\.products) == [kept.count, winterKept.count])

        // Deleting a collection leaves its products.
        try CatalogEditor(databasePath: fixture.databasePath).deleteCollection("winter")
        #expect(try search.collections().map(\.name) == ["Summer"])
        #expect(try Self.members(fixture.databasePath, "Winter").isEmpty)
        #expect(try search.count(prefix: "") == 200)
    }

    @Test func theCollectionFilterCombinesWithQueriesFiltersAndSortsAsTheModelSays() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(FilterAndFacetTests.csv(rows: 600, seed: 11))
        let all = try fixture.allProducts(pageSize: 100)
        var random = SeededRandomGenerator(seed: 5)
        let chosen = all.filter { _ in random.next() % 4 == 0 }
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        try editor.createCollection("Picks")
        try editor.changeCollection("Picks", adding: chosen.map(\.productId))
        let inPicks = Set(chosen.map { $0.productId.lowercased() })
        let search = try ProductSearch(databasePath: fixture.databasePath)
        var filters = SearchFilters()
        filters.collection = "picks"
        #expect(try search.count(prefix: "", filters: filters) == chosen.count)
        #expect(try search.allPages(query: "", filters: filters) == chosen.map(\.productId))
        // With a query, other filters and a prefix: the products the search finds without the collection, in it.
        for (query, colors) in [("shirt", []), ("linen shir", ["Navy"]), ("", ["Sand", "Black"]), ("mug", [])] as [(String, [String])] {
            var without = SearchFilters()
            without.colors = colors
            var with = without
            with.collection = "Picks"
            let expected = try search.allPages(query: query, filters: without).filter { inPicks.contains($0.lowercased()) }
            #expect(try search.allPages(query: query, filters: with) == expected, "query \(query) colors \(colors)")
        }
        let byPrefix = try search.allPages(prefix: "SH", filters: filters)
        #expect(byPrefix == chosen.map(\.productId).filter { $0.hasPrefix("SH") })
        // Sorted by price, page by page: read and sorted in memory, and (as a larger one would be) found by walking the price order.
        func sortedPages() throws -> [String] {
            var sorted: [String] = []
            var cursor: KeysetCursor?
            repeat {
                let page = try search.page(query: "", filters: filters, sort: .price, after: cursor, limit: 9)
                sorted += page.products.map(\.productId)
                cursor = page.nextCursor
            } while cursor != nil
            return sorted
        }
        let sorted = try sortedPages()
        search.sortedInMemory = 10
        #expect(try sortedPages() == sorted)
        let model = chosen.sorted { left, right in
            let l = left.salesPrice ?? left.listPrice, r = right.salesPrice ?? right.listPrice
            switch (l, r) {
            case let (l?, r?) where l != r: return l < r
            case (nil, _?): return false
            case (_?, nil): return true
            default: return left.productId.lowercased() < right.productId.lowercased()
            }
        }
        #expect(sorted == model.map(\.productId))
        // Facets count the collection's products.
        let facets = try search.facets(query: "", filters: filters)
        #expect(facets.counted == chosen.count)
        // A collection the catalog lacks finds nothing, as does one in a catalog without collections.
        filters.collection = "Nope"
        #expect(try search.allPages(query: "", filters: filters).isEmpty && search.count(prefix: "", filters: filters) == 0)
        let bare = try CatalogFixture()
        try bare.importCSV(Self.csv(Self.rows(0..<10)))
        #expect(try ProductSearch(databasePath: bare.databasePath).allPages(query: "", filters: filters).isEmpty)
    }

    @Test func aSmartCollectionKeepsItsSearchAndFollowsTheCatalog() async throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv(Self.rows(0..<90)))
        var filters = SearchFilters()
        filters.colors = ["navy"]
        filters.maxPrice = Price("60")
        let saved = SavedSearch(text: "linen", filters: filters, sort: .priceDescending)
        let catalog = SQLiteCatalog(databasePath: fixture.databasePath)
        let made = try await catalog.createCollection("Cheap navy linen", search: saved)
        #expect(made.search == saved && made.products == nil)
        func listed() async throws -> [String] {
            var asked = SavedSearch()
            asked.filters.collection = "cheap NAVY linen"
            let search = try await catalog.resolvingCollection(asked)
            #expect(search == saved)
            return try await catalog.products(SearchRequest(search), after: nil, limit: 100).products.map(\.productId)
        }
        func direct() async throws -> [String] {
            try await catalog.products(SearchRequest("linen", filters: filters, sort: .priceDescending), after: nil, limit: 100)
                .products.map(\.productId)
        }
        let before = try await listed()
        #expect(!before.isEmpty)
        #expect(try await before == direct())
        // A new product that the search finds is listed; products cannot be put in by hand.
        _ = try await catalog.add(try ProductValidation.product(from: ProductDraft(values: [
            .productId: "NEW-1", .title: "Linen Shirt new", .listPrice: "11.00", .color: "Navy"])))
        let after = try await listed()
        #expect(after.contains("NEW-1") && after.count == before.count + 1)
        await #expect(throws: EditError.self) { try await catalog.changeCollection("Cheap navy linen", adding: ["C-1"], removing: false) }
        // Asked for with anything else, a smart collection says so.
        var mixed = SavedSearch(text: "scarf")
        mixed.filters.collection = "Cheap navy linen"
        await #expect(throws: CollectionError.searchGiven(name: "Cheap navy linen")) { try await catalog.resolvingCollection(mixed) }
        mixed.text = ""
        mixed.filters.collection = "Nope"
        await #expect(throws: CollectionError.notFound(name: "Nope")) { try await catalog.resolvingCollection(mixed) }
        // It survives a replacing import, and a second one of the same name is refused.
        try fixture.importCSV(Self.csv(Self.rows(0..<90)))
        #expect(try ProductSearch(databasePath: fixture.databasePath).collection(named: "cheap navy linen")?.search == saved)
        await catalog.catalogReplaced()
        await #expect(throws: EditError.self) { try await catalog.createCollection("CHEAP NAVY LINEN", search: nil) }
        await catalog.close()
    }

    @Test func aColumnOfTagsMakesCollectionsAsTheModelSays() throws {
        let fixture = try CatalogFixture()
        var random = SeededRandomGenerator(seed: 21)
        let tags = ["summer", "Summer ", "linen", "sale", "", " ", "Smart one"]
        var lines = ["productId,title,Tags"]
        var model: [String: Set<String>] = [:]
        for index in 0..<200 {
            let chosen = (0..<Int(random.next() % 4)).map { _ in tags.randomElement(using: &random)! }
            lines.append("T-\(index),Tee,\"\(chosen.joined(separator: ","))\"")
            for tag in chosen {
                let name = ProductRules.trimmed(tag)
                guard !name.isEmpty, name != "Smart one" else { continue }
                model[name.lowercased(), default: []].insert("T-\(index)")
            }
        }
        try fixture.importCSV(lines.joined(separator: "\n") + "\n")
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        try editor.createCollection("smart ONE", search: SavedSearch(text: "tee"))
        let made = try editor.collectionsFromColumn("tags")
        #expect(made.added == model.values.map(\.count).reduce(0, +) && made.created == model.count && made.collections == model.count + 1)
        for (name, members) in model {
            #expect(Set(try Self.members(fixture.databasePath, name)) == members, "\(name)")
        }
        #expect(try ProductSearch(databasePath: fixture.databasePath).collection(named: "smart one")?.search == SavedSearch(text: "tee"))
        // Again: nothing new; by a field: a collection per type.
        #expect(try editor.collectionsFromColumn("Tags").added == 0)
        #expect(try editor.collectionsFromColumn("title") == { var made = ColumnCollections(); made.added = 200; made.collections = 1; made.created = 1; return made }())
        #expect(throws: EditError.self) { try editor.collectionsFromColumn("Nope") }
        #expect(throws: EditError.self) { try editor.collectionsFromColumn("productId") }
    }

    @Test("names: trimmed, not empty, not too long, no control characters", arguments: [
        ("  Summer  ", "Summer"), ("", nil), ("   ", nil), ("a\tb", nil), (String(repeating: "é", count: 101), nil), (String(repeating: "x", count: 200), String(repeating: "x", count: 200)),
    ] as [(String, String?)])
    func names(given: String, stored: String?) throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv(Self.rows(0..<3)))
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        if let stored {
            #expect(try editor.createCollection(given).name == stored)
            #expect(try ProductSearch(databasePath: fixture.databasePath).collections().map(\.name) == [stored])
        } else {
            #expect(throws: EditError.self) { try editor.createCollection(given) }
            #expect(try ProductSearch(databasePath: fixture.databasePath).collections().isEmpty)
        }
    }

    @Test func savedSearchParametersRoundTrip() throws {
        var filters = SearchFilters()
        filters.productTypes = ["Shirts", "A&B"]
        filters.colors = ["Navy blue"]
        filters.sizes = ["", "M"]
        filters.brands = ["Müller"]
        filters.options = ["Length:14 Inches", ":Red & Blue"]
        filters.stores = ["Old Town"]
        filters.minPrice = Price("1.5")
        filters.maxPrice = Price("20")
        filters.priceBasis = .list
        filters.onSale = true
        filters.inStock = true
        filters.collection = "Summer = hot"
        for search in [SavedSearch(text: "linen shirt+", filters: filters, sort: .newest), SavedSearch(text: "AB/1?", byPrefix: true), SavedSearch()] {
            #expect(SavedSearch(parameters: search.parameters) == search, "\(search.parameters)")
        }
        #expect(SavedSearch(text: "a b").parameters == "q=a%20b")
        #expect(SavedSearch(parameters: "q=a+b&color=Navy&sort=nonsense&other=1") == SavedSearch(text: "a b", filters: { var f = SearchFilters(); f.colors = ["Navy"]; return f }()))
    }
}
