import Foundation
import Testing
@testable import ProductCatalog
import TestSupport

/// Listing families against its model: on random catalogs whose families are scattered in
/// productId order, every search (words, typos, productId starts, filters, each sort) read page by
/// page listing families equals the same search listing every variant with each family kept at its
/// first variant, at every page size; and its count is that list's length.
@Suite struct FamilyListingTests {
    static let vocabulary = ["linen", "lines", "shirt", "shirts", "skirt", "navy", "blue", "acme", "jacket", "packet", "wool", "wolf"]

    /// `rows` random products, a third of them without a family, the rest in 12 families.
    static func csv(rows: Int, random: inout SeededRandomGenerator) -> String {
        func words(_ range: ClosedRange<Int>) -> String {
            (0..<Int.random(in: range, using: &random)).map { _ in vocabulary.randomElement(using: &random)! }.joined(separator: " ")
        }
        return "productId,title,brand,color,price,groupId,options\n" + (0..<rows).map { index in
            let family = Int.random(in: 0..<18, using: &random)
            let groupId = family < 12 ? "family-\(family)" : ""
            let options = groupId.isEmpty ? "" : "Size: \(["S", "M", "L"].randomElement(using: &random)!)"
            let id = ["ab", "ac", "b", "lin"].randomElement(using: &random)! + "\(1_000 + index)"
            return "\(id),\(words(1...3)),\(words(0...1)),\(["Navy", "Red", ""].randomElement(using: &random)!),"
                + "\(Int.random(in: 1...30, using: &random)).00,\(groupId),\(options)\n"
        }.shuffled(using: &random).joined()
    }

    /// `ids` with each family kept at its first product: the model of listing families.
    static func firstOfEachFamily(_ ids: [String], groupIds: [String: String]) -> [String] {
        var met = Set<String>()
        return ids.filter { id in
            guard let groupId = groupIds[id.lowercased()] else { return true }
            return met.insert(groupId).inserted
        }
    }

    static func groupIds(_ path: String) throws -> [String: String] {
        let connection = try Connection(path: path, mode: .readOnly)
        let statement = try connection.prepare("SELECT productId, groupId FROM products WHERE ifnull(groupId, '') != ''")
        var groups: [String: String] = [:]
        while try statement.step() { groups[(statement.text(at: 0) ?? "").lowercased()] = statement.text(at: 1) }
        return groups
    }

    static func checkEverySearch(_ search: ProductSearch, groupIds: [String: String], random: inout SeededRandomGenerator) throws {
        var queries = ["", "ab", "lin", "linen", "shirt", "shirt bl", "navy j", "wool", "shrit", "jacket wolf", "lin shirt"]
        for _ in 0..<6 {
            queries.append((0..<Int.random(in: 1...2, using: &random)).map { _ in vocabulary.randomElement(using: &random)! }.joined(separator: " "))
        }
        var navy = SearchFilters()
        navy.colors = ["Navy"]
        var families = 0
        for query in queries {
            for filters in [SearchFilters(), navy] {
                for sort in [SearchSort.relevance, .price, .priceDescending, .title] {
                    let every = try search.allPages(query: query, filters: filters, sort: sort, listing: .variants, pageSize: 1_000)
                    let expected = firstOfEachFamily(every, groupIds: groupIds)
                    families += every.count - expected.count
                    for pageSize in [1, 3, 20] {
                        let listed = try search.allPages(query: query, filters: filters, sort: sort, listing: .families, pageSize: pageSize)
                        #expect(listed == expected, "\(query) \(filters) \(sort) by \(pageSize)")
                    }
                    // Exact up to the sample of matches whose families are told; past it an estimate, said to be one.
                    let count = try search.countMatches(query: query, filters: filters, listing: .families)
                    if count.isEstimate {
                        #expect(abs(count.count - expected.count) * 3 <= expected.count && every.count > ProductSearch.familySample, "\(query) \(filters)")
                    } else {
                        #expect(count.count == expected.count, "\(query) \(filters)")
                    }
                }
            }
            let every = try search.allPages(prefix: query, listing: .variants, pageSize: 1_000)
            let expected = firstOfEachFamily(every, groupIds: groupIds)
            #expect(try search.allPages(prefix: query, listing: .families, pageSize: 3) == expected, "prefix \(query)")
            #expect(try search.count(prefix: query, listing: .families) == expected.count, "prefix \(query)")
        }
        // The searches did meet variants of one family, or they checked nothing.
        #expect(families > 100)
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func familiesAreTheFirstVariantOfEachInTheSearchsOrder(seed: UInt64) throws {
        var random = SeededRandomGenerator(seed: seed)
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv(rows: 300, random: &random))
        let search = try ProductSearch(databasePath: fixture.databasePath)
        // Sorted searches that walk the sort's list rather than sorting their matches in memory.
        if seed == 1 { search.sortedInMemory = 1 }
        try Self.checkEverySearch(search, groupIds: try Self.groupIds(fixture.databasePath), random: &random)
    }

    /// Edits move products between families and change their words: the changes the index keeps
    /// beside its lists (``WordChanges``) are read by the same rule.
    @Test func familiesAfterEditsFollowTheSameRule() throws {
        var random = SeededRandomGenerator(seed: 9)
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv(rows: 250, random: &random))
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        let reader = try ProductSearch(databasePath: fixture.databasePath)
        let ids = try fixture.allProducts().map(\.productId)
        for id in ids.shuffled(using: &random).prefix(40) {
            var product = try #require(try reader.product(id: id))
            product.groupId = Bool.random(using: &random) ? "family-\(Int.random(in: 0..<12, using: &random))" : nil
            product.title = (0..<Int.random(in: 1...3, using: &random)).map { _ in Self.vocabulary.randomElement(using: &random)! }.joined(separator: " ")
            try editor.replace(productId: id, with: product)
        }
        let search = try ProductSearch(databasePath: fixture.databasePath)
        try Self.checkEverySearch(search, groupIds: try Self.groupIds(fixture.databasePath), random: &random)
    }

    /// Past ``ProductSearch/familySample`` matches, a count of families is an estimate, said to be
    /// one, within a fifth of the truth, whether families are scattered in the matches' order or
    /// neighbours in it (as a Shopify export's handles make them); up to it, exact.
    @Test(arguments: [false, true])
    func aCountOfFamiliesPastItsSampleIsAnEstimateSaidToBeOne(neighbours: Bool) throws {
        var random = SeededRandomGenerator(seed: 5)
        let fixture = try CatalogFixture()
        let rows = ProductSearch.familySample * 6
        var family = 0, left = 0
        let csv = "productId,title,groupId\n" + (0..<rows).map { index in
            let groupId: String
            if neighbours {
                if left == 0 {
                    family += 1
                    left = Int.random(in: 1...12, using: &random)
                }
                left -= 1
                groupId = "family-\(family)"
            } else {
                groupId = Bool.random(using: &random) ? "family-\(Int.random(in: 0..<400, using: &random))" : ""
            }
            return "p\(1_000 + index),linen shirt,\(groupId)\n"
        }.joined()
        try fixture.importCSV(csv)
        let search = try ProductSearch(databasePath: fixture.databasePath)
        let exact = try search.allPages(query: "linen", listing: .families, pageSize: 100).count
        let count = try search.countMatches(query: "linen", listing: .families)
        #expect(count.isEstimate && !count.isComplete)
        #expect(abs(count.count - exact) * 5 <= exact, "estimated \(count.count) of \(exact)")
        var none = SearchFilters()
        none.colors = ["none"]
        #expect(try search.countMatches(query: "linen", filters: none, listing: .families) == MatchCount(count: 0, isComplete: true))
    }

    /// A catalog without families keeps no family index, and lists the same either way.
    @Test func aCatalogWithoutFamiliesKeepsNoIndex() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV("productId,title\na1,linen shirt\na2,linen skirt\n")
        let connection = try Connection(path: fixture.databasePath, mode: .readOnly)
        #expect(try !FamilyIndex.exists(connection))
        let search = try ProductSearch(databasePath: fixture.databasePath)
        #expect(try search.allPages(query: "linen", listing: .families) == ["a1", "a2"])
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        var product = try #require(try search.product(id: "a2"))
        product.groupId = "linen"
        try editor.replace(productId: "a2", with: product)
        #expect(try FamilyIndex.exists(connection))
    }
}
