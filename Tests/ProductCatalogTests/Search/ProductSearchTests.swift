import Testing
@testable import ProductCatalog

@Suite struct ProductSearchTests {
    static let ids = ["AB12", "ab13", "Ab2", "ABC", "AC1", "a_b", "a%b", "B1", "b'2", "日本-1", "00123", "AB"]

    func catalog() throws -> CatalogFixture {
        let fixture = try CatalogFixture()
        try fixture.importCSV("sku\n" + Self.ids.joined(separator: "\n") + "\n")
        return fixture
    }

    /// The products a plain filter finds, in NOCASE order: what the index must agree with.
    func expected(prefix: String) -> [String] {
        func fold(_ s: String) -> [UInt8] { s.utf8.map { $0 >= 65 && $0 <= 90 ? $0 | 0x20 : $0 } }
        return Self.ids.filter { fold($0).starts(with: fold(prefix)) }
            .sorted { fold($0).lexicographicallyPrecedes(fold($1)) }
    }

    @Test(arguments: ["", "a", "ab", "AB", "aB1", "abc", "a_", "a%", "b'", "日", "日本", "0", "z", "ab12x"])
    func findsEveryPrefixMatchIgnoringASCIICaseInOrder(prefix: String) throws {
        let fixture = try catalog()
        for pageSize in [1, 2, 3, 20] {
            #expect(try fixture.allProducts(prefix: prefix, pageSize: pageSize).map(\.productId) == expected(prefix: prefix))
        }
        #expect(try ProductSearch(databasePath: fixture.databasePath).count(prefix: prefix) == expected(prefix: prefix).count)
    }

    @Test func aFullPageBeforeTheEndHasACursorAndTheLastPageHasNone() throws {
        let fixture = try catalog()
        let search = try ProductSearch(databasePath: fixture.databasePath)
        let first = try search.page(prefix: "ab", limit: 2)
        #expect(first.products.map(\.productId) == ["AB", "AB12"])
        let cursor = try #require(first.nextCursor)
        let second = try search.page(prefix: "ab", after: KeysetCursor(cursor.description), limit: 2)
        #expect(second.products.map(\.productId) == ["ab13", "Ab2"])
        let third = try search.page(prefix: "ab", after: second.nextCursor, limit: 2)
        #expect(third.products.map(\.productId) == ["ABC"])
        #expect(third.nextCursor == nil)
        // Exactly a page's worth left: the page is full and still the last.
        #expect(try search.page(prefix: "ab", after: first.nextCursor, limit: 3).nextCursor == nil)
    }

    @Test func aCursorFromBeforeThePrefixStartsAtThePrefix() throws {
        let fixture = try catalog()
        let search = try ProductSearch(databasePath: fixture.databasePath)
        let page = try search.page(prefix: "b", after: KeysetCursor(after: "AB"), limit: 5)
        #expect(page.products.map(\.productId) == ["b'2", "B1"])
    }

    @Test func cursorsRoundTripAsOpaqueText() {
        for id in ["AB12", "日本-1", "a/b+c=", "?"] {
            #expect(KeysetCursor(KeysetCursor(after: id).description)?.lastProductId == id)
        }
        #expect(KeysetCursor("not base64!") == nil)
    }

    @Test func looksUpOneProductById() throws {
        let fixture = try catalog()
        let search = try ProductSearch(databasePath: fixture.databasePath)
        #expect(try search.product(id: "abc")?.productId == "ABC")
        #expect(try search.product(id: "nope") == nil)
    }

    @Test func aMissingCatalogIsAClearError() throws {
        let directory = try TemporaryDirectory()
        #expect(throws: CatalogError.noCatalog(path: directory.file("none.sqlite"))) {
            try ProductSearch(databasePath: directory.file("none.sqlite"))
        }
    }

    @Test func pageJSONKeepsFieldOrderAndExactPrices() {
        let page = SearchPage(
            products: [Product(productId: "A\"1", title: nil, listPrice: Price(cents: 1250), extras: [.init(name: "Material", value: "x")])],
            nextCursor: KeysetCursor(after: "A\"1"))
        #expect(page.jsonValue.serialized == #"{"products":[{"productId":"A\"1","title":null,"listPrice":"12.50","salesPrice":null,"color":null,"size":null,"productType":null,"taxRate":null,"imageURL":null,"groupId":null,"currency":null,"quantity":null,"brand":null,"description":null,"options":null,"Material":"x"}],"nextCursor":"QSIx"}"#)
    }
}
