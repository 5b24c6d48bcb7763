import Foundation
import Testing
@testable import ProductCatalog

/// Real product exports written by others (`../shared/testdata`, see its README), imported as a
/// user would: with at most one `--column` naming the key.
@Suite(.enabled(if: SharedTestData.exists("magento2-sample-data")))
struct RealExportTests {
    func importFile(_ relativePath: String, columns: [ProductField: String] = [:]) throws -> (ImportSummary, CatalogFixture) {
        var fixture = try CatalogFixture()
        fixture.options.columns = columns
        fixture.options.sortMemory = 1 << 20
        let source = try FileByteSource(path: SharedTestData.url(relativePath).path)
        let summary = try CatalogImporter(options: fixture.options).run(source: source)
        #expect(summary.rowsRead == summary.rowsInserted + summary.rowsRejected + summary.duplicates)
        return (summary, fixture)
    }

    /// How many data records the file holds, and how many distinct values one column has.
    func census(_ relativePath: String, column: String) throws -> (records: Int, distinct: Int, empty: Int) {
        let reader = CSVReader(source: try FileByteSource(path: SharedTestData.url(relativePath).path))
        var record = CSVRecord()
        _ = try reader.readRecord(into: &record)
        let index = try #require(record.strings.firstIndex(of: column))
        var records = 0
        var values = Set<String>()
        var empty = 0
        while try reader.readRecord(into: &record) {
            records += 1
            let value = record[index]
            if value.isEmpty { empty += 1 } else { values.insert(value.lowercased()) }
        }
        return (records, values.count, empty)
    }

    @Test func magentosConfigurableProductsImportWithTheirHTMLAndLineBreaks() throws {
        let path = "magento2-sample-data/app/code/Magento/ConfigurableSampleData/fixtures/products.csv"
        let (summary, fixture) = try importFile(path)
        // The testdata README: 1,994 products keyed by sku, with line breaks inside quotes.
        #expect(summary.rowsRead == 1_994)
        #expect(summary.rowsInserted == 1_994 && summary.rowsRejected == 0)
        let products = try fixture.allProducts(pageSize: 500)
        #expect(products.count == 1_994)
        let description = products.compactMap(\.description)
        #expect(description.contains { $0.contains("\n") && $0.contains("<") })
        #expect(products.allSatisfy { $0.listPrice != nil })
    }

    @Test(arguments: ["apparel", "home-and-garden", "jewelery"])
    func shopifyExportsImportByHandleWithVariantRowsCollapsed(file: String) throws {
        let path = "shopify-product-csvs/\(file).csv"
        #expect(throws: ImportError.self) { try importFile(path) }
        let (summary, _) = try importFile(path, columns: [.productId: "Handle"])
        let census = try census(path, column: "Handle")
        #expect(summary.rowsRead == census.records)
        #expect(summary.rowsRejected == census.empty)
        #expect(summary.rowsInserted == census.distinct)
    }

    @Test func woocommercesIDAndSKUAreAmbiguousUntilOneIsChosen() throws {
        let path = "woocommerce-sample-gopoma/wc-product-export-28-7-2024-1722216242241.csv"
        #expect {
            try importFile(path)
        } throws: { error in
            String(describing: error).contains("--column productId=\"SKU\"")
        }
        let (byID, _) = try importFile(path, columns: [.productId: "ID"])
        // The testdata README: 124 rows, with a byte-order mark before the header.
        #expect(byID.rowsRead == 124 && byID.rowsInserted == 124)
        let (bySKU, fixture) = try importFile(path, columns: [.productId: "SKU"])
        let census = try census(path, column: "SKU")
        #expect(bySKU.rowsRejected == census.empty)
        #expect(try fixture.rejects().dropFirst().allSatisfy { $0[1] == "productId is empty" })
        let product = try #require(try fixture.allProducts().first)
        #expect(product.extras.contains { $0.name == "ID" })
    }

    @Test func repeatedWooCommerceSamplesCollapseToTheirDistinctProducts() throws {
        let (summary, _) = try importFile("woocommerce-sample-gopoma/sample_products_x16_enhanced.csv", columns: [.productId: "SKU"])
        // The testdata README: 400 rows, 25 distinct IDs.
        #expect(summary.rowsRead == 400)
        #expect(summary.rowsInserted == 25)
        #expect(summary.duplicates == 375)
    }

    @Test func portugueseHeadersBecomeExtraColumnsUnderTheirOwnNames() throws {
        let path = "woocommerce-export-pt_BR-HasteDesign/sample_products.csv"
        let (summary, fixture) = try importFile(path)
        #expect(summary.rowsRejected == 0)
        let product = try #require(try fixture.allProducts().first)
        #expect(product.extras.contains { $0.name == "Visibilidade no catálogo" })
        #expect(product.extras.contains { $0.name == "Descrição" })
    }
}
