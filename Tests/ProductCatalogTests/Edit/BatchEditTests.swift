import Testing
@testable import ProductCatalog

/// `CatalogEditor.apply(_:to:)`: one change for many products, with the rules of single edits.
@Suite struct BatchEditTests {
    static let csv = """
        productId,title,listPrice,salesPrice,color,brand
        A1,Linen Shirt,40.00,29.99,Navy,Acme
        A2,Linen Dress,80.00,,Black,Nord
        A3,Wool Shirt,55.00,50.00,Navy,Nord
        A4,Linen Towel,12.00,,Sand,Acme

        """

    @Test func setChangesEachProductAndRefusesWhatASingleEditWouldRefuse() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv)
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        // A list price of 45.00 is below A3's sale price (50.00): refused for A3 alone. "a2" finds A2 as a single edit would.
        let outcome = try editor.apply(.set([.listPrice: "45.00", .brand: "Fjord"]), to: ["A1", "A3", "NOPE", "a2"])
        #expect(outcome.changed == ["A1", "a2"])
        #expect(outcome.refused.map(\.productId) == ["A3", "NOPE"])
        #expect(outcome.refused[0].problems == ["salesPrice": .saleAboveList(sale: Price("50.00")!, list: Price("45.00")!)])
        guard case .notFound(let productId) = outcome.refused[1].error else {
            Issue.record("NOPE is refused as not found: \(outcome.refused[1].error)")
            return
        }
        #expect(productId == "NOPE" && outcome.refused[1].problems.isEmpty)
        let search = try ProductSearch(databasePath: fixture.databasePath)
        #expect(try search.product(id: "A1")?.listPrice == Price("45.00"))
        #expect(try search.product(id: "A1")?.salesPrice == Price("29.99"), "fields not named keep their values")
        #expect(try search.product(id: "A3")?.brand == "Nord", "a refused product is left as it was")
        // The word index follows the batch: the new brand finds the changed products.
        #expect(try search.allPages(query: "fjord") == ["A1", "A2"])
    }

    @Test func aSetSaysWhatItReplacedSoThatSettingItAgainUndoesIt() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv)
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        let search = try ProductSearch(databasePath: fixture.databasePath)
        let before = try ["A1", "A2", "A3", "A4"].map { try search.product(id: $0) }
        let outcome = try editor.apply(.set([.color: "Ultraviolet", .salesPrice: "35.00"]), to: ["A1", "A2", "A3", "A4"])
        // A3's list price (55.00) allows 35.00; A4's (12.00) does not: refused, with the field that broke the rule.
        #expect(outcome.changed == ["A1", "A2", "A3"])
        #expect(outcome.refused.map(\.productId) == ["A4"])
        #expect(Array(outcome.refused[0].problems.keys) == ["salesPrice"])
        #expect(outcome.replaced["A1"] == [.color: "Navy", .salesPrice: "29.99"])
        #expect(outcome.replaced["A2"] == [.color: "Black", .salesPrice: ""], "no value replaced is an empty text, which clears")
        #expect(outcome.replaced["A4"] == nil, "a refused product replaced nothing")
        // Undo: each group of equal old values set again, as the page does.
        for (values, ids) in Dictionary(grouping: outcome.replaced.keys, by: { outcome.replaced[$0]! }) {
            #expect(try editor.apply(.set(values), to: ids).refused.isEmpty)
        }
        #expect(try ["A1", "A2", "A3", "A4"].map { try search.product(id: $0) } == before)
        #expect(try search.allPages(query: "ultraviolet").isEmpty, "the word index follows the undo")
    }

    @Test func deleteAndStarApplyToEachProductInOneGo() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv)
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        #expect(try editor.apply(.star(true), to: ["A1", "A2", "A9"]).changed == ["A1", "A2"])
        let search = try ProductSearch(databasePath: fixture.databasePath)
        #expect(try search.favorites().map(\.productId) == ["A1", "A2"])
        #expect(try editor.apply(.star(false), to: ["A1"]).changed == ["A1"])
        #expect(try search.favorites().map(\.productId) == ["A2"])
        let deleted = try editor.apply(.delete, to: ["A2", "A4", "A4"])
        #expect(deleted.changed == ["A2", "A4"] && deleted.refused.map(\.productId) == ["A4"])
        #expect(try search.allPages(prefix: "") == ["A1", "A3"])
        #expect(try search.favorites().isEmpty, "a deleted product's star goes with it")
        #expect(try editor.handEditsSinceImport() == 2, "the two deletes; stars are not edits of the products")
    }

    @Test func aBatchCannotSetTheProductId() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv)
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        #expect(throws: EditError.self) { try editor.apply(.set([.productId: "B1"]), to: ["A1"]) }
        #expect(try ProductSearch(databasePath: fixture.databasePath).product(id: "A1") != nil)
    }
}
