import FeedGenerator
import Foundation
import ProductCatalog
@testable import ProductCatalogPostgres
import Testing

/// A catalog with a realistic vocabulary, imported into a file and into PostgreSQL, must answer
/// every query alike: the same first pages in the same order (tiers, typos, filters, sorts), the
/// same next pages through each engine's cursor, counts and highlights.
@Suite(PostgresTestServer.required) struct PostgresAgreementTests {
    /// Queries made from the catalog's own products, as people type them: a title's first words,
    /// a word's start, a brand, a type and a word, a whole title, a productId's start, and the
    /// same words misspelt (two letters swapped, one dropped, one doubled), last or before another.
    static func queries(from products: [Product]) -> [String] {
        var queries: [String] = []
        for (index, product) in products.enumerated() {
            let words = WordQuery(product.title ?? "").words
            guard let first = words.first else { continue }
            queries.append(first)
            if words.count > 1 {
                queries.append(words[0] + " " + words[1])
                // A word before the last that only starts a title word: a tier of its own.
                if words[0].count > 4 { queries.append(String(words[0].dropLast(2)) + " " + words[1]) }
                // A last word of one letter, which stands for many products, after a narrow one.
                queries.append(words[0] + " " + String(words[1].prefix(1)))
            }
            if let last = words.last, last.count > 3 { queries.append(String(last.prefix(3))) }
            if let long = words.first(where: { $0.count >= 6 }) {
                let letters = Array(long)
                let misspelt = switch index % 3 {
                case 0: String(letters[0..<2] + [letters[3], letters[2]] + letters[4...])
                case 1: String(letters[0..<3] + letters[4...])
                default: String(letters[0..<3] + [letters[3]] + letters[3...])
                }
                queries.append(misspelt)
                if words.count > 1, long != words[0] { queries.append(words[0] + " " + String(letters.dropLast())) }
                // A misspelt word before the last.
                if let other = words.first(where: { $0 != long }) { queries.append(misspelt + " " + other) }
            }
            if let brand = product.brand, index % 4 == 0 { queries.append(brand) }
            if let type = product.productType, index % 5 == 0 { queries.append(type + " " + first) }
            if index % 6 == 0 { queries.append(product.title ?? "") }
            if index % 7 == 0 { queries.append(String(product.productId.prefix(5))) }
        }
        return queries
    }

    /// Products that each meet one tier of `linen shirt`, their word rows in another order
    /// (titles of one, two and three words), and more with typos and filters.
    static let tiers = """
        productId,title,brand,productType,color,listPrice
        T-1,Linen Shirt,Acme,Shirts,blue,30
        T-2,Linen Shirt Blue,Acme,Shirts,blue,40
        T-3,Linens Shirts,Acme,Shirts,red,20
        T-4,Shirt,Linenworks,Tops,blue,10
        T-5,Linnen Shirt,Acme,Shirts,red,50
        T-6,Linnen Shurt Long,Acme,Shirts,blue,60
        T-7,Shirt Linen,Zeta,Shirts,,70
        T-8,Lin,Acme,Shirts,blue,80
        T-9,Shirtdress Linenlook,Acme,Dresses,blue,90
        T-10,Plain Tee,Linen & Co,Shirts,red,
        T-11,Linen Shirt,Other,Shirts,red,15
        """

    @Test func eachTierComesInItsPlaceOnBothEngines() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("tiers.csv", Self.tiers)
        let databasePath = folder.path + "/catalog.sqlite"
        _ = try CatalogImporter(options: ImportOptions(databasePath: databasePath)).run(source: try FileByteSource(path: file))
        let reference = try ProductSearch(databasePath: databasePath)
        var blue = SearchFilters()
        blue.colors = ["blue"]
        try await PostgresTestServer.withCatalog { location in
            _ = try await importCSV(file, into: location)
            let search = try await PostgresProductSearch.open(location)
            // Exact titles, whole title words, title starts, any field, one typo, two typos.
            let order = try await PostgresSearchTests.allPages(limit: 2) { try await search.page(query: "linen shirt", after: $0, limit: 2) }
            #expect(order == ["T-1", "T-11", "T-7", "T-2", "T-3", "T-9", "T-4", "T-10", "T-5", "T-6"])
            for query in ["linen shirt", "lin shirt", "linen sh", "shirt linen", "linen", "linnen", "shurt", "linen shurt", "acme lin",
                          "linenworks", "co", "t-1", "lin", "shirts linens", "linen shirt blue", "linen shirt long"] {
                for filters in [SearchFilters(), blue] {
                    for typos in [true, false] {
                        for limit in [1, 3, 20] {
                            let expected = try await PostgresSearchTests.allPages(limit: limit) {
                                try reference.page(query: query, filters: filters, typos: typos, listing: .variants, after: $0, limit: limit)
                            }
                            let found = try await PostgresSearchTests.allPages(limit: limit) {
                                try await search.page(query: query, filters: filters, typos: typos, after: $0, limit: limit)
                            }
                            #expect(found == expected, "\(query), \(filters), typos \(typos), limit \(limit)")
                        }
                    }
                }
            }
            await search.close()
        }
    }

    @Test func upsertsPlaceProductsAlikeOnBothEngines() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("tiers.csv", Self.tiers)
        let databasePath = folder.path + "/catalog.sqlite"
        _ = try CatalogImporter(options: ImportOptions(databasePath: databasePath)).run(source: try FileByteSource(path: file))
        var upsert = ImportOptions(databasePath: databasePath)
        upsert.mode = .upsert
        // New products go after the others of their class; a changed title moves a product to
        // its new class and keeps its place; a file without titles moves nothing.
        let deltas = [
            try folder.write("titles.csv", "productId,title,brand,productType\nT-2,Linen,Acme,Shirts\nT-12,Linen Shirt,New,Shirts\nT-0,Linnen Shirts,New,Shirts\n"),
            try folder.write("prices.csv", "productId,listPrice\nT-3,11\nT-13,12\n"),
        ]
        for delta in deltas { _ = try CatalogImporter(options: upsert).run(source: try FileByteSource(path: delta)) }
        let reference = try ProductSearch(databasePath: databasePath)
        try await PostgresTestServer.withCatalog { location in
            _ = try await importCSV(file, into: location)
            var postgresUpsert = ImportOptions()
            postgresUpsert.mode = .upsert
            for delta in deltas { _ = try await importCSV(delta, into: location, options: postgresUpsert) }
            let search = try await PostgresProductSearch.open(location)
            for query in ["linen shirt", "linen", "linnen", "shirts", "t-1", "new", "lin sh"] {
                for sort in [SearchSort.relevance, .newest] {
                    let expected = try await PostgresSearchTests.allPages(limit: 3) { try reference.page(query: query, sort: sort, listing: .variants, after: $0, limit: 3) }
                    let found = try await PostgresSearchTests.allPages(limit: 3) { try await search.page(query: query, sort: sort, after: $0, limit: 3) }
                    #expect(found == expected, "\(query) by \(sort)")
                }
            }
            #expect(try await PostgresSearchTests.allPages(limit: 3) { try await search.page(query: "linen shirt", after: $0, limit: 3) }.prefix(3)
                == ["T-1", "T-11", "T-12"])
            await search.close()
        }
    }

    @Test func aRealisticCatalogSearchesAlikeInAFileAndOnPostgreSQL() async throws {
        let folder = try TemporaryFolder()
        let (file, reference) = try writeAndImport(
            RealisticProductGenerator(rows: 6_000, seed: 41, vocabulary: RealisticVocabulary(words: 20_000, seed: 7)), as: "realistic.csv", in: folder)
        let sample = try reference.page(prefix: "", listing: .variants, limit: 6_000).products.enumerated().filter { $0.offset % 90 == 7 }.map(\.element)
        let queries = Self.queries(from: sample)
        #expect(queries.count >= 300, "\(queries.count) queries")
        let color = try #require(sample.compactMap(\.color).first)
        var colored = SearchFilters()
        colored.colors = [color]
        var cheap = SearchFilters()
        cheap.maxPrice = Price("60")

        try await PostgresTestServer.withCatalog { location in
            _ = try await importCSV(file, into: location)
            // With low limits, broad words are checked on rows and dense tiers walked in word-row order, as on a large catalog.
            var low = PostgresWordTiers.Limits()
            (low.checkedProducts, low.checkedRatio, low.walkedProducts) = (100, 3, 200)
            try await Self.compare(queries, PostgresProductSearch.open(location), reference, [SearchFilters(), colored, cheap], typoMatches: 100)
            try await Self.compare(queries.enumerated().filter { $0.offset % 3 == 0 }.map(\.element),
                                   PostgresProductSearch.open(location, lookupLimits: low), reference, [SearchFilters(), colored], typoMatches: 30)
            // Families (the generator's: a quarter of the models in 2 to 6 variants) listed once, on both.
            try await Self.compare(queries.enumerated().filter { $0.offset % 2 == 1 }.map(\.element),
                                   PostgresProductSearch.open(location), reference, [SearchFilters(), colored, cheap], typoMatches: 50, listing: .families)
        }
    }

    /// Compares the first and second pages, counts and highlights of each query, and sorted pages of
    /// some, as `listing` lists them. A file's count of families past ``ProductSearch/familySample``
    /// word matches is an estimate, PostgreSQL's exact: those are compared within a fifth.
    static func compare(_ queries: [String], _ search: PostgresProductSearch, _ reference: ProductSearch, _ filterSets: [SearchFilters],
                        typoMatches wanted: Int, listing: ResultListing = .variants) async throws {
        do {
            try await compareOpen(queries, search, reference, filterSets, typoMatches: wanted, listing: listing)
        } catch {
            await search.close()
            throw error
        }
        await search.close()
    }

    private static func compareOpen(_ queries: [String], _ search: PostgresProductSearch, _ reference: ProductSearch, _ filterSets: [SearchFilters],
                                    typoMatches wanted: Int, listing: ResultListing) async throws {
        var typoMatches = 0
        var exactCounts = 0
        /// First pages where listing families left out a variant: the families were compared, not only single products.
        var collapsed = 0
        for (index, query) in queries.enumerated() {
            for typos in [true, false] {
                let filters = filterSets[index % filterSets.count]
                let expected = try reference.page(query: query, filters: filters, typos: typos, listing: listing, limit: 20)
                let found = try await search.page(query: query, filters: filters, typos: typos, listing: listing, limit: 20)
                if listing == .families, expected.products != (try reference.page(query: query, filters: filters, typos: typos, listing: .variants, limit: 20)).products {
                    collapsed += 1
                }
                if listing == .families {
                    let summaries = try await search.familySummaries(of: found.products)
                    #expect(summaries == (try reference.familySummaries(of: expected.products)), "the families of \(query)")
                }
                #expect(found.products.map(\.productId) == expected.products.map(\.productId), "\(query), typos \(typos), \(filters)")
                #expect(found.highlights == expected.highlights, "highlights of \(query)")
                #expect((found.nextCursor == nil) == (expected.nextCursor == nil), "\(query): a next page")
                if let next = found.nextCursor, let referenceNext = expected.nextCursor {
                    let second = try await search.page(query: query, filters: filters, typos: typos, listing: listing, after: next, limit: 20)
                    let referenceSecond = try reference.page(query: query, filters: filters, typos: typos, listing: listing, after: referenceNext, limit: 20)
                    #expect(second.products.map(\.productId) == referenceSecond.products.map(\.productId), "\(query): the second page")
                }
                let count = try await search.count(query: query, filters: filters, typos: typos, listing: listing)
                let referenceCount = try reference.countMatches(query: query, filters: filters, typos: typos, listing: listing)
                if referenceCount.isEstimate {
                    #expect(abs(count - referenceCount.count) <= count / 5 + 2, "count of \(query), typos \(typos): \(count), estimated \(referenceCount.count)")
                } else {
                    #expect(count == referenceCount.count, "count of \(query), typos \(typos)")
                    exactCounts += 1
                }
                if typos { typoMatches += referenceCount.count - (try reference.count(query: query, filters: filters, typos: false, listing: listing)) }
            }
            if index % 4 == 0 {
                let sort = [SearchSort.price, .priceDescending, .title, .newest][index / 4 % 4]
                let expected = try reference.page(query: query, sort: sort, listing: listing, limit: 20)
                let found = try await search.page(query: query, sort: sort, listing: listing, limit: 20)
                if let next = found.nextCursor, let referenceNext = expected.nextCursor {
                    let second = try await search.page(query: query, sort: sort, listing: listing, after: next, limit: 20)
                    #expect(second.products.map(\.productId) == (try reference.page(query: query, sort: sort, listing: listing, after: referenceNext, limit: 20)).products.map(\.productId),
                            "\(query) by \(sort): the second page")
                }
                #expect(found.products.map(\.productId) == expected.products.map(\.productId), "\(query) by \(sort)")
            }
        }
        // The misspelt queries found products with typos: the typo tiers were compared, not only empty ones.
        #expect(typoMatches > wanted, "\(typoMatches) products matched only with typos")
        #expect(exactCounts > queries.count, "\(exactCounts) counts compared exactly")
        #expect(listing == .variants || collapsed > queries.count / 4, "\(collapsed) first pages listed families")
        for sort in [SearchSort.price, .title, .newest] {
            let expected = try await PostgresSearchTests.allPages(limit: 500) { try reference.page(query: "", sort: sort, listing: listing, after: $0, limit: 500) }
            let found = try await PostgresSearchTests.allPages(limit: 500) { try await search.page(query: "", sort: sort, listing: listing, after: $0, limit: 500) }
            #expect(found == expected, "every product by \(sort)")
        }
    }
}
