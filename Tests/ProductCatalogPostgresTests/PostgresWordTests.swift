import Foundation
import ProductCatalog
@testable import ProductCatalogPostgres
import Testing

/// The words of each product, folded by the import and the editor: what word searches find on PostgreSQL.
@Suite(PostgresTestServer.required) struct PostgresWordTests {
    /// The productIds a word search lists, in order.
    static func found(_ query: String, in search: PostgresProductSearch) async throws -> [String] {
        try await PostgresSearchTests.allPages(limit: 20) { try await search.page(query: query, after: $0) }
    }

    @Test func wordsIgnoreCaseAndAccentsAndFollowUpsertsAndEdits() async throws {
        let folder = try TemporaryFolder()
        let long = String(repeating: "x", count: PostgresSchema.longestWord + 1)
        let first = try folder.write("first.csv", """
            productId,title,brand,productType,catalog_words
            P-1,Café Crème,Acme,Mugs,kept
            P-2,Plain Tee,Zeta,Shirts,
            P-5,\(long) Lamp,,,
            """)
        try await PostgresTestServer.withCatalog { location in
            _ = try await importCSV(first, into: location)
            let search = try await PostgresProductSearch.open(location)
            #expect(try await Self.found("CAFE creme", in: search) == ["P-1"])
            #expect(try await Self.found("crème acme mug", in: search) == ["P-1"])
            #expect(try await Self.found("zeta", in: search) == ["P-2"])
            // A word too long for the index is left out of it, and a search for one finds nothing.
            #expect(try await Self.found("lamp", in: search) == ["P-5"])
            #expect(try await Self.found(long, in: search) == [])
            // A file's column named like the words column is kept under another name.
            #expect(try await search.product(id: "P-1")?.extras == [Product.Extra(name: "catalog_words_2", value: "kept")])

            var upsert = ImportOptions()
            upsert.mode = .upsert
            // The title alone: the brand's and type's words stay, the old title's go.
            _ = try await importCSV(try folder.write("titles.csv", "productId,title\nP-1,Nouvelle Tasse\nP-3,Green Tea\n"), into: location, options: upsert)
            #expect(try await Self.found("cafe", in: search) == [])
            #expect(try await Self.found("nouvelle acme mugs", in: search) == ["P-1"])
            #expect(try await Self.found("green", in: search) == ["P-3"])
            // All three: the file's words.
            _ = try await importCSV(try folder.write("all.csv", "productId,title,brand,productType\nP-2,Striped Tee,Omega,Tops\n"), into: location, options: upsert)
            #expect(try await Self.found("zeta", in: search) == [])
            #expect(try await Self.found("omega striped tops", in: search) == ["P-2"])
            // None of them: the words stay.
            _ = try await importCSV(try folder.write("prices.csv", "productId,listPrice\nP-2,9.99\n"), into: location, options: upsert)
            #expect(try await Self.found("omega", in: search) == ["P-2"])

            let editor = try await PostgresCatalogEditor.open(location)
            var tea = try #require(try await search.product(id: "P-3"))
            tea.title = "Schwarzer Tee"
            tea.brand = "Öko"
            try await editor.replace(productId: "P-3", with: tea)
            try await editor.add(Product(productId: "P-4", title: "Thé vert"))
            await editor.close()
            #expect(try await Self.found("green", in: search) == [])
            #expect(try await Self.found("oko schwarz", in: search) == ["P-3"])
            #expect(try await Self.found("the", in: search) == ["P-4"])
            await search.close()
        }
    }

    @Test func wordsThatNeedQuotingStayWhole() throws {
        #expect(PostgresSchema.tsvector(title: ["b", "a'b", #"c\d"#, "a'b", String(repeating: "x", count: PostgresSchema.longestWord + 1)], other: ["b"])
            == #"'a''b':1A 'b':1A 'c\\d':1A 'b':2B"#)
        var buffer: [UInt8] = []
        #"it's\a"#.utf8.withContiguousStorageIfAvailable { CopyTextEncoder.appendLexeme(UnsafeRawBufferPointer($0), to: &buffer) }
        #expect(String(decoding: buffer, as: UTF8.self) == #"it''s\\\\a"#)
    }

    @Test func aCatalogOfTheEarlierLayoutIsReplacedNotRead() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("feed.csv", "productId,title\nA,Blue Mug\n")
        try await PostgresTestServer.withCatalog { location in
            try await PostgresTestServer.createTable(
                "products (\"productId\" text COLLATE \"C\" NOT NULL, title text)", comment: "ProductCatalog products, layout 2", at: location)
            let error = await #expect(throws: PostgresCatalogError.self) { try await PostgresProductSearch.open(location) }
            #expect(error?.description.contains("Import the feed again") == true)
            var upsert = ImportOptions()
            upsert.mode = .upsert
            await #expect(throws: PostgresCatalogError.self) { try await importCSV(file, into: location, options: upsert) }
            _ = try await importCSV(file, into: location)
            let search = try await PostgresProductSearch.open(location)
            #expect(try await Self.found("mug", in: search) == ["A"])
            await search.close()
        }
    }
}
