import Foundation
import Hummingbird
import HummingbirdTesting
import ProductCatalog
import Testing
@testable import CatalogServer

@Suite(.serialized) struct ProductEditRouteTests {
    /// A body that breaks exactly one rule, the field it should be reported on, and words its message must hold.
    struct InvalidCase: Sendable, CustomStringConvertible {
        var change: [String: String?]
        var field: String
        var words: String
        var description: String { "\(field): \(change)" }
    }

    static let invalidCases: [InvalidCase] = [
        InvalidCase(change: ["productId": nil], field: "productId", words: "Enter a productId"),
        InvalidCase(change: ["productId": "   "], field: "productId", words: "Enter a productId"),
        InvalidCase(change: ["productId": String(repeating: "x", count: 256)], field: "productId", words: "at most 255 bytes"),
        InvalidCase(change: ["productId": "AB\n1"], field: "productId", words: "control characters"),
        InvalidCase(change: ["title": ""], field: "title", words: "Enter a title"),
        InvalidCase(change: ["listPrice": "abc"], field: "listPrice", words: "number such as 19.99"),
        InvalidCase(change: ["listPrice": "-5"], field: "listPrice", words: "cannot be negative"),
        InvalidCase(change: ["listPrice": "19.999"], field: "listPrice", words: "at most 2 decimals"),
        InvalidCase(change: ["listPrice": "19.9999"], field: "listPrice", words: "at most 2 decimals"),
        InvalidCase(change: ["listPrice": "19.999", "currency": "USD"], field: "listPrice", words: "A USD price has at most 2 decimals"),
        InvalidCase(change: ["listPrice": "1,99"], field: "listPrice", words: "number such as 19.99"),
        InvalidCase(change: ["salesPrice": "$5"], field: "salesPrice", words: "number such as 19.99"),
        InvalidCase(change: ["salesPrice": "20.01"], field: "salesPrice", words: "above the list price (20.00)"),
        InvalidCase(change: ["taxRate": "100.5"], field: "taxRate", words: "from 0 to 100"),
        InvalidCase(change: ["taxRate": "19%"], field: "taxRate", words: "from 0 to 100"),
        InvalidCase(change: ["imageURL": "ftp://example.com/a.png"], field: "imageURL", words: "http:// or https://"),
        InvalidCase(change: ["imageURL": "example.com/a.png"], field: "imageURL", words: "http:// or https://"),
        InvalidCase(change: ["imageURL": "https://exa mple.com/a.png"], field: "imageURL", words: "http:// or https://"),
        InvalidCase(change: ["imageURL": "//example.com/a.png"], field: "imageURL", words: "http:// or https://"),
    ]

    static let validBody: [String: String?] = [
        "productId": "NEW-1", "title": "Mug", "listPrice": "20", "salesPrice": "15.5",
        "color": "Teal", "size": "M", "productType": "Kitchen", "taxRate": "7.5", "imageURL": "https://example.com/mug.png",
    ]

    @Test(arguments: TestEngine.available) func aPriceInACurrencyWithThreeDecimalsIsKeptExactly(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "NEW", count: 1))
        try await fixture.application().test(.router) { client in
            var body = Self.validBody
            body["listPrice"] = "12.345"
            body["salesPrice"] = "12.3"
            body["currency"] = "kwd"
            let added = try await client.send("/api/products", .post, json: body)
            #expect(added.status == .created)
            let product = try added.json()
            #expect(product["listPrice"] as? String == "12.345")
            #expect(product["salesPrice"] as? String == "12.300")
            #expect(product["currency"] as? String == "KWD")
        }
    }

    @Test(arguments: TestEngine.available) func addingAProductAnswers201AndASearchFindsItAtOnce(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "NEW", count: 3))
        try await fixture.application().test(.router) { client in
            let before = try await client.execute(uri: "/api/products?prefix=new", method: .get)
            #expect(try before.json()["count"] as? Int == 3)
            var body = Self.validBody
            body["productId"] = "NEW-X/1"
            let added = try await client.send("/api/products", .post, json: body)
            #expect(added.status == .created)
            #expect(added.headers[.location] == "/api/products/NEW-X%2F1")
            let product = try added.json()
            #expect(product["listPrice"] as? String == "20.00")
            #expect(product["salesPrice"] as? String == "15.50")
            #expect(product["taxRate"] as? String == "7.5")
            let after = try await client.execute(uri: "/api/products?prefix=new-x", method: .get)
            #expect(try after.productIds() == ["NEW-X/1"])
            let all = try await client.execute(uri: "/api/products?prefix=new", method: .get)
            #expect(try all.json()["count"] as? Int == 4)
        }
    }

    @Test(arguments: invalidCases)
    func eachBrokenRuleIsA422WithAMessageOnItsField(_ invalid: InvalidCase) async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 1))
        try await fixture.application().test(.router) { client in
            var body = Self.validBody
            body["listPrice"] = "20.00"
            for (key, value) in invalid.change { body[key] = value }
            if invalid.change.keys.contains("productId"), invalid.change["productId"]! == nil { body.removeValue(forKey: "productId") }
            let response = try await client.send("/api/products", .post, json: body)
            #expect(response.status == .unprocessableContent)
            let fields = try response.errorFields()
            #expect(Array(fields.keys) == [invalid.field])
            #expect(fields[invalid.field]?.contains(invalid.words) == true, "\(fields)")
            #expect(try await fixture.storedIds() == ["P-000"])
        }
    }

    @Test(arguments: TestEngine.available) func everyBrokenRuleIsReportedInOneAnswer(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.send("/api/products", .post, json: ["listPrice": "x", "taxRate": "-1", "imageURL": "mailto:a@b.c"])
            #expect(response.status == .unprocessableContent)
            #expect(Set(try response.errorFields().keys) == ["productId", "title", "listPrice", "taxRate", "imageURL"])
        }
    }

    @Test(arguments: TestEngine.available) func aPriceSentAsAJSONNumberIsAskedForAsText(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.send("/api/products", .post, json: ["productId": "A", "title": "B", "listPrice": 12.5])
            #expect(response.status == .unprocessableContent)
            #expect(try response.errorFields()["listPrice"]?.contains("as a string") == true)
        }
    }

    @Test(arguments: TestEngine.available) func aBodyThatIsNotAJSONObjectIsABadRequest(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/api/products", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: "[1,2"))
            #expect(response.status == .badRequest)
        }
    }

    @Test(arguments: TestEngine.available) func addingAProductIdThatExistsInAnotherCaseIsA409(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV("productId,title\nAB-1,Original\n")
        try await fixture.application().test(.router) { client in
            let response = try await client.send("/api/products", .post, json: ["productId": "ab-1", "title": "Copy"])
            #expect(response.status == .conflict)
            #expect(try response.errorFields()["productId"] != nil)
            let original = try await client.execute(uri: "/api/products/AB-1", method: .get)
            #expect(try original.json()["title"] as? String == "Original")
        }
    }

    @Test(arguments: TestEngine.available) func addingToAFolderWithoutACatalogCreatesOne(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.send("/api/products", .post, json: ["productId": "FIRST", "title": "First"])
            #expect(response.status == .created)
            if engine == .sqlite { #expect(try CatalogSchema.kind(ofFileAt: fixture.databasePath) == .catalog) }
            #expect(try await fixture.storedIds() == ["FIRST"])
        }
    }

    @Test(arguments: TestEngine.available) func editingReplacesTheFieldsAndKeepsTheStoredIdAsItWas(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV("productId,title,listPrice,color\nAB-1,Mug,10,Red\n")
        try await fixture.application().test(.router) { client in
            let response = try await client.send("/api/products/ab-1", .put, json: ["title": "Big mug", "listPrice": "11.5"])
            #expect(response.status == .ok)
            let product = try response.json()
            #expect(product["productId"] as? String == "AB-1")
            #expect(product["title"] as? String == "Big mug")
            #expect(product["listPrice"] as? String == "11.50")
            #expect(product["color"] is NSNull)
        }
    }

    @Test(arguments: TestEngine.available) func editingCanRenameAProductButNotOntoAnother(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV("productId,title\nAB-1,One\nAB-2,Two\n")
        try await fixture.application().test(.router) { client in
            let clash = try await client.send("/api/products/AB-1", .put, json: ["productId": "ab-2", "title": "One"])
            #expect(clash.status == .conflict)
            let renamed = try await client.send("/api/products/AB-1", .put, json: ["productId": "AB-3", "title": "One"])
            #expect(renamed.status == .ok)
            #expect(try await fixture.storedIds() == ["AB-2", "AB-3"])
        }
    }

    @Test(arguments: TestEngine.available) func editingAnUnknownProductIsA404(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 1))
        try await fixture.application().test(.router) { client in
            let withoutId = try await client.send("/api/products/NOPE", .put, json: ["title": "x"])
            #expect(withoutId.status == .notFound)
            let withId = try await client.send("/api/products/NOPE", .put, json: ["productId": "NOPE", "title": "x"])
            #expect(withId.status == .notFound)
        }
    }

    @Test(arguments: TestEngine.available) func extraColumnsCanBeEditedButUnknownColumnsAreRefused(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV("productId,title,Material\nAB-1,Mug,Acme\n")
        try await fixture.application().test(.router) { client in
            let edited = try await client.send("/api/products/AB-1", .put, json: ["title": "Mug", "material": "Globex"])
            #expect(try edited.json()["Material"] as? String == "Globex")
            let keptWhenUnnamed = try await client.send("/api/products/AB-1", .put, json: ["title": "Mug 2"])
            #expect(try keptWhenUnnamed.json()["Material"] as? String == "Globex")
            let unknown = try await client.send("/api/products", .post, json: ["productId": "AB-2", "title": "x", "Weight": "3"])
            #expect(unknown.status == .unprocessableContent)
            #expect(try unknown.errorFields()["Weight"]?.contains("no column") == true)
        }
    }

    @Test(arguments: TestEngine.available) func deletingAnswers204AndTheProductIsGone(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 3))
        try await fixture.application().test(.router) { client in
            let deleted = try await client.execute(uri: "/api/products/p-001", method: .delete)
            #expect(deleted.status == .noContent)
            #expect(try await fixture.storedIds() == ["P-000", "P-002"])
            let again = try await client.execute(uri: "/api/products/P-001", method: .delete)
            #expect(again.status == .notFound)
            let list = try await client.execute(uri: "/api/products", method: .get)
            #expect(try list.json()["count"] as? Int == 2)
        }
    }
}
