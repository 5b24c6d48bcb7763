import Foundation
import Hummingbird
import Logging
import NIOEmbedded
import ProductCatalog
import Testing
@testable import CatalogServer

/// Pictures, collection files and previews stream to disk as they arrive: a client that stops
/// sending holds no memory and no file, and gets a 408 once the stall timeout passes. (The
/// memory they take with hundreds of stalled clients is Benchmarks/slow-clients.sh's to measure.)
@Suite struct StalledBodyTests {
    @Test(arguments: [
        ("/api/products/P-000/image", HTTPRequest.Method.put, "image/png"),
        ("/api/collections/import", .post, "text/csv"),
        ("/api/imports/preview", .post, "text/csv"),
    ])
    func aStalledBodyIs408AndLeavesNoFile(path: String, method: HTTPRequest.Method, contentType: String) async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 1))
        let responder = buildRouter(store: fixture.store, imports: fixture.imports, maxUploadBytes: 1 << 30,
                                    uploadStallTimeout: .milliseconds(200)).buildResponder()
        let body = HeldBody()
        // The start of a file, then nothing.
        body.send(ByteBuffer(bytes: contentType == "image/png" ? PageFeatureRouteTests.png : Array("collection,productId\nSummer,P-000\n".utf8)))
        let request = Request(head: .init(method: method, scheme: "http", authority: "localhost", path: path,
                                          headerFields: [.contentType: contentType, .contentLength: "4000000"]),
                              body: RequestBody(asyncSequence: body))
        let context = BasicRequestContext(source: .init(channel: NIOAsyncTestingChannel(), logger: Logger(label: "test")))
        let response = try await responder.respond(to: request, context: context)
        #expect(response.status == .requestTimeout)
        body.finish()
        let work = try FileManager.default.contentsOfDirectory(atPath: fixture.folder + "/work")
        let pictures = (try? FileManager.default.contentsOfDirectory(atPath: fixture.imports.pictures.path)) ?? []
        #expect(work.isEmpty && pictures.isEmpty, "\(work) \(pictures)")
    }
}
