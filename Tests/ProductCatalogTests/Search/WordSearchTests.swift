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
        var ids: [String] = []
        var cursor: KeysetCursor?
        repeat {
            let page = try search.page(query: query, after: cursor, limit: pageSize)
            #expect(page.products.count <= pageSize)
            ids += page.products.map(\.productId)
            cursor = page.nextCursor
        } while cursor != nil
        return ids
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
            DROP TABLE words; DROP TABLE word_products; PRAGMA user_version = 2;
            """)
        var search = try ProductSearch(databasePath: fixture.databasePath)
        #expect(try !search.hasWordIndex)
        #expect(try ids(search, "lin") == ["LIN-1"])
        try CatalogEditor(databasePath: fixture.databasePath).add(Product(productId: "P7", title: "Linen Cap"))
        search = try ProductSearch(databasePath: fixture.databasePath)
        #expect(try search.hasWordIndex)
        #expect(try ids(search, "lin") == ["LIN-1", "P1", "P7"])
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
