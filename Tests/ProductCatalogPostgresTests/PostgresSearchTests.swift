import FeedGenerator
import Foundation
import ProductCatalog
@testable import ProductCatalogPostgres
import Testing

/// The same generated file imported into a catalog file and into PostgreSQL must search alike
/// (the words folded the same way, accents included):
/// the file's search is the reference, tested on its own in ProductCatalogTests.
@Suite(PostgresTestServer.required) struct PostgresSearchTests {
    /// Pages of `limit` until the end, as productIds.
    static func allPages(limit: Int, _ next: (KeysetCursor?) async throws -> SearchPage) async throws -> [String] {
        var ids: [String] = []
        var cursor: KeysetCursor?
        repeat {
            let page = try await next(cursor)
            #expect(page.products.count <= limit)
            ids += page.products.map(\.productId)
            cursor = page.nextCursor
        } while cursor != nil
        return ids
    }

    @Test func searchesAgreeWithTheCatalogFile() async throws {
        let folder = try TemporaryFolder()
        var csv: [UInt8] = []
        ProductGenerator(rows: 2_500, seed: 23).write { csv.append(contentsOf: $0) }
        let file = folder.path + "/feed.csv"
        try Data(csv).write(to: URL(fileURLWithPath: file))
        let databasePath = folder.path + "/catalog.sqlite"
        _ = try CatalogImporter(options: ImportOptions(databasePath: databasePath)).run(source: try FileByteSource(path: file))
        let reference = try ProductSearch(databasePath: databasePath)

        try await PostgresTestServer.withCatalog { location in
            _ = try await importCSV(file, into: location)
            let search = try await PostgresProductSearch.open(location)
            var navy = SearchFilters()
            navy.colors = ["navy", "BLACK"]
            var cheap = SearchFilters()
            cheap.maxPrice = Price("40")
            cheap.sizes = ["m", ""]
            var sale = SearchFilters()
            sale.onSale = true
            sale.minPrice = Price("20")
            sale.priceBasis = .list
            // Accents, hyphens and quotes: words are folded alike in both.
            let queries = ["", "a", "S", "rain", "rain jack", "kestrel", "linen shirt", "zzz", "SKU-1", "a-0",
                           "cafe", "CAFÉ olé", "t-shirt", "nomad\" jeans", "o'"]
            for query in queries {
                for filters in [SearchFilters(), navy, cheap, sale] {
                    for typos in [false, true] {
                        for limit in [7, 20] {
                            let expected = try await Self.allPages(limit: limit) { try reference.page(query: query, filters: filters, typos: typos, listing: .variants, after: $0, limit: limit) }
                            let found = try await Self.allPages(limit: limit) { try await search.page(query: query, filters: filters, typos: typos, after: $0, limit: limit) }
                            // The same products in the same order, page after page: productId
                            // matches first, then word matches tier by tier.
                            #expect(found == expected, "query \(query), \(filters), typos \(typos), limit \(limit)")
                        }
                        let count = try await search.count(query: query, filters: filters, typos: typos)
                        #expect(count == (try reference.count(query: query, filters: filters, typos: typos, listing: .variants)), "count of \(query)")
                        let facets = try await search.facets(query: query, filters: filters, typos: typos, cap: 300)
                        #expect(facets == (try reference.facets(query: query, filters: filters, typos: typos, cap: 300)), "facets of \(query)")
                    }
                }
                let prefixed = try await Self.allPages(limit: 50) { try await search.page(prefix: query, after: $0, limit: 50) }
                #expect(prefixed == (try await Self.allPages(limit: 50) { try reference.page(prefix: query, listing: .variants, after: $0, limit: 50) }))
            }
            #expect(try await search.productCount() == (try reference.count(prefix: "", listing: .variants)))
            await search.close()
        }
    }

    /// Families of 1 to 20 variants with options: filters by option, families listed and counted,
    /// their summaries and the option facets alike on both engines.
    @Test func optionsAndFamiliesAgreeWithTheCatalogFile() async throws {
        let folder = try TemporaryFolder()
        let (file, reference) = try writeAndImport(
            RealisticProductGenerator(rows: 3_000, seed: 5, families: true, vocabulary: RealisticVocabulary(words: 20_000, seed: 7)), as: "families.csv", in: folder)
        let sample = try reference.page(prefix: "", listing: .variants, limit: 3_000).products.enumerated().filter { $0.offset % 300 == 11 }.map(\.element)
        let queries = [""] + sample.flatMap { product in
            let words = (product.title ?? "").split(separator: " ").map(String.init)
            return [words.first.map { String($0.prefix(3)) } ?? "", words.prefix(2).joined(separator: " "), String(product.productId.prefix(4))]
        }
        func filters(_ options: [String]) -> SearchFilters {
            var filters = SearchFilters()
            filters.options = options
            return filters
        }
        let optionFilters = [SearchFilters(), filters(["Size:M"]), filters(["size:m", "SIZE:L", "Color:Navy"]), filters([":wool"]), filters(["Material:Wool", "Material:Silk"])]
        try await PostgresTestServer.withCatalog { location in
            _ = try await importCSV(file, into: location)
            let search = try await PostgresProductSearch.open(location)
            var compared = 0
            for query in queries {
                for filters in optionFilters {
                    let expected = try await Self.allPages(limit: 7) { try reference.page(query: query, filters: filters, after: $0, limit: 7) }
                    let found = try await Self.allPages(limit: 7) { try await search.page(query: query, filters: filters, after: $0, limit: 7) }
                    #expect(found == expected, "query \(query), \(filters.options)")
                    let count = try reference.countMatches(query: query, filters: filters)
                    if !count.isEstimate {
                        #expect(try await search.count(query: query, filters: filters) == count.count, "count of \(query), \(filters.options)")
                        compared += 1
                    }
                    let first = try await search.page(query: query, filters: filters, limit: 20)
                    #expect(try await search.familySummaries(of: first.products) == (try reference.familySummaries(of: first.products)), "families of \(query)")
                    let facets = try await search.facets(query: query, filters: filters, cap: 300)
                    #expect(facets == (try reference.facets(query: query, filters: filters, cap: 300)), "facets of \(query), \(filters.options)")
                    if filters.options.isEmpty, query.isEmpty { #expect(facets.options.map(\.name).contains("Material")) }
                }
            }
            #expect(compared > queries.count * 3)
            // The filters are not vacuous: each lets through some products but not all.
            for filters in optionFilters.dropFirst() {
                let passing = try reference.count(query: "", filters: filters, listing: .variants)
                #expect(passing > 0 && passing < 3_000, "\(filters.options): \(passing)")
            }
            await search.close()
        }
    }

    /// A catalog of this layout made before options and the families' index: a search adds the
    /// empty column and answers; the next upsert builds the index and keeps its options.
    @Test func aCatalogMadeBeforeOptionsGetsThemAndItsFamilyIndex() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("feed.csv", "productId,title,groupId\nB-1,Braid Bundle,B\nB-2,Braid Bundle,B\nW-1,Wool Throw,\n")
        try await PostgresTestServer.withCatalog { location in
            _ = try await importCSV(file, into: location)
            try await PostgresTestServer.execute("DROP INDEX \(PostgresSchema.familyIndex(PostgresSchema.table))", at: location)
            try await PostgresTestServer.execute("ALTER TABLE products DROP COLUMN options", at: location)
            let search = try await PostgresProductSearch.open(location)
            let page = try await search.page(query: "braid")
            #expect(page.products.map(\.productId) == ["B-1"])
            #expect(try await search.facets(query: "braid").options.isEmpty)
            await search.close()
            #expect(try await PostgresTestServer.integer("SELECT count(*) FROM pg_indexes WHERE indexname = 'products_family' AND schemaname = current_schema()", at: location) == 0)
            var upsert = ImportOptions()
            upsert.mode = .upsert
            _ = try await importCSV(try folder.write("options.csv", "productId,options\nB-2,Length: 14 Inches\n"), into: location, options: upsert)
            #expect(try await PostgresTestServer.integer("SELECT count(*) FROM pg_indexes WHERE indexname = 'products_family' AND schemaname = current_schema()", at: location) == 1)
            let again = try await PostgresProductSearch.open(location)
            var filters = SearchFilters()
            filters.options = ["Length:14 inches"]
            #expect(try await again.page(query: "braid", filters: filters).products.map(\.productId) == ["B-2"])
            await again.close()
        }
    }
}
