import Foundation
import Hummingbird
import HummingbirdTesting
import ProductCatalog
import Testing
@testable import CatalogServer

/// The filters of `GET /api/products` and the counts of `GET /api/facets`.
@Suite(.serialized) struct SearchFilterRouteTests {
    static let csv = """
        productId,title,listPrice,salesPrice,color,size,productType,brand
        P1,Linen Shirt,40.00,29.99,Navy,M,Shirts,Acme
        P2,Linen Dress,80.00,,Black,S,Dresses,Nord
        P3,Wool Shirt,55.00,,navy,L,Shirts,Nord
        P4,Linen Towel,12.00,9.00,Sand,,Home,Acme
        P5,Linen Scarf,25.00,,Navy,M,,

        """

    @Test(arguments: TestEngine.available) func filtersCombineWithTheQueryAndTheCountFollowsThem(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(Self.csv)
        try await fixture.application().test(.router) { client in
            /// The page's productIds and the count, as `P1 P5 (2)`.
            func found(_ query: String) async throws -> String {
                let response = try await client.execute(uri: "/api/products?" + query, method: .get)
                #expect(response.status == .ok, "\(query)")
                return try response.productIds().joined(separator: " ") + " (\(try response.json()["count"] as? Int ?? -1))"
            }
            let cases = [
                ("q=linen&color=NAVY", "P1 P5 (2)"),
                ("q=linen&color=navy&color=black&size=m&size=s", "P1 P2 P5 (3)"),
                ("q=shirt&type=shirts&brand=nord", "P3 (1)"),
                ("q=linen&maxPrice=30", "P1 P4 P5 (3)"),
                ("q=linen&maxPrice=30&priceBasis=list", "P4 P5 (2)"),
                ("onSale=true", "P1 P4 (2)"),
                ("q=&size=", "P4 (1)"),
                ("prefix=p&minPrice=50&limit=1", "P2 (2)"),
            ]
            for (query, expected) in cases {
                let answer = try await found(query)
                #expect(answer == expected, "\(query)")
            }
        }
    }

    /// Stock by store, on both engines: the store and in-stock filters, each page's stock, a product's, the stores, their counts.
    @Test(arguments: TestEngine.available) func storesFilterAndEachPageAndProductSaysItsStock(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(Self.csv)
        var importer = try fixture.store.keptStock().stockImporter(mode: .replace)
        importer.reading.chunkSize = 64
        let job = importer.start(input: InputSource.bytes(Array("productId,store,quantity\nP1,Mitte,2\nP1,Ost,0\nP3,Ost,5\n".utf8)))
        for await _ in job.progress {}
        _ = try await job.summary
        try await fixture.application().test(.router) { client in
            func found(_ query: String) async throws -> String {
                let response = try await client.execute(uri: "/api/products?" + query, method: .get)
                #expect(response.status == .ok, "\(query)")
                return try response.productIds().joined(separator: " ") + " (\(try response.json()["count"] as? Int ?? -1))"
            }
            for (query, expected) in [("store=ost", "P3 (1)"), ("store=Mitte&store=OST", "P1 P3 (2)"), ("q=shirt&store=mitte", "P1 (1)"),
                                      ("inStock=true", "P1 P3 (2)"), ("store=nowhere", " (0)")] {
                let answer = try await found(query)
                #expect(answer == expected, "\(query)")
            }
            let page = try await client.execute(uri: "/api/products?q=shirt", method: .get).json()
            let stock = try #require(page["stock"] as? [String: [[String: Any]]])
            #expect(stock.keys.sorted() == ["P1", "P3"] && stock["P1"]?.map { $0["store"] as? String } == ["Mitte", "Ost"])
            let one = try await client.execute(uri: "/api/products/p1/stock", method: .get).json()
            #expect((one["stock"] as? [[String: Any]])?.map { "\($0["store"] ?? "") \($0["quantity"] ?? "")" } == ["Mitte 2", "Ost 0"])
            let none = try await client.execute(uri: "/api/products/P2/stock", method: .get).json()
            #expect((none["stock"] as? [Any])?.isEmpty == true)
            #expect(try await client.execute(uri: "/api/products/P9/stock", method: .get).status == .notFound)
            let stores = try await client.execute(uri: "/api/catalog/stores", method: .get).json()
            #expect(stores["stores"] as? [String] == ["Mitte", "Ost"])
            for query in ["", "q=shirt", "store=ost"] {
                let facets = try await client.execute(uri: "/api/facets?" + query, method: .get).json()
                let counted = ((facets["store"] as? [String: Any])?["values"] as? [[String: Any]])?.map { "\($0["value"] ?? "") \($0["count"] ?? "")" }
                #expect(counted == (query == "store=ost" ? ["Ost 1"] : ["Mitte 1", "Ost 1"]), "\(query): \(facets)")
            }
            let bad = try await client.execute(uri: "/api/products?inStock=maybe", method: .get)
            #expect(bad.status == .badRequest)
            #expect(try bad.errorFields()["inStock"] != nil)
        }
    }

    @Test(arguments: [
        ("minPrice=cheap", "minPrice"), ("maxPrice=1%2C5", "maxPrice"), ("minPrice=9&maxPrice=3", "minPrice"),
        ("priceBasis=sale", "priceBasis"), ("onSale=yes", "onSale"), ("color=%FF", "color"), ("option=Length%3A", "option"),
    ])
    func aBadFilterIsA400NamingIt(query: String, field: String) async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.importCSV(Self.csv)
        try await fixture.application().test(.router) { client in
            for path in ["/api/products", "/api/facets"] {
                let response = try await client.execute(uri: path + "?" + query, method: .get)
                #expect(response.status == .badRequest, "\(path)?\(query)")
                #expect(Array(try response.errorFields().keys) == [field], "\(path)?\(query)")
            }
        }
    }

    @Test(arguments: TestEngine.available) func facetsCountTheMatchesOfTheQueryAndFilters(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(Self.csv)
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/api/facets?q=linen&minPrice=20", method: .get)
            #expect(response.status == .ok)
            let object = try response.json()
            #expect(object["counted"] as? Int == 3)
            #expect(object["complete"] as? Bool == true)
            let color = object["color"] as? [String: Any]
            let values = (color?["values"] as? [[String: Any]])?.map { "\($0["value"]!)=\($0["count"]!)" }
            #expect(values == ["Navy=2", "Black=1"])
            let type = object["productType"] as? [String: Any]
            #expect(type?["withoutValue"] as? Int == 1)

            let text = String(buffer: try await client.execute(uri: "/api/facets?prefix=p&color=navy", method: .get).body)
            #expect(text.hasPrefix(#"{"counted":3,"complete":true,"productType":{"values":[{"value":"Shirts","count":2}]"#))
        }
    }

    /// Options by name: `option=Name:Value` filters, the facets count each option's values.
    @Test(arguments: TestEngine.available) func variantsFilterAndCountByTheirOptions(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV("""
            productId,title,groupId,options
            B-14-beige,Braid-In Bundles,B,Length: 14 Inches; Color: beige
            B-14-black,Braid-In Bundles,B,Length: 14 Inches; Color: black
            B-18-black,Braid-In Bundles,B,Length: 18 Inches; Color: black
            W-S,Wool Throw,W,Material: Wool; Size: S
            W-L,Wool Throw,W,Material: Cotton; Size: L

            """)
        try await fixture.application().test(.router) { client in
            func found(_ query: String) async throws -> String {
                let response = try await client.execute(uri: "/api/products?variants=all&" + query, method: .get)
                #expect(response.status == .ok, "\(query)")
                return try response.productIds().joined(separator: " ")
            }
            #expect(try await found("option=length%3A14%20inches") == "B-14-beige B-14-black")
            #expect(try await found("option=Length%3A18%20Inches&option=Length%3A14%20Inches&option=Color%3ABlack") == "B-14-black B-18-black")
            #expect(try await found("q=braid&option=Color%3Abeige") == "B-14-beige")
            // Without a name, the value of any option.
            #expect(try await found("option=%3Awool") == "W-S")
            let facets = try await client.execute(uri: "/api/facets?q=braid", method: .get).json()
            let options = try #require(facets["options"] as? [[String: Any]])
            #expect(options.map { "\($0["name"]!) \($0["products"]!)" } == ["Color 3", "Length 3"])
            let lengths = (options[1]["values"] as? [[String: Any]])?.map { "\($0["value"]!)=\($0["count"]!)" }
            #expect(lengths == ["14 Inches=2", "18 Inches=1"])
            #expect(facets["optionsCounted"] as? Int == 3 && facets["optionsComplete"] as? Bool == true)
            // A family is one result, counted as one; the catalog's summary counts every product.
            let families = try await client.execute(uri: "/api/products?q=braid", method: .get)
            #expect(try families.productIds() == ["B-14-beige"])
            let page = try families.json()
            #expect(page["count"] as? Int == 1 && page["counts"] as? String == "families")
            #expect(((page["products"] as? [[String: Any]])?.first?["family"] as? [String: Any])?["variants"] as? Int == 3)
            #expect(try await client.execute(uri: "/api/catalog", method: .get).json()["products"] as? Int == 5)
        }
    }

    @Test(arguments: TestEngine.available) func aQuerysCountStopsAtTenThousandAndSaysSoWhileAPrefixCountsAll(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        let cap = ProductSearch.queryCountCap
        try await fixture.importCSV(productsCSV(prefix: "P", count: cap + 5))
        try await fixture.application().test(.router) { client in
            let query = try await client.execute(uri: "/api/products?q=p&limit=1", method: .get).json()
            #expect(query["count"] as? Int == cap)
            #expect(query["countComplete"] as? Bool == false)
            // A catalog file counts a prefix and the whole catalog exactly; PostgreSQL counts
            // every search up to the cap (an exact count of ten million rows takes it a second).
            let exact = engine == .sqlite
            let prefix = try await client.execute(uri: "/api/products?prefix=p&limit=1", method: .get).json()
            #expect(prefix["count"] as? Int == (exact ? cap + 5 : cap))
            #expect(prefix["countComplete"] as? Bool == exact)
            let all = try await client.execute(uri: "/api/products?q=&limit=1", method: .get).json()
            #expect(all["count"] as? Int == (exact ? cap + 5 : cap))
            #expect(all["countComplete"] as? Bool == exact)
            let few = try await client.execute(uri: "/api/products?q=p-00&limit=1", method: .get).json()
            #expect(few["count"] as? Int == 10)
            #expect(few["countComplete"] as? Bool == true)
        }
    }

    @Test(arguments: TestEngine.available) func facetsOfACatalogNotMadeYetAreEmpty(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/api/facets?q=x", method: .get)
            #expect(response.status == .ok)
            #expect(try response.json()["counted"] as? Int == 0)
        }
    }
}
