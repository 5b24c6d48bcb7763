import Testing
@testable import ProductCatalog

/// A product entered by hand is checked field by field, and each problem is a fact (the rule, the
/// numbers involved) that the interfaces phrase, not a sentence of the library's.
@Suite struct ProductValidationTests {
    static func problems(_ values: [ProductField: String], extras: [String: String] = [:]) -> [String: FieldProblem] {
        var draft = ProductDraft(values: values)
        draft.extras = extras
        do {
            _ = try ProductValidation.product(from: draft)
            return [:]
        } catch {
            return error.problems
        }
    }

    @Test func eachFieldThatBreaksARuleSaysWhichRuleWithItsNumbers() throws {
        #expect(Self.problems([.productId: "A-1", .title: "Mug"]).isEmpty)
        #expect(Self.problems([.productId: " ", .title: ""]) == ["productId": .missing, "title": .missing])
        let long = String(repeating: "é", count: ProductRules.maxProductIdBytes)
        #expect(Self.problems([.productId: long, .title: "Mug"]) == ["productId": .tooLong(bytes: long.utf8.count, limit: ProductRules.maxProductIdBytes)])
        #expect(Self.problems([.productId: "A\t1", .title: "Mug"]) == ["productId": .controlCharacter])
        #expect(Self.problems([.productId: "A", .title: "Mug", .listPrice: "-1", .salesPrice: "abc"])
            == ["listPrice": .unreadablePrice(.negative), "salesPrice": .unreadablePrice(.notANumber)])
        #expect(Self.problems([.productId: "A", .title: "Mug", .listPrice: "10.00", .salesPrice: "12.50"])
            == ["salesPrice": .saleAboveList(sale: try #require(Price("12.50")), list: try #require(Price("10.00")))])
        #expect(Self.problems([.productId: "A", .title: "Mug", .listPrice: "10.005", .currency: "eur"]) == ["listPrice": .thirdDecimal(currency: "EUR")])
        #expect(Self.problems([.productId: "A", .title: "Mug", .listPrice: "10.005", .currency: "KWD"]).isEmpty, "KWD has three decimals")
        #expect(Self.problems([.productId: "A", .title: "Mug", .taxRate: "101", .imageURL: "ftp://x/y.jpg", .currency: "EURO", .quantity: "2.5"])
            == ["taxRate": .notAPercentage, "imageURL": .notAWebAddress, "currency": .notACurrencyCode, "quantity": .notAWholeNumber])
        #expect(Self.problems([.productId: "A", .title: "Mug\u{0}"]) == ["title": .nulCharacter])
        #expect(Self.problems([.productId: "A", .title: "Mug"], extras: ["material": "a\u{0}b"]) == ["material": .nulCharacter])
    }

    @Test func aColumnTheCatalogLacksIsAProblemNamingTheOnesItHas() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV("productId,title,material\nA-1,Mug,Clay\n")
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        var draft = ProductDraft(values: [.productId: "A-2", .title: "Bowl"])
        draft.extras = ["finish": "Glazed"]
        let product = try ProductValidation.product(from: draft)
        #expect(throws: EditError.self) { try editor.add(product) }
        do {
            try editor.add(product)
        } catch EditError.invalid(let invalid) {
            #expect(invalid.problems == ["finish": .unknownColumn(known: ["material"])])
        }
    }
}
