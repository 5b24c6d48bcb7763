import FeedGenerator
import Foundation
import Testing
@testable import ProductCatalog

/// Word search: the words of titles, brands and types, after the productId prefix matches.
@Suite struct WordSearchTests {
    static let csv = """
        productId,title,brand,productType
        P1,Linen Shirt,Acme,Shirts
        P2,Café Olé Dress,Müller,Dresses
        P3,日本工房 Soundbar,,Audio
        P4,T-Shirt (navy),,Shirts
        P5,Chef's Knife,,Kitchen
        LIN-1,Wool Coat,,Coats

        """

    func ids(_ search: ProductSearch, _ query: String, pageSize: Int = 20) throws -> [String] {
        try search.allPages(query: query, pageSize: pageSize)
    }

    @Test(arguments: [
        ("lin shi", ["P1"]),
        ("LIN", ["LIN-1", "P1"]),
        ("cafe", ["P2"]), ("CAFÉ", ["P2"]), ("muller", ["P2"]), ("olé dre", ["P2"]),
        ("日本", ["P3"]), ("soundbar", ["P3"]),
        ("shirt", ["P1", "P4"]), ("navy", ["P4"]), ("t-shirt", ["P4"]), ("chef's", ["P5"]),
        ("p", ["P1", "P2", "P3", "P4", "P5"]),
        ("", ["LIN-1", "P1", "P2", "P3", "P4", "P5"]),
        ("MÜLLER", ["P2"]), ("mueller", []),
        ("shirt wool", []), ("AND", []), ("\"", []), ("*", []), ("NEAR(a b)", []), ("title:linen", []),
    ])
    func wordsMatchByPrefixIgnoringCaseAndAccents(query: String, expected: [String]) throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv)
        let search = try ProductSearch(databasePath: fixture.databasePath)
        #expect(try search.hasWordIndex)
        for pageSize in [1, 2, 20] {
            #expect(try ids(search, query, pageSize: pageSize) == expected, "page size \(pageSize)")
        }
        #expect(try search.count(query: query) == expected.count)
    }

    /// Words as the model has them: runs of letters and digits, lower-cased and accents removed,
    /// as the tokenizer does (which, unlike Foundation's case folding, keeps `ß` as it is).
    static func words(_ text: String?) -> [String] {
        (text ?? "").lowercased().folding(options: [.diacriticInsensitive], locale: nil)
            .split { !$0.isLetter && !$0.isNumber }.map(String.init)
    }

    @Test func pagesAgreeWithAPlainModelOfTheRules() throws {
        var csv: [UInt8] = []
        ProductGenerator(rows: 3_000, seed: 11).write { csv.append(contentsOf: $0) }
        let fixture = try CatalogFixture()
        try fixture.importCSV(String(decoding: csv, as: UTF8.self))
        let all = try fixture.allProducts(pageSize: 500)
        let search = try ProductSearch(databasePath: fixture.databasePath)
        let distinct = Set(all.flatMap { Self.words($0.title) }).sorted()
        let titleWords = stride(from: 0, to: distinct.count, by: max(1, distinct.count / 25)).map { distinct[$0] }
        var queries = ["a", "S", "xy1", "zz", "sk", "cot org", "日本", "straß", "strassberg"]
        queries += titleWords.prefix(25)
        queries += titleWords.prefix(25).map { String($0.prefix(2)) }
        for query in queries {
            let folded = Self.words(query)
            let range = PrefixRange(prefix: query)
            func byId(_ product: Product) -> Bool {
                let key = product.productId.utf8.map(ProductIdOrder.fold)
                return !key.lexicographicallyPrecedes(range.lower) && (range.upper.map { key.lexicographicallyPrecedes($0) } ?? true)
            }
            let byWords = all.filter { product in
                let words = Self.words(product.title) + Self.words(product.brand) + Self.words(product.productType)
                return !byId(product) && folded.allSatisfy { part in words.contains { $0.hasPrefix(part) } }
            }
            let expected = all.filter(byId).map(\.productId) + byWords.map(\.productId)
            for pageSize in [7, 20] {
                #expect(try ids(search, query, pageSize: pageSize) == expected, "query \(query), page size \(pageSize)")
            }
            #expect(try search.count(query: query) == expected.count, "query \(query)")
        }
    }

    @Test func theIndexFollowsUpsertsEditsDeletesAndRenames() throws {
        var fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv)
        fixture.options.mode = .upsert
        try fixture.importCSV("productId,title\nP1,Velvet Scarf\nP9,Linen Apron\n")
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        try editor.add(Product(productId: "P10", title: "Linen Towel", brand: "Acme"))
        try editor.replace(productId: "P2", with: Product(productId: "Q2", title: "Silk Dress"))
        try editor.delete(productId: "P4")
        let search = try ProductSearch(databasePath: fixture.databasePath)
        // Imported products in productId order, then those added since, in the order added.
        #expect(try ids(search, "linen") == ["P9", "P10"])
        #expect(try ids(search, "velvet") == ["P1"])
        #expect(try ids(search, "shirt") == ["P1"], "its type is still Shirts; P4 is gone")
        #expect(try ids(search, "acme") == ["P1", "P10"], "the upsert kept P1's brand")
        #expect(try ids(search, "cafe") == [])
        #expect(try ids(search, "silk") == ["Q2"])
        #expect(try ids(search, "navy") == [])
        #expect(try search.count(query: "linen") == 2)
    }

    @Test func aCatalogMadeBeforeTheIndexFindsProductIdsUntilItsFirstEdit() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv)
        let connection = try Connection(path: fixture.databasePath, mode: .readWrite)
        try connection.execute("""
            DROP TRIGGER words_insert; DROP TRIGGER words_update; DROP TRIGGER words_delete;
            DROP TABLE words; DROP TABLE word_products; DROP TABLE word_terms; DROP TABLE word_terms_pending;
            PRAGMA user_version = 2;
            """)
        var search = try ProductSearch(databasePath: fixture.databasePath)
        #expect(try !search.hasWordIndex)
        #expect(try ids(search, "lin") == ["LIN-1"])
        try CatalogEditor(databasePath: fixture.databasePath).add(Product(productId: "P7", title: "Linen Cap"))
        search = try ProductSearch(databasePath: fixture.databasePath)
        #expect(try search.hasWordIndex)
        #expect(try ids(search, "lin") == ["LIN-1", "P1", "P7"])
    }

    @Test func theTermListFollowsEditsAndAnotherProgramsWritesFallBackToPrefixQueries() throws {
        var fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv)
        var connection = try Connection(path: fixture.databasePath, mode: .readWrite)
        #expect(try WordIndex.termsAreComplete(connection))
        #expect(try connection.scalarInt("SELECT count(*) FROM word_terms WHERE term IN ('linen', 'cafe', 'muller', '日本工房')") == 4)

        // This library's writers list the new terms before they commit.
        try CatalogEditor(databasePath: fixture.databasePath).add(Product(productId: "Z1", title: "Zephyr Jacket"))
        fixture.options.mode = .upsert
        try fixture.importCSV("productId,title\nP5,Quokka Mug\n")
        // The upsert wrote a copy and renamed it over the catalog: open the new file.
        connection = try Connection(path: fixture.databasePath, mode: .readWrite)
        #expect(try WordIndex.termsAreComplete(connection))
        var search = try ProductSearch(databasePath: fixture.databasePath)
        #expect(try ids(search, "zeph") == ["Z1"])
        #expect(try ids(search, "quo") == ["P5"])
        #expect(try ids(search, "chef") == [])

        // Another program's write goes through the triggers, which note the product as pending:
        // searches use prefix queries until one of our writers lists its terms.
        try connection.execute("INSERT INTO products (productId, title) VALUES ('X1', 'Xylophone Case')")
        #expect(try !WordIndex.termsAreComplete(connection))
        search = try ProductSearch(databasePath: fixture.databasePath)
        #expect(try ids(search, "xylo") == ["X1"])
        try CatalogEditor(databasePath: fixture.databasePath).delete(productId: "LIN-1")
        #expect(try WordIndex.termsAreComplete(connection))
        #expect(try ids(search, "xylo") == ["X1"])
    }

    @Test func aCatalogOfLayoutThreeSearchesByPrefixUntilItsFirstEditListsItsTerms() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv)
        let connection = try Connection(path: fixture.databasePath, mode: .readWrite)
        try connection.execute("""
            DROP TRIGGER words_insert; DROP TRIGGER words_update;
            DROP TABLE word_terms; DROP TABLE word_terms_pending; PRAGMA user_version = 3;
            """)
        var search = try ProductSearch(databasePath: fixture.databasePath)
        #expect(try search.wordMatch("lin shi") == #""lin"* "shi"*"#)
        #expect(try ids(search, "lin shi") == ["P1"])
        try CatalogEditor(databasePath: fixture.databasePath).add(Product(productId: "P8", title: "Linen Shift"))
        #expect(try WordIndex.termsAreComplete(connection))
        #expect(try connection.scalarInt("PRAGMA user_version") == Int64(CatalogSchema.version))
        search = try ProductSearch(databasePath: fixture.databasePath)
        #expect(try search.wordMatch("lin shi") == #"("linen") AND ("shift" OR "shirt" OR "shirts")"#)
        #expect(try ids(search, "lin shi") == ["P1", "P8"])
    }

    @Test func aWordStartingManyTermsMatchesByPrefixAndFindsTheSame() throws {
        let rows = (0..<(ProductSearch.maxTermsPerWord + 50)).map { "Q\($0),Qx\($0) Widget" }
        let fixture = try CatalogFixture()
        try fixture.importCSV("productId,title\n" + rows.joined(separator: "\n") + "\nR1,Qxa Lamp\n")
        let search = try ProductSearch(databasePath: fixture.databasePath)
        #expect(try search.wordMatch("qx") == #""qx"*"#)
        #expect(try search.wordMatch("QXA") == #"("qxa")"#)
        #expect(try search.wordMatch("qx1 widg") == #"("qx1" OR "qx10" OR "qx100" OR "qx101" OR "qx102" OR "qx103" OR "qx104" OR "qx105" OR "qx106" OR "qx107" OR "qx108" OR "qx109" OR "qx11" OR "qx110" OR "qx111" OR "qx112" OR "qx113" OR "qx114" OR "qx115" OR "qx116" OR "qx117" OR "qx118" OR "qx119" OR "qx12" OR "qx120" OR "qx121" OR "qx122" OR "qx123" OR "qx124" OR "qx125" OR "qx126" OR "qx127" OR "qx128" OR "qx129" OR "qx13" OR "qx130" OR "qx131" OR "qx132" OR "qx133" OR "qx134" OR "qx135" OR "qx136" OR "qx137" OR "qx138" OR "qx139" OR "qx14" OR "qx140" OR "qx141" OR "qx142" OR "qx143" OR "qx144" OR "qx145" OR "qx146" OR "qx147" OR "qx148" OR "qx149" OR "qx15" OR "qx150" OR "qx151" OR "qx152" OR "qx153" OR "qx154" OR "qx155" OR "qx156" OR "qx157" OR "qx158" OR "qx159" OR "qx16" OR "qx160" OR "qx161" OR "qx162" OR "qx163" OR "qx164" OR "qx165" OR "qx166" OR "qx167" OR "qx168" OR "qx169" OR "qx17" OR "qx170" OR "qx171" OR "qx172" OR "qx173" OR "qx174" OR "qx175" OR "qx176" OR "qx177" OR "qx178" OR "qx179" OR "qx18" OR "qx180" OR "qx181" OR "qx182" OR "qx183" OR "qx184" OR "qx185" OR "qx186" OR "qx187" OR "qx188" OR "qx189" OR "qx19" OR "qx190" OR "qx191" OR "qx192" OR "qx193" OR "qx194" OR "qx195" OR "qx196" OR "qx197" OR "qx198" OR "qx199") AND ("widget")"#)
        #expect(try search.wordMatch("nothing") == nil)
        #expect(try ids(search, "qx").count == ProductSearch.maxTermsPerWord + 51)
        #expect(try ids(search, "qxa") == ["R1"])
        #expect(try search.count(query: "qx1 widg") == 111)
    }

    @Test func theTokenizerFoldsAsTheIndexDoes() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv)
        let tokenizer = try WordTokenizer(connection: Connection(path: fixture.databasePath, mode: .readOnly))
        #expect(try tokenizer.tokens("Café Straße T-Shirt 日本工房 MÜLLER") == ["cafe", "straße", "t", "shirt", "日本工房", "muller"])
        #expect(try tokenizer.tokens("CAFÉ", asQueryPrefix: true) == ["cafe"])
        #expect(try tokenizer.tokens("") == [])
    }

    @Test func aCursorAmongWordMatchesReadsBackAndIsNotAProductId() throws {
        let cursor = KeysetCursor(afterWordRow: 42)
        #expect(KeysetCursor(cursor.description) == cursor)
        #expect(KeysetCursor(KeysetCursor(after: "AB-1").description)?.lastWordRow == nil)
        #expect(WordQuery("Chef's t-shirt").words == ["Chef", "s", "t", "shirt"])
        #expect(WordQuery(" - ").matchExpression == nil)
        #expect(WordQuery("a\"b").matchExpression == #""a"* "b"*"#)
    }
}
