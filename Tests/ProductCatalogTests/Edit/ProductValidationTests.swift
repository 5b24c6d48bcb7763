import Testing
@testable import ProductCatalog
import TestSupport

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

    /// A valid product, drafted as a form shows it and checked again, is the same product: every
    /// field, in every combination of set and empty, goes through the one loop of each.
    @Test func aProductDraftedAndCheckedAgainIsTheSameProduct() throws {
        var random = SeededRandomGenerator(seed: 47)
        for index in 0..<300 {
            var product = Product(productId: "P-\(index)", title: "Title \(index)")
            for field in ProductField.allCases where field != .productId && field != .title && random.next() % 2 == 0 {
                switch field {
                case .listPrice: product.listPrice = Price(thousandths: Int64(random.next() % 100_000) * 10)
                case .salesPrice: product.salesPrice = product.listPrice.map { Price(thousandths: $0.thousandths / 20 * 10) }
                case .taxRate: product.taxRate = String(random.next() % 101)
                case .imageURL: product.imageURL = "https://example.com/\(index).png"
                case .currency: product.currency = ["EUR", "USD", "JPY"][Int(random.next() % 3)]
                case .quantity: product.quantity = Int64(random.next() % 50)
                case .options: product.options = "Color: Navy; Size: M"
                default: product[field] = .text("\(field.rawValue) \(random.next() % 1000)")
                }
            }
            if product.currency == "JPY" {
                product.listPrice = product.listPrice.map { Price(thousandths: $0.thousandths / 1000 * 1000) }
                product.salesPrice = product.salesPrice.map { Price(thousandths: $0.thousandths / 1000 * 1000) }
            }
            #expect(try ProductValidation.product(from: ProductDraft(product)) == product, "\(product)")
        }
    }
}
