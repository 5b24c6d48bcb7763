import Foundation
import Hummingbird
import HummingbirdTesting
import ProductCatalog
import Testing
@testable import CatalogServer

/// `POST /api/imports?kind=stock`: a local inventory file uploaded, followed live and summed up as
/// `catalog import-stock --json` does; the preview that names a stock file.
@Suite struct StockUploadRouteTests {
    static let stock = "store_code,id,quantity,availability\nMitte,P1,2,in_stock\nOst,P3,5,in_stock\nOst,NOPE,1,in_stock\nOst,P2,many,in_stock\n"

    @Test func aLocalInventoryFileIsUploadedFollowedAndSearchedByStore() async throws {
        let fixture = try ServerFixture(progressInterval: .milliseconds(1))
        defer { fixture.remove() }
        try await fixture.importCSV(SearchFilterRouteTests.csv)
        try await fixture.application().test(.router) { client in
            let preview = try await client.execute(uri: "/api/imports/preview", method: .post, headers: csvUpload, body: ByteBuffer(string: Self.stock)).json()
            #expect((preview["stock"] as? [String: Any])?["format"] as? String == "google-local-inventory", "\(preview)")
            let products = try await client.execute(uri: "/api/imports/preview", method: .post, headers: csvUpload,
                                                    body: ByteBuffer(string: SearchFilterRouteTests.csv)).json()
            #expect(products["stock"] is NSNull && products["format"] as? String == "generic")

            let accepted = try await client.execute(uri: "/api/imports?kind=stock&mode=replace", method: .post, headers: csvUpload,
                                                    body: ByteBuffer(string: Self.stock))
            #expect(accepted.status == .accepted)
            let events = try ServerSentEvent.parse(try await client.execute(uri: "/api/imports/1/events", method: .get).text)
            let finished = try #require(events.last)
            #expect(finished.name == "finished" && finished.data["format"] as? String == "google-local-inventory", "\(finished.data)")
            #expect(finished.data["rowsRead"] as? Int == 4 && finished.data["rowsWritten"] as? Int == 2 && finished.data["rowsRejected"] as? Int == 2)
            #expect(finished.data["unknownProducts"] as? Int == 1 && finished.data["stockRows"] as? Int == 2 && finished.data["stores"] as? Int == 2)
            #expect(finished.data["rejects"] as? String == "/api/imports/1/rejects" && finished.data["catalog"] as? String == "catalog.sqlite")
            let rejects = try await client.execute(uri: "/api/imports/1/rejects", method: .get)
            #expect(String(buffer: rejects.body).contains("the catalog has no product \"\"NOPE\"\""))
            let record = try await client.execute(uri: "/api/imports/1", method: .get).json()
            #expect(record["status"] as? String == "finished" && record["rejectsURL"] as? String == "/api/imports/1/rejects")

            let ost = try await client.execute(uri: "/api/products?store=ost", method: .get)
            #expect(try ost.productIds() == ["P3"])
            // The products are as they were.
            #expect(try await client.execute(uri: "/api/products", method: .get).json()["count"] as? Int == 5)

            // An upsert changes the pairs it names and keeps the others.
            _ = try await client.execute(uri: "/api/imports?kind=stock&mode=upsert", method: .post, headers: csvUpload,
                                         body: ByteBuffer(string: "productId,store,quantity\nP3,Ost,0\nP5,Ost,1\n"))
            _ = try await client.execute(uri: "/api/imports/2/events", method: .get)
            #expect(try await client.execute(uri: "/api/products?store=ost", method: .get).productIds() == ["P5"])
            #expect(try await client.execute(uri: "/api/products?store=mitte", method: .get).productIds() == ["P1"])

            let wrongKind = try await client.execute(uri: "/api/imports?kind=prices", method: .post, headers: csvUpload, body: ByteBuffer(string: Self.stock))
            #expect(try wrongKind.status == .badRequest && wrongKind.errorFields()["kind"] != nil)
            let deleting = try await client.execute(uri: "/api/imports?kind=stock&mode=upsert&deleteMissing=true", method: .post, headers: csvUpload,
                                                    body: ByteBuffer(string: Self.stock))
            #expect(deleting.status == .badRequest)
            // A file that is not one fails in words, and the stock stays.
            _ = try await client.execute(uri: "/api/imports?kind=stock", method: .post, headers: csvUpload, body: ByteBuffer(string: "productId,quantity\nP1,3\n"))
            let failed = try ServerSentEvent.parse(try await client.execute(uri: "/api/imports/3/events", method: .get).text).last
            #expect(failed?.name == "failed" && (failed?.data["message"] as? String ?? "").contains("not a stock file"), "\(String(describing: failed?.data))")
            #expect(try await client.execute(uri: "/api/products?store=ost", method: .get).productIds() == ["P5"])
        }
    }

    /// The limit on rejected rows holds for an upload as for the command line, and so does the
    /// refusal of a file whose rows are all rejected: neither empties the stock.
    @Test func rejectedRowsStopAStockUploadAsTheyStopTheCommandLine() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.importCSV(SearchFilterRouteTests.csv)
        try await fixture.application().test(.router) { client in
            _ = try await client.execute(uri: "/api/imports?kind=stock", method: .post, headers: csvUpload,
                                         body: ByteBuffer(string: "productId,store,quantity\nP1,Ost,2\n"))
            _ = try await client.execute(uri: "/api/imports/1/events", method: .get)
            let unknown = "productId,store,quantity\nP3,Ost,1\n" + (0..<1_500).map { "NO-SUCH-\($0),Ost,1\n" }.joined()
            for (id, (query, body)) in [("", unknown), ("", "productId,store,quantity\nNO-SUCH-1,Ost,3\n"), ("&maxErrors=2000", unknown)].enumerated() {
                _ = try await client.execute(uri: "/api/imports?kind=stock" + query, method: .post, headers: csvUpload, body: ByteBuffer(string: body))
                let last = try #require(try ServerSentEvent.parse(try await client.execute(uri: "/api/imports/\(id + 2)/events", method: .get).text).last)
                #expect(last.name == (id == 2 ? "finished" : "failed"), "\(last.data)")
                #expect(try await client.execute(uri: "/api/products?store=ost", method: .get).productIds() == (id == 2 ? ["P3"] : ["P1"]))
            }
        }
    }

    @Test func aShopifyInventoryExportPreviewsAsStockOnly() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.importCSV(SearchFilterRouteTests.csv)
        try await fixture.application().test(.router) { client in
            let csv = "Handle,Title,Option1 Name,Option1 Value,SKU,Location,Available (not editable),On hand (new)\ntee,Tee,Size,M,T-M,Shop,3,3\n"
            let preview = try await client.execute(uri: "/api/imports/preview", method: .post, headers: csvUpload, body: ByteBuffer(string: csv))
            #expect(preview.status == .ok)
            let json = try preview.json()
            #expect((json["stock"] as? [String: Any])?["formatName"] as? String == "Shopify inventory export", "\(json)")
        }
    }
}
