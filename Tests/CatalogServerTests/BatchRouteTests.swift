import Foundation
import Hummingbird
import HummingbirdTesting
import ProductCatalog
import Testing
@testable import CatalogServer

/// `POST /api/products/batch`: one change for many products, with a summary of what changed and what was refused.
@Suite(.serialized) struct BatchRouteTests {
    static let json: HTTPFields = [.contentType: "application/json"]

    @Test(arguments: TestEngine.available) func aBatchSetsAFieldAndSaysWhatItRefused(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(SearchFilterRouteTests.csv)
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/api/products/batch", method: .post, headers: Self.json,
                                                    body: ByteBuffer(string: #"{"action":"set","productIds":["P1","P2","NOPE"],"fields":{"color":"Teal","salesPrice":"45.00"}}"#))
            #expect(response.status == .ok)
            let answer = try response.json()
            #expect(answer["changed"] as? Int == 1)
            #expect(answer["changedIds"] as? [String] == ["P2"])
            let refused = try #require(answer["refused"] as? [[String: Any]])
            #expect(refused.map { $0["productId"] as? String } == ["P1", "NOPE"])
            // The rule broken, in the form's words; a product not found, said in the message.
            #expect((refused[0]["fields"] as? [String: String])?["salesPrice"]?.contains("is above the list price (") == true, "\(refused)")
            #expect((refused[1]["message"] as? String)?.contains("No product has productId \"NOPE\"") == true, "\(refused)")
            // The field that broke a rule, by name, for the page to label; none for a product not found.
            #expect((refused[0]["fields"] as? [String: String]).map { Array($0.keys) } == ["salesPrice"])
            #expect((refused[1]["fields"] as? [String: String])?.isEmpty == true)
            let teal = try await client.execute(uri: "/api/products?q=&color=teal", method: .get)
            #expect(try teal.productIds() == ["P2"])
            // What the set replaced, for an undo.
            let replaced = try #require(answer["replaced"] as? [[String: Any]])
            #expect(replaced.count == 1 && replaced[0]["productId"] as? String == "P2")
            let old = try #require(replaced[0]["fields"] as? [String: String])
            #expect(Set(old.keys) == ["color", "salesPrice"])
            let undo = try JSONSerialization.data(withJSONObject: ["action": "set", "productIds": ["P2"], "fields": old])
            #expect(try await client.execute(uri: "/api/products/batch", method: .post, headers: Self.json, body: ByteBuffer(data: undo)).json()["changed"] as? Int == 1)
            let restored = try await client.execute(uri: "/api/products/P2", method: .get).json()
            #expect(restored["color"] as? String == (old["color"]!.isEmpty ? nil : old["color"]))
        }
    }

    @Test(arguments: TestEngine.available) func aBatchDeletesAndStars(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(SearchFilterRouteTests.csv)
        try await fixture.application().test(.router) { client in
            func batch(_ body: String) async throws -> TestResponse {
                try await client.execute(uri: "/api/products/batch", method: .post, headers: Self.json, body: ByteBuffer(string: body))
            }
            #expect(try await batch(#"{"action":"star","productIds":["P3","P4"]}"#).json()["changed"] as? Int == 2)
            let favorites = try await client.execute(uri: "/api/favorites", method: .get)
            #expect(try favorites.productIds() == ["P3", "P4"])
            #expect(try await batch(#"{"action":"delete","productIds":["P1","P4"]}"#).json()["changed"] as? Int == 2)
            #expect(try await fixture.storedIds() == ["P2", "P3", "P5"])
        }
    }

    @Test(arguments: [
        (#"{"action":"paint","productIds":["P1"]}"#, "action"),
        (#"{"action":"set","productIds":["P1"],"fields":{"productId":"X"}}"#, "productId"),
        (#"{"action":"set","productIds":["P1"]}"#, "fields"),
        (#"{"action":"delete","productIds":[]}"#, "productIds"),
    ])
    func aBatchTheServerCannotApplyIsA422NamingWhatToFix(body: String, field: String) async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.importCSV(SearchFilterRouteTests.csv)
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/api/products/batch", method: .post, headers: Self.json, body: ByteBuffer(string: body))
            #expect(response.status == .unprocessableContent)
            #expect(Array(try response.errorFields().keys) == [field])
            #expect(try await fixture.storedIds() == ["P1", "P2", "P3", "P4", "P5"])
        }
    }

    @Test(arguments: TestEngine.available) func moreThanAThousandProductsIsRefused(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(SearchFilterRouteTests.csv)
        try await fixture.application().test(.router) { client in
            let ids = (0...CatalogEditor.maxBatchProducts).map { "\"X\($0)\"" }.joined(separator: ",")
            let response = try await client.execute(uri: "/api/products/batch", method: .post, headers: Self.json,
                                                    body: ByteBuffer(string: #"{"action":"delete","productIds":["# + ids + "]}"))
            #expect(response.status == .unprocessableContent)
            #expect(Array(try response.errorFields().keys) == ["productIds"])
        }
    }
}
