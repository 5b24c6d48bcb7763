import Foundation
import Testing
@testable import ProductCatalog

/// An export writes what a search finds, and its CSV imports back into the same products.
@Suite struct ProductExportTests {
    /// Quotes, commas, line breaks, accents, a third decimal, a quantity, empty values and an extra column.
    static let csv = #"""
        productId,title,listPrice,salesPrice,color,size,productType,taxRate,imageURL,groupId,currency,quantity,brand,description,material
        A1,"Linen Shirt, ""Navy""",40.00,29.99,Navy,M,Shirts,19,https://example.com/a1.jpg,G1,EUR,3,Acme,"Two lines
        of text",linen
        A2,Crème Brûlée Bowl,12.345,,,,Home,,,,KWD,0,,,
        B1,Wool Shirt,55.00,,navy,L,Shirts,,,G1,,,Nord,,wool
        C1,,,,,,,,,,,,,,

        """#

    /// Every product of `format`'s export of `query`, written 2 at a time.
    static func exported(_ search: ProductSearch, query: String, format: ExportFormat, sort: SearchSort = .relevance) throws -> [UInt8] {
        var export = ProductExport(format: format)
        var bytes: [UInt8] = []
        var cursor: KeysetCursor?
        repeat {
            let page = try search.page(query: query, sort: sort, after: cursor, limit: 2)
            bytes += export.encode(page.products)
            cursor = page.nextCursor
        } while cursor != nil
        return bytes + export.finish()
    }

    @Test func aCSVExportImportsBackIntoTheSameProducts() throws {
        let original = try CatalogFixture()
        try original.importCSV(Self.csv)
        let bytes = try Self.exported(try ProductSearch(databasePath: original.databasePath), query: "", format: .csv)

        let copy = try CatalogFixture()
        let summary = try copy.importCSV(String(decoding: bytes, as: UTF8.self))
        #expect(summary.rowsRejected == 0)
        #expect(try copy.allProducts() == original.allProducts())
        #expect(try copy.allProducts().count == 4)
        // The header is the product JSON's keys: the known fields, then the extra column.
        let header = String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        #expect(header == ProductField.allCases.map(\.rawValue).joined(separator: ",") + ",material")
    }

    @Test func aJSONExportHoldsTheSearchsProductsInItsOrder() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv)
        let search = try ProductSearch(databasePath: fixture.databasePath)
        let bytes = try Self.exported(search, query: "shirt", format: .json, sort: .price)
        let decoded = try JSONDecoder().decode(SearchPage.self, from: Data(bytes))
        #expect(decoded.products.map(\.productId) == ["A1", "B1"])
        #expect(decoded.products == (try search.page(query: "shirt", sort: .price).products))
    }

    @Test(arguments: ExportFormat.allCases)
    func anExportOfNothingIsStillAFileOfItsFormat(format: ExportFormat) throws {
        var export = ProductExport(format: format)
        let bytes = export.encode([]) + export.finish()
        switch format {
        case .csv: #expect(String(decoding: bytes, as: UTF8.self) == ProductField.allCases.map(\.rawValue).joined(separator: ",") + "\n")
        case .json: #expect(try JSONDecoder().decode(SearchPage.self, from: Data(bytes)).products.isEmpty)
        }
    }
}
