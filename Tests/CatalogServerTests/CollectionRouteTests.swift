import Foundation
import Hummingbird
import HummingbirdTesting
import ProductCatalog
import Testing
@testable import CatalogServer

/// `/api/collections` and the `collection` parameter of `/api/products`, `/api/facets` and `/api/export`.
@Suite(.serialized) struct CollectionRouteTests {
    /// A collection may be called `import`, like the route that imports a collection file: it is
    /// shown, filled and deleted at its own address as any other is.
    @Test(arguments: TestEngine.available) func aCollectionNamedImportIsShownFilledAndDeleted(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(SearchFilterRouteTests.csv)
        try await fixture.application().test(.router) { client in
            for name in ["import", "Import"] {
                let made = try await client.send("/api/collections", .post, json: ["name": name, "productIds": ["P1"]])
                #expect(made.status == (name == "import" ? .created : .conflict))
            }
            let shown = try await client.execute(uri: "/api/collections/import", method: .get)
            #expect(try shown.status == .ok && (try shown.json()["name"] as? String) == "import", "\(shown.text)")
            let head = try await client.execute(uri: "/api/collections/Import", method: .head)
            #expect(head.status == .ok)
            let added = try await client.send("/api/collections/import/products", .post, json: ["productIds": ["P2"]])
            #expect(try added.status == .ok && (try added.json()["changed"] as? Int) == 1, "\(added.text)")
            let taken = try await client.send("/api/collections/import/products", .delete, json: ["productIds": ["P1"]])
            #expect(((try taken.json()["collection"] as? [String: Any])?["products"] as? Int) == 1, "\(taken.text)")
            #expect(try await client.execute(uri: "/api/products?collection=import", method: .get).productIds() == ["P2"])
            let deleted = try await client.execute(uri: "/api/collections/import", method: .delete)
            #expect(deleted.status == .noContent)
            #expect(try await client.execute(uri: "/api/collections/import", method: .get).status == .notFound)
            // The file import still answers at its address.
            let file = try await client.execute(uri: "/api/collections/import", method: .post, headers: csvUpload,
                                                body: ByteBuffer(string: "collection,productId\nSummer,P1\n"))
            #expect(file.status == .ok, "\(file.text)")
        }
    }

    @Test(arguments: TestEngine.available) func collectionsAreMadeFilledListedSearchedExportedAndDeleted(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(SearchFilterRouteTests.csv)
        try await fixture.application().test(.router) { client in
            func found(_ query: String) async throws -> String {
                let response = try await client.execute(uri: "/api/products?" + query, method: .get)
                #expect(response.status == .ok, "\(query)")
                return try response.productIds().joined(separator: " ") + " (\(try response.json()["count"] as? Int ?? -1))"
            }
            let made = try await client.send("/api/collections", .post, json: ["name": " Picks ", "productIds": ["p3", "P1", "NOPE"]])
            #expect(made.status == .created && made.headers[.location] == "/api/collections/Picks")
            #expect(try made.json()["products"] as? Int == 2 && made.json()["search"] as? String == "collection=Picks")
            let smart = try await client.send("/api/collections", .post, json: ["name": "Cheap linen", "search": "q=linen&maxPrice=30&sort=-price"])
            #expect(try smart.status == .created && (try smart.json()["kind"] as? String) == "smart")

            for (query, expected) in [("collection=picks", "P1 P3 (2)"), ("collection=Picks&q=wool", "P3 (1)"), ("collection=Picks&color=navy&sort=price", "P1 P3 (2)"),
                                      ("collection=Cheap%20linen", "P1 P5 P4 (3)")] {
                let answer = try await found(query)
                #expect(answer == expected, "\(query)")
            }
            let facets = try await client.execute(uri: "/api/facets?collection=Picks", method: .get).json()
            #expect(facets["counted"] as? Int == 2)
            let csv = try await client.execute(uri: "/api/export?collection=Picks", method: .get)
            #expect(String(buffer: csv.body).split(whereSeparator: \.isNewline).dropFirst().map { $0.prefix(3) } == ["P1,", "P3,"])

            let put = try await client.send("/api/collections/Picks/products", .post, json: ["productIds": ["P2", "P3", "ZZ"]])
            #expect(try put.status == .ok && (try put.json()["changed"] as? Int) == 1 && (try put.json()["unknown"] as? [String]) == ["ZZ"])
            let out = try await client.send("/api/collections/picks/products", .delete, json: ["productIds": ["P1"]])
            #expect(((try out.json()["collection"] as? [String: Any])?["products"] as? Int) == 2)
            let listed = try await client.execute(uri: "/api/collections", method: .get).json()
            #expect((listed["collections"] as? [[String: Any]])?.map { "\($0["name"]!) \($0["products"]!)" } == ["Cheap linen <null>", "Picks 2"])

            // What a client gets wrong, each answered in words.
            let twice = try await client.send("/api/collections", .post, json: ["name": "PICKS"])
            #expect(try twice.status == .conflict && (try twice.errorFields()["name"]) == "Choose another name.")
            let empty = try await client.send("/api/collections", .post, json: ["name": "  "])
            #expect(try empty.status == .unprocessableContent && (try empty.errorFields()["name"]) == "A collection needs a name.")
            let intoSmart = try await client.send("/api/collections/Cheap%20linen/products", .post, json: ["productIds": ["P1"]])
            #expect(intoSmart.status == .conflict)
            let mixed = try await client.execute(uri: "/api/products?collection=Cheap%20linen&q=wool", method: .get)
            #expect(try mixed.status == .badRequest && (try mixed.errorFields()["collection"]) != nil)
            let nowhere = try await client.execute(uri: "/api/products?collection=Nowhere", method: .get)
            #expect(nowhere.status == .notFound)
            let tooMany = try await client.send("/api/collections", .post, json: ["name": "Huge", "productIds": (0...1_000).map { "P\($0)" }])
            #expect(tooMany.status == .unprocessableContent)
            #expect(try await client.execute(uri: "/api/collections/Huge", method: .get).status == .notFound, "a refused list left a collection")
            let badSearch = try await client.send("/api/collections", .post, json: ["name": "Bad", "search": "sort=sideways"])
            #expect(try badSearch.status == .badRequest && (try badSearch.errorFields()["sort"]) != nil)

            #expect(try await client.execute(uri: "/api/collections/picks", method: .delete).status == .noContent)
            #expect(try await client.execute(uri: "/api/collections/Picks", method: .get).status == .notFound)
            #expect(try await client.execute(uri: "/api/collections/Picks", method: .delete).status == .notFound)
        }
    }

    @Test(arguments: TestEngine.available) func aCollectionFileIsPreviewedAndImported(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(SearchFilterRouteTests.csv)
        try await fixture.application().test(.router) { client in
            let file = "collection,productId\nSummer,p1\nSummer,P5\nSummer,NOPE\nWinter,P3\n"
            let preview = try await client.execute(uri: "/api/imports/preview", method: .post, headers: csvUpload, body: ByteBuffer(string: file)).json()
            #expect(preview["collections"] as? Bool == true && preview["stock"] is NSNull, "\(preview)")
            let products = try await client.execute(uri: "/api/imports/preview", method: .post, headers: csvUpload,
                                                    body: ByteBuffer(string: SearchFilterRouteTests.csv)).json()
            #expect(products["collections"] as? Bool == false)

            let imported = try await client.execute(uri: "/api/collections/import", method: .post, headers: csvUpload, body: ByteBuffer(string: file))
            #expect(imported.status == .ok)
            let summary = try imported.json()
            #expect(summary["added"] as? Int == 3 && summary["rowsRejected"] as? Int == 1 && summary["collectionsCreated"] as? Int == 2, "\(summary)")
            #expect((summary["firstRejects"] as? [[String: Any]])?.first?["line"] as? Int == 4 && summary["rejects"] is NSNull)
            // A file by its name alone (never the server's folders); a PostgreSQL catalog by its URL.
            #expect(summary["catalog"] as? String == (engine == .sqlite ? "catalog.sqlite" : fixture.store.name))
            let replaced = try await client.execute(uri: "/api/collections/import?mode=replace", method: .post, headers: csvUpload,
                                                    body: ByteBuffer(string: "collection,productId\nSummer,P2\n")).json()
            #expect(replaced["removed"] as? Int == 2 && replaced["added"] as? Int == 1)
            let summer = try await client.execute(uri: "/api/products?collection=summer", method: .get)
            #expect(try summer.productIds() == ["P2"])
            #expect(try await client.execute(uri: "/api/products?collection=winter", method: .get).productIds() == ["P3"])

            let wrong = try await client.execute(uri: "/api/collections/import", method: .post, headers: csvUpload, body: ByteBuffer(string: "name,productId\nA,P1\n"))
            #expect(wrong.status == .unprocessableContent)
            let json = try await client.execute(uri: "/api/collections/import", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: file))
            #expect(json.status == .unsupportedMediaType)
        }
    }

    @Test(arguments: TestEngine.available) func aLargeCollectionWithAnotherFilterIsCountedUpToTheCap(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 10_050))
        try await fixture.application().test(.router) { client in
            let members = "collection,productId\n" + (0..<10_050).map { "All,P-\(String(format: "%03d", $0))\n" }.joined()
            let imported = try await client.execute(uri: "/api/collections/import", method: .post, headers: csvUpload, body: ByteBuffer(string: members))
            #expect(try imported.json()["added"] as? Int == 10_050)
            // A collection alone is counted exactly, past the cap, on both engines.
            let alone = try await client.execute(uri: "/api/products?collection=All", method: .get).json()
            #expect(alone["count"] as? Int == 10_050 && alone["countComplete"] as? Bool == true, "\(alone["count"] ?? "")")
            let priced = try await client.execute(uri: "/api/products?collection=All&minPrice=2", method: .get).json()
            #expect(priced["count"] as? Int == 10_000 && priced["countComplete"] as? Bool == false, "\(priced["count"] ?? "")")
            let few = try await client.execute(uri: "/api/products?collection=All&minPrice=10049", method: .get).json()
            #expect(few["count"] as? Int == 2 && few["countComplete"] as? Bool == true)
        }
    }

    @Test(arguments: TestEngine.available) func anotherSiteCannotMakeOrFillACollection(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(SearchFilterRouteTests.csv)
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/api/collections", method: .post,
                                                    headers: [.contentType: "application/json", .origin: "https://evil.example"],
                                                    body: ByteBuffer(string: #"{"name":"Evil"}"#))
            #expect(response.status == .forbidden)
            let form = try await client.execute(uri: "/api/collections", method: .post, headers: [.contentType: "text/plain"],
                                                body: ByteBuffer(string: #"{"name":"Evil"}"#))
            #expect(form.status == .unsupportedMediaType)
            let listed = try await client.execute(uri: "/api/collections", method: .get).json()
            #expect((listed["collections"] as? [Any])?.isEmpty == true)
        }
    }
}
