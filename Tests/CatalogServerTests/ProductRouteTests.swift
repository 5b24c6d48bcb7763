import Foundation
import Hummingbird
import HummingbirdTesting
import ProductCatalog
import Testing
@testable import CatalogServer

@Suite(.serialized) struct ProductRouteTests {
    @Test(arguments: TestEngine.available) func oneProductIsFoundByItsIdInAnyCase(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV("productId,title,listPrice,salesPrice,Material\nAB-1,Mug,12.5,9.99,Acme\n")
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/api/products/ab-1", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            let product = try response.json()
            #expect(product["productId"] as? String == "AB-1")
            #expect(product["listPrice"] as? String == "12.50")
            #expect(product["salesPrice"] as? String == "9.99")
            #expect(product["Material"] as? String == "Acme")
        }
    }

    @Test(arguments: TestEngine.available) func anUnknownProductIsA404WithAJSONError(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 2))
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/api/products/NOPE", method: .get)
            #expect(response.status == .notFound)
            let error = try #require(try response.json()["error"] as? [String: Any])
            #expect((error["message"] as? String)?.contains("NOPE") == true)
        }
    }

    @Test(arguments: TestEngine.available) func aProductIdInThePathIsPercentDecoded(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV("productId,title\nA/B?1,slash\nÄ 1,umlaut\n")
        try await fixture.application().test(.router) { client in
            let slash = try await client.execute(uri: "/api/products/a%2Fb%3F1", method: .get)
            #expect(try slash.json()["productId"] as? String == "A/B?1")
            let umlaut = try await client.execute(uri: "/api/products/%C3%84%201", method: .get)
            #expect(try umlaut.json()["productId"] as? String == "Ä 1")
        }
    }

    @Test(arguments: ["%ZZ", "%C3%28", "%00", "a%0Ab"])
    func aPathThatIsNotAProductIdIsABadRequest(path: String) async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 2))
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/api/products/\(path)", method: .get)
            #expect(response.status == .badRequest)
            #expect(try response.errorFields().isEmpty)
        }
    }

    @Test(arguments: TestEngine.available) func anUnknownPathIsA404InTheSameJSONShape(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/api/nothing", method: .get)
            #expect(response.status == .notFound)
            #expect(try response.errorFields().isEmpty)
        }
    }
}
