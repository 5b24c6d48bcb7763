import Testing
@testable import ProductCatalog

/// `Product[field]`, through which every engine reads and writes a product's known fields.
@Suite struct ProductFieldValueTests {
    static func value(for field: ProductField) -> FieldValue {
        field.isInteger ? .integer(Int64(1_000 + ProductField.allCases.firstIndex(of: field)!)) : .text("value of \(field.rawValue)")
    }

    @Test func eachFieldIsWrittenAndReadBackAloneWithoutTouchingTheOthers() {
        for field in ProductField.allCases {
            var product = Product(productId: "P-1")
            product[field] = Self.value(for: field)
            #expect(product[field] == Self.value(for: field), "\(field)")
            for other in ProductField.allCases where other != field && other != .productId {
                #expect(product[other] == nil, "setting \(field) changed \(other)")
            }
        }
    }

    @Test func aProductWrittenFieldByFieldEqualsTheOneItWasReadFrom() {
        let original = Product(productId: "P-2", title: "Linen shirt", listPrice: Price("30.00"), salesPrice: Price("24.50"),
                               color: "Navy", size: "M", productType: "Shirts", taxRate: "20", imageURL: "https://x/1.png",
                               groupId: "G-1", currency: "EUR", quantity: 7, brand: "Acme", description: "Soft")
        var copy = Product(productId: "")
        for field in ProductField.allCases { copy[field] = original[field] }
        #expect(copy == original)
        #expect(original[.listPrice] == .integer(30_000) && original[.quantity]?.text == "7")
    }

    @Test func nothingClearsAFieldAndANegativePriceIsStoredAsZero() {
        var product = Product(productId: "P-3", title: "Old", listPrice: Price("5"))
        product[.title] = nil
        product[.salesPrice] = .integer(-5)
        #expect(product.title == nil && product.salesPrice == Price(thousandths: 0) && product.listPrice == Price("5"))
    }
}
