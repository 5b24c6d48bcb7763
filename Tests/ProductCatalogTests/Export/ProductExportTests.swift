import Foundation
import Testing
@testable import ProductCatalog

/// An export writes what a search finds, and its CSV imports back into the same products.
@Suite struct ProductExportTests {
    /// Quotes, commas, line breaks, accents, a third decimal, a quantity, options, empty values and an extra column.
    static let csv = #"""
        productId,title,listPrice,salesPrice,color,size,productType,taxRate,imageURL,groupId,currency,quantity,brand,description,options,material
        A1,"Linen Shirt, ""Navy""",40.00,29.99,Navy,M,Shirts,19,https://example.com/a1.jpg,G1,EUR,3,Acme,"Two lines
        of text",Size: M; Color: Navy,linen
        A2,Crème Brûlée Bowl,12.345,,,,Home,,,,KWD,0,,,,
        B1,Wool Shirt,55.00,,navy,L,Shirts,,,G1,,,Nord,,Size: L,wool
        C1,,,,,,,,,,,,,,,

        """#

    /// Every product of `format`'s export of `query`, written 2 at a time.
    static func exported(_ search: ProductSearch, query: String, format: ExportFormat, sort: SearchSort = .relevance) throws -> [UInt8] {
        var export = ProductExport(format: format)
        var bytes: [UInt8] = []
        var cursor: KeysetCursor?
        repeat {
            let page = try search.page(query: query, sort: sort, listing: .variants, after: cursor, limit: 2)
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

    /// A catalog whose feed kept an `ID` and an `sku` column as extras (its productId mapped by
    /// hand) exports them beside `productId`, and the export imports back into the same products.
    @Test func extraColumnsNamedLikeAFieldImportBack() throws {
        let original = try CatalogFixture()
        var options = original.options
        options.reading.columns = [.productId: "Variant SKU", .listPrice: "Regular price"]
        _ = try CatalogImporter(options: options).run(source: MemoryByteSource(
            "ID,Variant SKU,Name,Regular price,sku,price\n7,TEE-S,Tee,10.00,legacy-1,9\n8,TEE-M,Tee,11.00,legacy-2,10\n"))
        let bytes = try Self.exported(try ProductSearch(databasePath: original.databasePath), query: "", format: .csv)
        let copy = try CatalogFixture()
        let summary = try copy.importCSV(String(decoding: bytes, as: UTF8.self))
        #expect(summary.rowsRejected == 0)
        // The fields the feed had, and its extra columns under their own names. (The fields it
        // lacked come back empty rather than absent: an export writes every field.)
        func kept(_ fixture: CatalogFixture) throws -> [String] {
            try fixture.allProducts().map { "\($0.productId) \($0.title ?? "-") \($0.listPrice?.description ?? "-") \($0.extras)" }
        }
        #expect(try kept(copy) == kept(original))
        #expect(try copy.allProducts().first?.extras.map(\.name) == ["ID", "sku", "price"])
    }

    /// What a spreadsheet would run as a formula, in titles, productIds and extra columns, with
    /// apostrophes before them too: a safe export escapes each so that no field starts a formula,
    /// a plain one writes them as they are, and both import back into the same products.
    @Test(arguments: [false, true]) func aSpreadsheetSafeExportRunsNothingAndImportsBack(safe: Bool) throws {
        let original = try CatalogFixture()
        try original.importCSV(#"""
            productId,title,listPrice,note
            A1,"=HYPERLINK(""http://evil.example"",""Click"")",1.00,+cmd|' /C calc'!A0
            -A2,@SUM(1+1),2.00,-5 cm
            A3,"''=already quoted",3.00,'plain apostrophe
            A4,Plain title,4.00,'+one

            """#)
        let search = try ProductSearch(databasePath: original.databasePath)
        var export = ProductExport(format: .csv, spreadsheetSafe: safe)
        let bytes = export.encode(try search.page(query: "", limit: 10).products) + export.finish()
        let fields = try readRecords(from: MemoryByteSource(bytes)).dropFirst().flatMap(\.fields)
        let formulas = fields.filter { field in field.first.map { "=+-@".contains($0) } ?? false }
        #expect(safe ? formulas.isEmpty : formulas.count == 6, "\(formulas)")
        if safe { #expect(fields.contains("'=HYPERLINK(\"http://evil.example\",\"Click\")") && fields.contains("''=already quoted")) }

        let copy = try CatalogFixture()
        #expect(try copy.importCSV(String(decoding: bytes, as: UTF8.self)).rowsRejected == 0)
        func kept(_ fixture: CatalogFixture) throws -> [String] {
            try fixture.allProducts().map { "\($0.productId) \($0.title ?? "-") \($0.listPrice?.description ?? "-") \($0.extras)" }
        }
        #expect(try kept(copy) == kept(original))
        // As read from the file: the escape undone, a lone apostrophe before plain text kept.
        let titles = try original.allProducts().map { "\($0.productId) \($0.title ?? "") \($0.extras.first?.value ?? "")" }
        #expect(titles == ["-A2 @SUM(1+1) -5 cm", "A1 =HYPERLINK(\"http://evil.example\",\"Click\") +cmd|' /C calc'!A0",
                           "A3 '=already quoted 'plain apostrophe", "A4 Plain title +one"])
    }

    @Test func aJSONExportHoldsTheSearchsProductsInItsOrder() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv)
        let search = try ProductSearch(databasePath: fixture.databasePath)
        let bytes = try Self.exported(search, query: "shirt", format: .json, sort: .price)
        let decoded = try JSONDecoder().decode(SearchPage.self, from: Data(bytes))
        #expect(decoded.products.map(\.productId) == ["A1", "B1"])
        #expect(decoded.products == (try search.page(query: "shirt", sort: .price, listing: .variants).products))
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
