import Foundation
import Hummingbird
import HummingbirdTesting
import ProductCatalog
import ProductCatalogPostgres
import Testing
@testable import CatalogServer

/// The PostgreSQL server the tests use, as `.ci/run` sets it; these tests are skipped without one.
let testPostgres = ProcessInfo.processInfo.environment["PRODUCTCATALOG_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }

/// `catalog serve` over a catalog on PostgreSQL: what it keeps and what it says it does not.
@Suite(.enabled(if: testPostgres != nil,
                "no PostgreSQL server: set PRODUCTCATALOG_TEST_POSTGRES=postgres://user@host:port/database (bash .ci/run starts one)"))
struct PostgresServerTests {
    @Test func aStockUploadSaysPostgreSQLKeepsNoStockByStore() async throws {
        let server = try #require(testPostgres)
        let schema = "pc_srv_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        let location = try PostgresLocation(url: server + (server.contains("?") ? "&" : "?") + "schema=" + schema)
        let folder = NSTemporaryDirectory() + "catalog-server-pg-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = PostgresCatalog(location: location, imagesFolder: folder + "/images")
        let imports = ImportCoordinator(workDirectory: folder, store: store)
        try await Application(router: buildRouter(store: store, imports: imports, maxUploadBytes: 1 << 20)).test(.router) { client in
            let upload = try await client.execute(uri: "/api/imports?kind=stock", method: .post, headers: csvUpload,
                                                  body: ByteBuffer(string: "productId,store,quantity\nA1,Berlin,3\n"))
            #expect(upload.status == .notImplemented)
            let message = try #require((try upload.json()["error"] as? [String: Any])?["message"] as? String)
            #expect(message.contains("PostgreSQL, which keeps no stock by store"), "\(message)")
            // The slot is free: the refusal came before the upload was taken.
            let next = try await client.execute(uri: "/api/imports?kind=stock", method: .post, headers: csvUpload,
                                                body: ByteBuffer(string: "productId,store,quantity\nA1,Berlin,3\n"))
            #expect(next.status == .notImplemented)
        }
        await store.close()
    }
}
