import Foundation
import Hummingbird
import HummingbirdTesting
import ProductCatalog
import ProductCatalogPostgres
import Testing
@testable import CatalogServer

/// The PostgreSQL server the tests use, as `.ci/run` sets it; these tests are skipped without one.
let testPostgres = ProcessInfo.processInfo.environment["PRODUCTCATALOG_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }

/// `catalog serve` over a catalog on PostgreSQL: a local inventory file uploaded goes into its stock.
@Suite(.enabled(if: testPostgres != nil,
                "no PostgreSQL server: set PRODUCTCATALOG_TEST_POSTGRES=postgres://user@host:port/database (bash .ci/run starts one)"))
struct PostgresServerTests {
    @Test func aStockUploadGoesIntoTheStockOnPostgreSQL() async throws {
        let fixture = try ServerFixture(engine: .postgres, progressInterval: .milliseconds(1))
        defer { fixture.remove() }
        try await fixture.importCSV(SearchFilterRouteTests.csv)
        try await fixture.application().test(.router) { client in
            let upload = try await client.execute(uri: "/api/imports?kind=stock", method: .post, headers: csvUpload,
                                                  body: ByteBuffer(string: StockUploadRouteTests.stock))
            #expect(upload.status == .accepted)
            let finished = try #require(try ServerSentEvent.parse(try await client.execute(uri: "/api/imports/1/events", method: .get).text).last)
            #expect(finished.name == "finished" && finished.data["format"] as? String == "google-local-inventory", "\(finished.data)")
            #expect(finished.data["rowsRead"] as? Int == 4 && finished.data["rowsWritten"] as? Int == 2 && finished.data["rowsRejected"] as? Int == 2)
            #expect(finished.data["unknownProducts"] as? Int == 1 && finished.data["stockRows"] as? Int == 2 && finished.data["stores"] as? Int == 2)
            #expect((finished.data["catalog"] as? String ?? "").hasPrefix("postgres://"), "\(finished.data)")
            let rejects = try await client.execute(uri: "/api/imports/1/rejects", method: .get)
            #expect(String(buffer: rejects.body).contains("the catalog has no product \"\"NOPE\"\""))
            #expect(try await client.execute(uri: "/api/products?store=ost", method: .get).productIds() == ["P3"])
            let stock = try await client.execute(uri: "/api/products/P3/stock", method: .get).json()
            #expect((stock["stock"] as? [[String: Any]])?.map { "\($0["store"] ?? "") \($0["quantity"] ?? "")" } == ["Ost 5"])
            // A file that is not one fails in words, and the stock stays.
            _ = try await client.execute(uri: "/api/imports?kind=stock", method: .post, headers: csvUpload, body: ByteBuffer(string: "productId,quantity\nP1,3\n"))
            let failed = try ServerSentEvent.parse(try await client.execute(uri: "/api/imports/2/events", method: .get).text).last
            #expect(failed?.name == "failed" && (failed?.data["message"] as? String ?? "").contains("not a stock file"), "\(String(describing: failed?.data))")
            #expect(try await client.execute(uri: "/api/products?store=ost", method: .get).productIds() == ["P3"])
        }
    }
}
