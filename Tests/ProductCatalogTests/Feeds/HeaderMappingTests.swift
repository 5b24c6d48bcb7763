import Testing
@testable import ProductCatalog

@Suite struct HeaderMappingTests {
    @Test func matchesNamesIgnoringCaseSpacesUnderscoresAndHyphens() throws {
        let mapping = try HeaderMapping(header: ["Product_ID", "Product Name", "regular-price", "SALE PRICE", "Colour", "size", "Category", "Tax", "image_url"])
        #expect(mapping.fieldColumns == [
            .productId: 0, .title: 1, .listPrice: 2, .salesPrice: 3, .color: 4, .size: 5,
            .productType: 6, .taxRate: 7, .imageURL: 8,
        ])
        #expect(mapping.extras.isEmpty)
    }

    @Test func keepsUnknownColumnsAsExtrasUnderTheirHeader() throws {
        let mapping = try HeaderMapping(header: ["sku", "Material", "weight (kg)", "", "material"])
        #expect(mapping.extras.map(\.name) == ["Material", "weight (kg)", "column4", "material_2"])
        #expect(mapping.extras.map(\.index) == [1, 2, 3, 4])
    }

    @Test func anExtraNeverTakesTheNameOfACatalogColumn() throws {
        let mapping = try HeaderMapping(header: ["sku", "listPriceMilli"])
        #expect(mapping.extras.map(\.name) == ["listPriceMilli_2"])
    }

    @Test func requiresAProductIdAndListsWhatItFound() {
        #expect(throws: HeaderMappingError.missingProductId(found: ["Handle", "Title"])) {
            try HeaderMapping(header: ["Handle", "Title"])
        }
        let message = HeaderMappingError.missingProductId(found: ["Handle"]).description
        #expect(message.contains("\"Handle\"") && message.contains("sku") && !message.contains("--"))
    }

    @Test func stopsWhenTwoHeadersMatchOneFieldAndSaysWhichColumnToGive() {
        #expect(throws: HeaderMappingError.ambiguous(field: .productId, headers: ["ID", "SKU"])) {
            try HeaderMapping(header: ["ID", "Name", "SKU"])
        }
        let message = HeaderMappingError.ambiguous(field: .productId, headers: ["ID", "SKU"]).description
        #expect(message.contains("\"ID\", \"SKU\"") && message.contains("productId") && !message.contains("--"))
    }

    @Test func aColumnNamedAsTheFieldWinsOverItsAliases() throws {
        let mapping = try HeaderMapping(header: ["id", "title", "productId", "SKU", "price", "list_price"])
        #expect(mapping.fieldColumns[.productId] == 2 && mapping.fieldColumns[.listPrice] == 5)
        #expect(mapping.extras.map(\.name) == ["id", "SKU", "price"])
    }

    @Test func anOverrideChoosesTheColumnAndTheOtherBecomesAnExtra() throws {
        let mapping = try HeaderMapping(header: ["ID", "Name", "SKU"], overrides: [.productId: "SKU"])
        #expect(mapping.fieldColumns[.productId] == 2)
        #expect(mapping.fieldColumns[.title] == 1)
        #expect(mapping.extras.map(\.name) == ["ID"])
    }

    @Test func anOverrideNamingAMissingHeaderIsAnError() {
        #expect(throws: HeaderMappingError.overrideNotFound(field: .productId, header: "Variant SKU", found: ["Handle"])) {
            try HeaderMapping(header: ["Handle"], overrides: [.productId: "Variant SKU"])
        }
    }

    @Test func fieldsAreFoundByTheirNameOrAlias() {
        #expect(ProductField(named: "productId") == .productId)
        #expect(ProductField(named: "list_price") == .listPrice)
        #expect(ProductField(named: "SKU") == .productId)
        #expect(ProductField(named: "nonsense") == nil)
    }
}
