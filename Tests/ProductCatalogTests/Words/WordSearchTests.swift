import FeedGenerator
import Foundation
import Synchronization
import Testing
import TestSupport
@testable @_spi(WordIndex) import ProductCatalog

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
        try search.allPages(query: query, listing: .variants, pageSize: pageSize)
    }

    @Test(arguments: [
        ("lin shi", ["P1"]),
        ("LIN", ["LIN-1", "P1"]),
        ("cafe", ["P2"]), ("CAFÉ", ["P2"]), ("muller", ["P2"]), ("olé dre", ["P2"]),
        ("日本", ["P3"]), ("soundbar", ["P3"]),
        ("shirt", ["P1", "P4"]), ("navy", ["P4"]), ("t-shirt", ["P4"]), ("chef's", ["P5"]),
        ("p", ["P1", "P2", "P3", "P4", "P5"]),
        ("", ["LIN-1", "P1", "P2", "P3", "P4", "P5"]),
        ("MÜLLER", ["P2"]), ("mueller", ["P2"]), ("acme", ["P1"]), ("shirts", ["P1", "P4"]),
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
        let count = try search.count(query: query)
        #expect(count == expected.count, "count \(count)")
    }

    @Test func theExactTitleComesFirstThenTitlesWithEveryWordThenTheRest() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV("""
            productId,title,brand,productType
            A1,Black Leather Jacket for Riding,,
            A2,Jacket Black,,
            A3,Blackest Jacketed Coat,,
            A4,Warm Coat,Black,Jackets
            A5,Black Jacket,,
            A6,Black Jacket Men,,
            A7,Jacket,Blackmore,

            """)
        let search = try ProductSearch(databasePath: fixture.databasePath)
        // Exact title; then every word in the title, fewest title words first; then words that
        // start title words; then titles, brands and types together.
        #expect(try ids(search, "black jacket") == ["A5", "A2", "A6", "A1", "A3", "A7", "A4"])
        #expect(try ids(search, "black jacket", pageSize: 2) == ["A5", "A2", "A6", "A1", "A3", "A7", "A4"])
        // The last word may be unfinished: `black jack` has no exact title.
        #expect(try ids(search, "black jack") == ["A2", "A5", "A6", "A1", "A3", "A7", "A4"])
    }

    // MARK: - Against a plain model

    /// Words as the model has them (``WordModel/words(_:)``).
    static func words(_ text: String?) -> [String] { WordModel.words(text) }

    /// The tier a product meets for `query` in the model (``WordModel/tier(_:_:)``).
    static func modelTier(_ product: Product, _ query: [String]) -> Int? { WordModel.tier(product, query) }

    /// What a search for `query` must list without typos (``WordModel/result(_:_:)``).
    static func modelResult(_ all: [Product], _ query: String) -> [String] { WordModel.result(all, query) }

    /// A catalog of generated products with a large vocabulary, and the queries a person typing its titles sends.
    static func realisticCatalog(rows: Int) throws -> (CatalogFixture, [Product], [String]) {
        let vocabulary = RealisticVocabulary(words: 4_000, seed: 5)
        var csv: [UInt8] = []
        RealisticProductGenerator(rows: rows, seed: 8, vocabulary: vocabulary).write { csv.append(contentsOf: $0) }
        let fixture = try CatalogFixture()
        try fixture.importCSV(String(decoding: csv, as: UTF8.self))
        let all = try fixture.allProducts(pageSize: 500)
        var queries = ["a", "s", "x", "ab", "sk", "sch", "ä", "é", "Ł", "500", "x1", "zz"]
        for product in all.enumerated().filter({ $0.offset % (all.count / 12) == 0 }).map(\.element) {
            var typed = ""
            for character in product.title ?? "" {
                typed.append(character)
                if character.isLetter || character.isNumber { queries.append(typed) }
            }
            if let brand = product.brand { queries.append(brand) }
        }
        return (fixture, all, queries)
    }

    /// Every way of looking a word up: as on a real catalog, and with long starts broad.
    @Test(arguments: [LookUps.plain, .broad])
    func pagesAgreeWithAPlainModelOfTheTiers(lookUps: LookUps) throws {
        let (fixture, all, queries) = try Self.realisticCatalog(rows: 900)
        let search = try ProductSearch(databasePath: fixture.databasePath)
        search.planLimits = lookUps.limits
        for (index, query) in queries.enumerated() {
            let expected = TypoSearchTests.modelResult(all, query)
            #expect(try ids(search, query, pageSize: 20) == expected, "query \(query)")
            #expect(try search.count(query: query, listing: .variants) == expected.count, "query \(query)")
            if index < 40 { #expect(try ids(search, query, pageSize: 3) == expected, "query \(query), pages of 3") }
        }
    }

    /// The ways a plan looks words up, by the limits it is given.
    enum LookUps: Sendable {
        /// As on a real catalog.
        case plain
        /// Few listed terms, and long starts of many products broad (which have no typos).
        case broad

        var limits: WordPlan.Limits {
            switch self {
            case .plain: WordPlan.Limits()
            case .broad: WordPlan.Limits(maxListedTerms: 2, maxCountedTerms: 20, broadProducts: 30)
            }
        }
    }

    @Test func aSampleCatalogAgreesWithTheModelToo() throws {
        var csv: [UInt8] = []
        ProductGenerator(rows: 2_000, seed: 11).write { csv.append(contentsOf: $0) }
        let fixture = try CatalogFixture()
        try fixture.importCSV(String(decoding: csv, as: UTF8.self))
        let all = try fixture.allProducts(pageSize: 500)
        let search = try ProductSearch(databasePath: fixture.databasePath)
        for query in ["a", "S", "xy1", "zz", "sk", "cot org", "日本", "straß", "strassberg", "linen shirt", "nordvik t-sh", "wool"] {
            #expect(try ids(search, query, pageSize: 7) == TypoSearchTests.modelResult(all, query), "query \(query)")
        }
    }

    @Test func aCappedCountSaysWhenItStoppedAndIsALowerBound() throws {
        let (fixture, all, _) = try Self.realisticCatalog(rows: 1_500)
        let search = try ProductSearch(databasePath: fixture.databasePath)
        search.planLimits = WordPlan.Limits(maxListedTerms: 2, maxCountedTerms: 20, broadProducts: 30)
        let exact = TypoSearchTests.modelResult(all, "a").count
        #expect(exact > 100)
        let capped = try search.countMatches(query: "a", listing: .variants, upTo: 50)
        #expect(capped == MatchCount(count: 50, isComplete: false))
        let whole = try search.countMatches(query: "a", listing: .variants, upTo: exact + 1)
        #expect(whole.count <= exact)
        #expect(whole.isComplete == (whole.count == exact))
        #expect(try search.countMatches(query: "a", listing: .variants) == MatchCount(count: exact, isComplete: true))
    }

    // MARK: - Writes

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
        // Same tier and title length: the catalog's order, imported products then those added since.
        #expect(try ids(search, "linen") == ["P9", "P10"])
        #expect(try ids(search, "velvet") == ["P1"])
        #expect(try ids(search, "shirt") == ["P1"], "its type is still Shirts; P4 is gone")
        #expect(try ids(search, "acme") == ["P1", "P10"], "the upsert kept P1's brand")
        #expect(try ids(search, "cafe") == [])
        #expect(try ids(search, "silk") == ["Q2"])
        #expect(try ids(search, "silk dress") == ["Q2"], "its exact title, found by its new key")
        #expect(try ids(search, "navy") == [])
        #expect(try search.count(query: "linen") == 2)
    }

    /// After any mix of writes, every query finds what the model finds on the products as they
    /// are now, in tier order (the places of products added later differ from a fresh import's,
    /// so within a tier and title length the order is not compared).
    @Test func afterEveryKindOfWriteTheIndexAgreesWithTheModel() throws {
        var (fixture, _, queries) = try Self.realisticCatalog(rows: 600)
        var all = try fixture.allProducts(pageSize: 500)
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        for (index, product) in all.enumerated() where index % 7 == 0 {
            var changed = product
            changed.title = (all[(index + 3) % all.count].title ?? "") + " Extra"
            changed.brand = index % 2 == 0 ? nil : "Zorblatt"
            _ = try editor.replace(productId: product.productId, with: changed)
        }
        for product in all.enumerated().filter({ $0.offset % 11 == 5 }).map(\.element) {
            try editor.delete(productId: product.productId)
        }
        _ = try editor.replace(productId: all[1].productId, with: Product(productId: "RENAMED-1", title: all[2].title))
        try editor.add(Product(productId: "NEW-1", title: "Zorblatt Quixotic Lamp", productType: "Lamps", brand: "Nordlicht"))
        fixture.options.mode = .upsert
        func field(_ text: String?) -> String { "\"" + (text ?? "").replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
        try fixture.importCSV("productId,title,brand\nUP-1,\(field(all[4].title)),Upbrand\n\(field(all[6].productId)),Quixotic Zorblatt Chair,\n")
        // Another program's writes go through the triggers alone.
        let other = try Connection(path: fixture.databasePath, mode: .readWrite)
        try other.execute("INSERT INTO products (productId, title, brand) VALUES ('RAW-1', 'Quixotic Raw Stool', 'Zorblatt')")
        let desk = all[8].productId
        try other.execute("UPDATE products SET title = 'Zorblatt Quixotic Desk' WHERE productId = '\(desk)'")

        all = try fixture.allProducts(pageSize: 500)
        let search = try ProductSearch(databasePath: fixture.databasePath)
        for query in queries.prefix(150) + ["zorblatt", "quixotic", "zorblatt quix", "quixotic zorblatt chair", "extra", "nordlicht", "upbrand"] {
            let found = try ids(search, query)
            let expected = TypoSearchTests.modelResult(all, query)
            #expect(Set(found) == Set(expected) && found.count == expected.count, "query \(query)")
            let folded = Array(Self.words(query).prefix(WordQuery.maxWords))
            let byId = Dictionary(uniqueKeysWithValues: all.map { ($0.productId, $0) })
            let wordMatches = found.dropFirst(try search.count(prefix: query, listing: .variants))
            let tiers = wordMatches.compactMap { byId[$0] }.compactMap { TypoSearchTests.modelTier($0, folded) }
            #expect(tiers == tiers.sorted() || folded.isEmpty, "query \(query): tiers \(tiers)")
        }
        // What the other program wrote is found at once, through the changes its triggers noted.
        #expect(try ids(search, "zorblatt quixotic desk") == [desk])
        try other.execute("DELETE FROM products WHERE productId = '\(desk)'")
        #expect(try ids(search, "zorblatt quixotic desk").isEmpty)
    }

    @Test func aCatalogMadeBeforeThisIndexFindsProductIdsUntilItsFirstEdit() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv)
        let connection = try Connection(path: fixture.databasePath, mode: .readWrite)
        // A catalog of an earlier layout, without this index.
        try connection.execute(WordLists.dropStatements + "PRAGMA user_version = 5;")
        var search = try ProductSearch(databasePath: fixture.databasePath)
        #expect(try !search.hasWordIndex)
        #expect(try ids(search, "lin") == ["LIN-1"])
        try CatalogEditor(databasePath: fixture.databasePath).add(Product(productId: "P7", title: "Linen Cap"))
        search = try ProductSearch(databasePath: fixture.databasePath)
        #expect(try search.hasWordIndex)
        // Rebuilt from the products: P7 takes its place in productId order.
        #expect(try ids(search, "lin") == ["LIN-1", "P1", "P7"])
        #expect(try connection.scalarInt("PRAGMA user_version") == Int64(CatalogSchema.version))
    }

    // MARK: - Queries

    @Test func aLongQueryUsesItsFirstTenWordsAndSaysSo() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV("productId,title\nL1,one two three four five six seven eight nine ten\nL2,one two\n")
        let search = try ProductSearch(databasePath: fixture.databasePath)
        let long = "one two three four five six seven eight nine ten eleven twelve"
        #expect(WordQuery(long).isTruncated)
        #expect(WordQuery(long).words.count == 10)
        #expect(!WordQuery("one two").isTruncated)
        #expect(try ids(search, long) == ["L1"])
    }

    @Test func theTokenizerFoldsAsTheIndexDoes() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv)
        let tokenizer = try WordTokenizer(connection: Connection(path: fixture.databasePath, mode: .readOnly))
        #expect(try tokenizer.tokens("Café Straße T-Shirt 日本工房 MÜLLER") == ["cafe", "straße", "t", "shirt", "日本", "本工", "工房", "房", "muller"])
        #expect(try tokenizer.tokens("") == [])
    }

    /// Runs of Chinese and Japanese are found by any word inside them, and by any one character.
    @Test func wordsInsideRunsWithoutSpacesAreFound() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV("productId,title\nJ1,黒いブーツ\nJ2,ブーツカバー 防水\nJ3,革靴\nJ4,ブラウス\nJ5,Boots ブーツabc\n")
        let search = try ProductSearch(databasePath: fixture.databasePath)
        #expect(Set(try ids(search, "ブーツ")) == ["J1", "J2", "J5"])
        #expect(try ids(search, "靴") == ["J3"])
        #expect(try ids(search, "黒") == ["J1"])
        #expect(try ids(search, "カバー 防水") == ["J2"])
        #expect(try ids(search, "ブラ") == ["J4"])
        #expect(try ids(search, "boots") == ["J5"])
        let tokenizer = try WordTokenizer(connection: Connection(path: fixture.databasePath, mode: .readOnly))
        #expect(try tokenizer.tokens("ブーツabc黒") == ["ブー", "ーツ", "ツ", "abc", "黒"])
    }

    @Test func aCursorAmongWordMatchesReadsBackAndIsNotAProductId() throws {
        let cursor = KeysetCursor(afterWordBucket: 6, row: 42)
        #expect(KeysetCursor(cursor.description) == cursor)
        #expect(KeysetCursor(cursor.description)?.wordBucket?.code == 6 && KeysetCursor(cursor.description)?.wordBucket?.row == 42)
        #expect(KeysetCursor(KeysetCursor(after: "AB-1").description)?.lastWordRow == nil)
        #expect(WordQuery("Chef's t-shirt").words == ["Chef", "s", "t", "shirt"])
        #expect(WordQuery(" - ").words.isEmpty)
    }
}
