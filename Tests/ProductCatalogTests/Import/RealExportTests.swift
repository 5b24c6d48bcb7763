import Foundation
import Testing
@testable import ProductCatalog

/// Real product exports written by others (`../shared/testdata`, see its README), imported as a
/// user would, with no flags, and compared row by row with what each platform means.
@Suite(.enabled(if: SharedTestData.exists("magento2-sample-data")))
struct RealExportTests {
    func importFile(_ relativePath: String, columns: [ProductField: String] = [:]) throws -> (ImportSummary, CatalogFixture) {
        var fixture = try CatalogFixture()
        fixture.options.reading.columns = columns
        fixture.options.sortMemory = 1 << 20
        let source = try FileByteSource(path: SharedTestData.url(relativePath).path)
        let summary = try CatalogImporter(options: fixture.options).run(source: source)
        #expect(summary.rowsRead == summary.rowsInserted + summary.rowsRejected + summary.duplicates + summary.rowsFolded)
        return (summary, fixture)
    }

    /// The file's records as dictionaries from header name to value, read with the project's own reader.
    func records(_ relativePath: String) throws -> [[String: String]] {
        let reader = CSVReader(source: try FileByteSource(path: SharedTestData.url(relativePath).path))
        var record = CSVRecord()
        _ = try reader.readRecord(into: &record)
        let header = record.strings.map(HeaderName.clean)
        var rows: [[String: String]] = []
        while try reader.readRecord(into: &record) {
            let fields = record.strings
            rows.append(Dictionary(zip(header, fields + Array(repeating: "", count: max(0, header.count - fields.count))),
                                   uniquingKeysWith: { first, _ in first }))
        }
        return rows
    }

    func byId(_ fixture: CatalogFixture) throws -> [String: Product] {
        Dictionary(try fixture.allProducts(pageSize: 500).map { ($0.productId, $0) }, uniquingKeysWith: { first, _ in first })
    }

    @Test(arguments: ["shopify-product-csvs/apparel.csv", "shopify-product-csvs/home-and-garden.csv",
                      "shopify-product-csvs/jewelery.csv", "shopify-export-2024-mercyshair/hair.csv"])
    func shopifyExportsImportEachVariantWithItsProductsFieldsFilledDown(path: String) throws {
        let (summary, fixture) = try importFile(path)
        #expect(summary.format == .shopify)
        let rows = try records(path)
        func isVariant(_ row: [String: String]) -> Bool {
            !(row["Variant Price"] ?? "").isEmpty || !(row["Variant SKU"] ?? "").isEmpty || !(row["Option1 Value"] ?? "").isEmpty
        }
        let variants = rows.filter(isVariant)
        #expect(summary.rowsRejected == 0 && summary.duplicates == 0)
        #expect(summary.rowsInserted == variants.count)
        #expect(summary.rowsFolded == rows.count - variants.count)
        let products = try byId(fixture)
        var titles: [String: String] = [:]
        var optionNames: [String: [String]] = [:]
        for row in rows where !(row["Title"] ?? "").isEmpty { titles[row["Handle"]!] = titles[row["Handle"]!] ?? row["Title"] }
        for row in rows where optionNames[row["Handle"]!] == nil { optionNames[row["Handle"]!] = (1...3).map { row["Option\($0) Name"] ?? "" } }
        for row in variants {
            let handle = row["Handle"]!
            let options = ["Option1 Value", "Option2 Value", "Option3 Value"].compactMap { row[$0] }.filter { !$0.isEmpty && $0 != "Default Title" }
            let key = ([handle] + options).joined(separator: "/")
            let product = try #require(products[key], "\(key)")
            #expect(product.groupId == handle)
            #expect(product.title == titles[handle], "the title is filled down from the product's first row")
            // Each option under the name the product's first row gives it (Length, Color, Title…).
            let named = zip(optionNames[handle]!, (1...3).map { row["Option\($0) Value"] ?? "" })
                .map { (ProductRules.trimmed($0.0), ProductRules.trimmed($0.1)) }
                .filter { !$0.0.isEmpty && !$0.1.isEmpty && $0.1 != "Default Title" }
            // Names and values as a person reads them: spaces around them ("Length ") are dropped.
            #expect(ProductOptions(text: product.options).options.map { "\($0.name)=\($0.value)" } == named.map { "\($0.0)=\($0.1)" }, "\(key)")
            let price = Price(row["Variant Price"]!), was = Price(row["Variant Compare At Price"] ?? "")
            if let was, let price, was > price {
                #expect(product.listPrice == was && product.salesPrice == price)
            } else {
                #expect(product.listPrice == price && product.salesPrice == nil)
            }
        }
    }

    @Test func wooCommerceVariationsAreProductsLinkedToTheirVariableParent() throws {
        let path = "woocommerce-export-variations-tgmodz/wc-product-export-25-2-2026-1772060174291.csv"
        let (summary, fixture) = try importFile(path)
        #expect(summary.format == .woocommerce)
        let rows = try records(path)
        let parents = rows.filter { $0["Type"]!.contains("variable") }
        // The testdata README: 61 variable parents, 173 variations, 8 simple and 1 external; ragged rows.
        #expect(parents.count == 61)
        #expect(summary.rowsRejected == 0 && summary.duplicates == 0)
        #expect(summary.rowsFolded == 61 && summary.rowsInserted == rows.count - 61)
        #expect(summary.rowsPadded > 0)
        let names = Dictionary(parents.map { ("id:" + $0["ID"]!, $0["Name"]!) }, uniquingKeysWith: { first, _ in first })
        let products = try byId(fixture)
        for row in rows where row["Type"]!.contains("variation") {
            let product = try #require(products["id:" + row["ID"]!])
            #expect(product.groupId == row["Parent"], "SKUs are empty, so the parent's key is its id")
            // A variation's options are its attributes with one value, under their names.
            let attributes = (1...6).compactMap { number -> String? in
                let name = row["Attribute \(number) name"] ?? "", value = row["Attribute \(number) value(s)"] ?? ""
                return name.isEmpty || value.isEmpty || value.contains(",") ? nil : "\(name)=\(value)"
            }
            #expect(ProductOptions(text: product.options).options.map { "\($0.name)=\($0.value)" } == attributes, "\(row["ID"]!)")
            #expect(product.title == (row["Name"]!.isEmpty ? names[row["Parent"]!] : row["Name"]))
            #expect(product.listPrice == Price(row["Regular price"]!))
        }
    }

    @Test func aWooCommerceProductWithoutSKUNeverCollidesWithAnotherOnesSKU() throws {
        let path = "woocommerce-sample-gopoma/wc-product-export-28-7-2024-1722216242241.csv"
        let (summary, fixture) = try importFile(path)
        // The testdata README: 124 rows, with a byte-order mark before the header.
        #expect(summary.rowsRead == 124 && summary.duplicates == 0 && summary.rowsRejected == 0)
        let products = try byId(fixture)
        #expect(products["83"]?.title == "T-Shirt with Logo")
        #expect(products["id:83"]?.title == "Beanie")
    }

    @Test func repeatedWooCommerceSamplesCollapseToTheirDistinctProducts() throws {
        let (summary, _) = try importFile("woocommerce-sample-gopoma/sample_products_x16_enhanced.csv")
        // The testdata README: 400 rows, 25 distinct IDs, repeated 16 times; 2 of them are variable parents.
        #expect(summary.rowsRead == 400)
        #expect(summary.rowsInserted + summary.duplicates + summary.rowsFolded == 400)
        #expect(summary.rowsInserted == 23 && summary.rowsFolded == 32)
    }

    @Test func portugueseWooCommerceHeadersAreRecognised() throws {
        let path = "woocommerce-export-pt_BR-HasteDesign/sample_products.csv"
        let (summary, fixture) = try importFile(path)
        #expect(summary.format == .woocommerce && summary.rowsRejected == 0)
        let rows = try records(path)
        let products = try byId(fixture)
        for row in rows where !row["Tipo"]!.contains("variable") {
            let key = row["REF"]!.isEmpty ? "id:" + row["ID"]! : row["REF"]!
            let product = try #require(products[key])
            #expect(product.title == row["Nome"])
            #expect(product.listPrice == Price(row["Preço"]!))
        }
        #expect(try fixture.allProducts().first?.extras.contains { $0.name == "Visibilidade no catálogo" } == true)
    }

    @Test func wixVariantsArePricedFromTheirProductAndSurcharge() throws {
        let path = "wix-catalog-parrese/catalog_products.csv"
        let (summary, fixture) = try importFile(path)
        #expect(summary.format == .wix && summary.rowsRejected == 0 && summary.duplicates == 0)
        // The testdata README: 322 products, 2,407 variants, 245 products without variant rows.
        #expect(summary.rowsInserted == 2_407 + 245 && summary.rowsFolded == 322 - 245)
        let rows = try records(path)
        var product: [String: String] = [:]
        var checked = 0
        let products = try byId(fixture)
        for row in rows {
            if row["fieldType"] == "Product" { product = row; continue }
            guard let base = Price(product["price"]!)?.thousandths, let surcharge = Double(row["surcharge"]!) else { continue }
            let ids = products.values.filter { $0.groupId == row["handleId"] }
            #expect(ids.allSatisfy { $0.title == product["name"] })
            let expected = base + Int64((surcharge * 1000).rounded())
            #expect(ids.contains { $0.listPrice?.thousandths == expected }, "\(row["handleId"]!)")
            checked += 1
            if checked > 200 { break }
        }
    }

    @Test func metaAndGoogleFeedsKeepTheirCurrencies() throws {
        let (meta, metaFixture) = try importFile("meta-catalog-couleurvarie-ja/facebook_feed.csv")
        #expect(meta.rowsInserted == 271 && meta.rowsRejected == 0)
        let rows = try records("meta-catalog-couleurvarie-ja/facebook_feed.csv")
        let products = try byId(metaFixture)
        for row in rows {
            let product = try #require(products[row["id"]!])
            let amount = try #require(Int64(row["price"]!.split(separator: " ")[0]))
            #expect(product.listPrice?.thousandths == amount * 1000 && product.currency == "JPY")
        }
        let (google, googleFixture) = try importFile("gmc-emirates-gifts-tsv/google_merchant_feed_en.tsv")
        #expect(google.format == .google && google.rowsInserted == 30 && google.rowsRejected == 0)
        #expect(try googleFixture.allProducts().allSatisfy { $0.listPrice != nil && ($0.salesPrice ?? .init(cents: 0)) <= $0.listPrice! })
    }

    /// A word inside a run of Japanese is found: every title of the Meta feed that holds `ブーツ`
    /// (boots), `スニーカー` (sneakers), `ショルダーバッグ` (shoulder bag) or `財布` (wallet), and only titles with each of the query's character pairs.
    @Test func wordsInsideJapaneseTitlesAreFound() throws {
        let (_, fixture) = try importFile("meta-catalog-couleurvarie-ja/facebook_feed.csv")
        let products = try fixture.allProducts(pageSize: 300)
        let search = try ProductSearch(databasePath: fixture.databasePath)
        for word in ["ブーツ", "スニーカー", "ショルダーバッグ", "財布"] {
            let holding = Set(products.filter { ($0.title ?? "").contains(word) }.map(\.productId))
            #expect(holding.count >= 2, "\(word)")
            let found = try search.allPages(query: word, pageSize: 50)
            #expect(holding.isSubset(of: Set(found)), "\(word): \(holding.subtracting(found))")
            let pairs = zip(Array(word), Array(word).dropFirst()).map { String([$0, $1]) }
            let byId = Dictionary(uniqueKeysWithValues: products.map { ($0.productId, $0) })
            #expect(found.allSatisfy { id in pairs.allSatisfy { (byId[id]?.title ?? "").contains($0) } }, "\(word)")
        }
    }

    @Test func etsyListingsAreKeyedByTitleWithTheirCurrency() throws {
        let (summary, fixture) = try importFile("etsy-export-marvilusart/EtsyListingsDownload.csv")
        #expect(summary.format == .etsy && summary.rowsInserted == 92 && summary.rowsRejected == 0)
        #expect(try fixture.allProducts(pageSize: 100).allSatisfy { $0.currency == "USD" && $0.listPrice != nil && $0.title == $0.productId })
    }

    @Test func magentosConfigurableProductsAreTheFamiliesOfTheirSimpleOnes() throws {
        let path = "magento2-sample-data/app/code/Magento/ConfigurableSampleData/fixtures/products.csv"
        let (summary, fixture) = try importFile(path)
        let rows = try records(path)
        let configurable = rows.filter { $0["product_type"] == "configurable" && !($0["configurable_variations"] ?? "").isEmpty }
        // The testdata README: 1,994 products keyed by sku, with line breaks inside quotes.
        #expect(summary.format == .magento && summary.rowsRead == 1_994 && summary.rowsRejected == 0)
        #expect(summary.rowsFolded == configurable.count && summary.rowsInserted == 1_994 - configurable.count)
        let products = try byId(fixture)
        for parent in configurable.prefix(20) {
            for variation in parent["configurable_variations"]!.split(separator: "|") {
                let sku = String(variation.split(separator: ",")[0].dropFirst(4))
                let child = try #require(products[sku])
                #expect(child.groupId == parent["sku"])
                #expect(child.color != nil && child.size != nil)
                // The attributes the configurable product varies, named as a person reads them.
                let varied = variation.split(separator: ",").dropFirst().map { pair -> String in
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    return parts[0].prefix(1).uppercased() + parts[0].dropFirst() + "=" + parts[1]
                }
                #expect(ProductOptions(text: child.options).options.map { "\($0.name)=\($0.value)" } == varied, "\(sku)")
            }
        }
        #expect(products.values.contains { ($0.description ?? "").contains("\n") && ($0.description ?? "").contains("<") })
    }

    /// A search of the real Shopify export lists each product once, with its variants reachable
    /// from it (the issue's "16 rows of one product" on `hair`).
    @Test func aSearchOfARealShopifyExportListsEachProductOnce() throws {
        let (_, fixture) = try importFile("shopify-export-2024-mercyshair/hair.csv")
        let search = try ProductSearch(databasePath: fixture.databasePath)
        let all = try fixture.allProducts(pageSize: 500)
        for query in ["hair", "human hair", "wig", "curly", "brazilian"] {
            let page = try search.page(query: query, limit: 20)
            let groups = page.products.map { $0.groupId ?? $0.productId }
            #expect(Set(groups).count == groups.count, "\(query): \(groups)")
            let summaries = try search.familySummaries(of: page.products)
            for product in page.products {
                let family = try #require(product.groupId.flatMap { summaries[$0] })
                let variants = try search.variants(groupId: family.groupId)
                #expect(variants.count == family.variants && variants.count == all.filter { $0.groupId == product.groupId }.count)
                #expect(variants.contains(product))
            }
        }
        let braids = try search.page(query: "Human Hair Braid-In Bundles", limit: 20).products
        #expect(braids.filter { $0.title == "Human Hair Braid-In Bundles" }.count == 1)
    }
}
