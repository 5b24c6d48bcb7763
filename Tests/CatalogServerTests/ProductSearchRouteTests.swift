import Foundation
import Hummingbird
import HummingbirdTesting
import ProductCatalog
import Testing
@testable import CatalogServer

@Suite(.serialized) struct ProductSearchRouteTests {
    @Test(arguments: TestEngine.available) func aPageHasTwentyProductsACursorAndTheCountOfAllMatches(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "AB", count: 45) + productRows(prefix: "CD", count: 5))
        try await fixture.application().test(.router) { client in
            var seen: [String] = []
            var uri = "/api/products?prefix=ab"
            var pages = 0
            while true {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .ok)
                let object = try response.json()
                #expect(object["count"] as? Int == 45)
                let ids = try response.productIds()
                #expect(ids.count == (pages < 2 ? 20 : 5))
                seen += ids
                pages += 1
                guard let next = object["nextCursor"] as? String else { break }
                uri = "/api/products?prefix=ab&after=\(next)"
            }
            #expect(pages == 3)
            #expect(seen == (0..<45).map { String(format: "AB-%03d", $0) })
        }
    }

    @Test(arguments: TestEngine.available) func qFindsProductIdsThenWordsAndAnEditIsFoundAtOnce(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV("productId,title\nLIN-1,Wool Coat\nP1,Linen Shirt\nP2,Café Table\nP3,Linen Towel\n")
        try await fixture.application().test(.router) { client in
            var seen: [String] = []
            var uri = "/api/products?q=lin&limit=2"
            while true {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .ok)
                #expect(try response.json()["count"] as? Int == 3)
                seen += try response.productIds()
                guard let next = try response.json()["nextCursor"] as? String else { break }
                uri = "/api/products?q=lin&limit=2&after=\(next)"
            }
            #expect(seen == ["LIN-1", "P1", "P3"])
            #expect(try await client.execute(uri: "/api/products?q=cafe+tab", method: .get).productIds() == ["P2"])
            #expect(try await client.execute(uri: "/api/products?prefix=lin", method: .get).productIds() == ["LIN-1"])
            let both = try await client.execute(uri: "/api/products?q=a&prefix=a", method: .get)
            #expect(both.status == .badRequest)

            let added = try await client.execute(
                uri: "/api/products", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"productId":"Z9","title":"Linen Napkin"}"#))
            #expect(added.status == .created)
            #expect(try await client.execute(uri: "/api/products?q=napk", method: .get).productIds() == ["Z9"])
        }
    }

    @Test(arguments: TestEngine.available) func theListWithoutAPrefixCountsTheWholeCatalogAndHonoursTheLimit(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 130))
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/api/products?limit=100", method: .get)
            #expect(try response.json()["count"] as? Int == 130)
            #expect(try response.productIds().count == 100)
            let standard = try await client.execute(uri: "/api/products", method: .get)
            #expect(try standard.productIds().count == 20)
        }
    }

    @Test(arguments: ["0", "101", "abc", "-5", "2.5"])
    func aLimitOutsideOneToOneHundredIsRefused(limit: String) async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 3))
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/api/products?limit=\(limit)", method: .get)
            #expect(response.status == .badRequest)
            #expect(try response.errorFields()["limit"]?.contains("1 to 100") == true)
        }
    }

    @Test(arguments: TestEngine.available) func aCursorThatThisAPIDidNotMakeIsRefused(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 3))
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/api/products?after=%2A%2A%2A", method: .get)
            #expect(response.status == .badRequest)
            #expect(try response.errorFields()["after"] != nil)
        }
    }

    @Test(arguments: TestEngine.available) func percentAndUnderscoreInAPrefixAreOrdinaryCharacters(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV("productId,title\na%b,one\na_c,two\nabc,three\naxc,four\n")
        try await fixture.application().test(.router) { client in
            let percent = try await client.execute(uri: "/api/products?prefix=a%25", method: .get)
            #expect(try percent.productIds() == ["a%b"])
            let underscore = try await client.execute(uri: "/api/products?prefix=A_", method: .get)
            #expect(try underscore.productIds() == ["a_c"])
            #expect(try underscore.json()["count"] as? Int == 1)
        }
    }

    @Test(arguments: TestEngine.available) func theQueryIsReadAsBrowsersEncodeIt(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV("productId,title\nA B1,space\nA+B2,plus\nÄB3,umlaut\n")
        try await fixture.application().test(.router) { client in
            let space = try await client.execute(uri: "/api/products?prefix=a+b", method: .get)
            #expect(try space.productIds() == ["A B1"])
            let plus = try await client.execute(uri: "/api/products?prefix=a%2Bb", method: .get)
            #expect(try plus.productIds() == ["A+B2"])
            let umlaut = try await client.execute(uri: "/api/products?prefix=%C3%84", method: .get)
            #expect(try umlaut.productIds() == ["ÄB3"])
        }
    }

    @Test(arguments: TestEngine.available) func withoutACatalogFileTheListIsEmpty(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/api/products", method: .get)
            #expect(response.status == .ok)
            #expect(try response.productIds().isEmpty)
            #expect(try response.json()["count"] as? Int == 0)
        }
    }
}

@Suite struct PrefixEdgeRouteTests {
    @Test(arguments: TestEngine.available) func aPrefixAtTheEdgesGetsAJSONAnswerNeverTheWholeCatalog(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV("productId,title\n@1,at\n[1,bracket\n_1,underscore\nab,x\n")
        try await fixture.application().test(.router) { client in
            let invalid = try await client.execute(uri: "/api/products?prefix=%FF", method: .get)
            #expect(invalid.status == .badRequest)
            #expect(try invalid.errorFields()["prefix"] != nil)
            let long = try await client.execute(uri: "/api/products?prefix=" + String(repeating: "a", count: 256), method: .get)
            #expect(long.status == .badRequest)
            #expect(try long.errorFields()["prefix"] != nil)
            let at = try await client.execute(uri: "/api/products?prefix=%40", method: .get)
            #expect(try at.productIds() == ["@1"])
            let spaced = try await client.execute(uri: "/api/products?prefix=+ab+", method: .get)
            #expect(try spaced.productIds() == ["ab"])
        }
    }
}

@Suite struct LongQueryRouteTests {
    @Test(arguments: TestEngine.available) func aPastedQueryUsesItsFirstTenWordsSaysSoAndOnlyPastAThousandBytesIsRefused(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV("productId,title\nL1,alpha bravo charlie delta echo foxtrot golf hotel india juliett\nL2,alpha bravo\n")
        try await fixture.application().test(.router) { client in
            let words = "alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike " + String(repeating: "x", count: 300)
            let pasted = try await client.execute(uri: "/api/products?q=" + words.replacingOccurrences(of: " ", with: "+"), method: .get)
            #expect(pasted.status == .ok)
            #expect(try pasted.productIds() == ["L1"])
            #expect(try pasted.json()["queryTruncated"] as? Bool == true)
            let short = try await client.execute(uri: "/api/products?q=alpha+bravo", method: .get)
            #expect(try short.json()["queryTruncated"] == nil)
            let tooLong = try await client.execute(uri: "/api/products?q=" + String(repeating: "a+", count: 501), method: .get)
            #expect(tooLong.status == .badRequest)
            #expect(try tooLong.errorFields()["q"] != nil)
        }
    }
}

@Suite struct RankingRouteTests {
    @Test(arguments: TestEngine.available) func typosSortsAndHighlightsThroughTheAPI(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV("productId,title,listPrice\nR1,Linen Shirt,30\nR2,Café Shirt Dress,10\nR3,Wool Coat,20\n")
        try await fixture.application().test(.router) { client in
            let typo = try await client.execute(uri: "/api/products?q=shrit", method: .get)
            #expect(try typo.productIds() == ["R1", "R2"])
            let exact = try await client.execute(uri: "/api/products?q=shrit&typos=0", method: .get)
            #expect(try exact.productIds() == [])
            let cheapest = try await client.execute(uri: "/api/products?q=shirt&sort=price", method: .get)
            #expect(try cheapest.productIds() == ["R2", "R1"])
            let dearest = try await client.execute(uri: "/api/products?q=&sort=-price&limit=2", method: .get)
            #expect(try dearest.productIds() == ["R1", "R3"])
            let next = try #require(try dearest.json()["nextCursor"] as? String)
            let rest = try await client.execute(uri: "/api/products?q=&sort=-price&limit=2&after=\(next)", method: .get)
            #expect(try rest.productIds() == ["R2"])
            let bad = try await client.execute(uri: "/api/products?q=x&sort=cheapest", method: .get)
            #expect(bad.status == .badRequest)
            #expect(try bad.errorFields()["sort"] != nil)

            // Highlights: UTF-16 ranges of the matched words in each field.
            let products = try #require(try (try await client.execute(uri: "/api/products?q=cafe+shi", method: .get)).json()["products"] as? [[String: Any]])
            let highlights = try #require(products.first?["highlights"] as? [String: Any])
            let title = try #require(highlights["title"] as? [[String: Any]])
            #expect(title.map { $0["start"] as? Int } == [0, 5])
            #expect(title.map { $0["end"] as? Int } == [4, 10])
            #expect(title.map { $0["word"] as? String } == ["cafe", "shi"])
        }
    }
}
