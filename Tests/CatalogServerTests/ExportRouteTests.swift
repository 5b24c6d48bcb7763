import Foundation
import Hummingbird
import HummingbirdTesting
import ProductCatalog
import Testing
@testable import CatalogServer

/// `GET /api/export`: the whole result of a search, streamed as CSV or JSON.
@Suite(.serialized) struct ExportRouteTests {
    @Test(arguments: TestEngine.available) func theCSVExportOfTheCatalogImportsBackIntoTheSameCatalog(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        // More products than one batch, so the body is written in several.
        let count = ExportController<BasicRequestContext>.batchSize * 2 + 17
        try await fixture.importCSV(productsCSV(prefix: "EX", count: count))
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/api/export", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/csv; charset=utf-8")
            #expect(response.headers[.contentDisposition] == "attachment; filename=\"products.csv\"")
            let copy = try ServerFixture(engine: engine)
            defer { copy.remove() }
            let summary = try await copy.importCSV(response.text)
            #expect(summary.rowsInserted == count && summary.rowsRejected == 0)
            let imported = try await copy.allProducts()
            #expect(imported.count == count)
            // The original's missing columns come back as empty values, which an import keeps as "": the same to every reader.
            let original = try await fixture.allProducts()
            #expect(imported.map(Self.blanksAsNull) == original.map(Self.blanksAsNull))
            #expect(imported.map(\.listPrice) == original.map(\.listPrice) && original.allSatisfy { $0.listPrice != nil })
        }
    }

    /// The page's download escapes what a spreadsheet would run as a formula, and imports back the same.
    @Test(arguments: TestEngine.available) func aSpreadsheetSafeExportEscapesFormulasAndImportsBack(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV("productId,title\nA1,\"=HYPERLINK(\"\"http://evil.example\"\")\"\nA2,@SUM(1+1)\nA3,Plain\n")
        try await fixture.application().test(.router) { client in
            let safe = try await client.execute(uri: "/api/export?spreadsheet=safe", method: .get)
            #expect(safe.status == .ok)
            let lines = safe.text.split(whereSeparator: \.isNewline).dropFirst()
            #expect(lines.map { $0.prefix(8) } == ["A1,\"'=HY", "A2,'@SUM", "A3,Plain"], "\(safe.text)")
            let copy = try ServerFixture(engine: engine)
            defer { copy.remove() }
            #expect(try await copy.importCSV(safe.text).rowsRejected == 0)
            let (copied, original) = (try await copy.allProducts(), try await fixture.allProducts())
            #expect(copied.map(\.title) == original.map(\.title))
            for query in ["spreadsheet=yes", "spreadsheet=safe&format=json"] {
                #expect(try await client.execute(uri: "/api/export?" + query, method: .get).status == .badRequest, "\(query)")
            }
        }
    }

    /// `product` as JSON, with empty texts as null.
    static func blanksAsNull(_ product: Product) -> JSONValue {
        guard case .object(let members) = product.jsonValue else { return product.jsonValue }
        return .object(members.map { $0.value == .string("") ? .init($0.key, .null) : $0 })
    }

    @Test(arguments: TestEngine.available) func theJSONExportHoldsEveryMatchInTheListsOrder(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(SearchFilterRouteTests.csv)
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/api/export?format=json&q=linen&color=navy&sort=-price", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            let page = try JSONDecoder().decode(SearchPage.self, from: Data(response.text.utf8))
            let listed = try await client.execute(uri: "/api/products?q=linen&color=navy&sort=-price", method: .get)
            #expect(page.products.map(\.productId) == (try listed.productIds()))
            #expect(page.products.map(\.productId) == ["P1", "P5"])
        }
    }

    @Test(arguments: TestEngine.available) func anUnknownFormatIsA400NamingIt(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(SearchFilterRouteTests.csv)
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/api/export?format=xlsx", method: .get)
            #expect(response.status == .badRequest)
            #expect(Array(try response.errorFields().keys) == ["format"])
        }
    }
}
