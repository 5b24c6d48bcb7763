import Foundation
import Testing
@testable import ProductCatalog
@testable import ProductCatalogHTTP

/// Imports from a test HTTP server on 127.0.0.1: every case a supplier's server can present, each
/// through the importer's background job as `catalog import URL` runs it.
@Suite struct URLImportTests {
    let plain = SourceTestData.productCSV(rows: 3_000)
    let server: TestHTTPServer
    /// The catalog every URL import must produce: the same bytes imported from memory.
    let expected: [Product]
    let expectedSummary: ImportSummary
    let reference: CatalogFixture

    init() throws {
        let compressed = try SourceTestData.gzip(plain)
        server = try TestHTTPServer(routes: [
            "/products.csv": .body(plain),
            "/products.csv.gz": .body(compressed, contentType: "application/gzip"),
            "/chunked.csv": .chunked(plain, chunkSize: 1_000),
            "/moved.csv": .redirect(to: "/products.csv", status: 301),
            "/moved-twice.csv": .redirect(to: "/moved.csv"),
            "/loop.csv": .redirect(to: "/loop.csv"),
            "/cut.csv": .cutOff(plain, sent: plain.count / 2),
            "/stall.csv": .stall(plain, sent: 1_000),
            "/private.csv": .status(403, reason: "Forbidden"),
            "/broken.csv": .status(500, reason: "Internal Server Error"),
        ])
        reference = try CatalogFixture()
        expectedSummary = try CatalogImporter(options: reference.options).run(source: MemoryByteSource(plain))
        expected = try reference.allProducts(pageSize: 1_000)
    }

    /// Imports `path` from the server into a fresh catalog; returns the summary, every progress
    /// snapshot and the fixture to read the catalog back.
    func importURL(_ path: String, timeout: Duration = .seconds(10), into fixture: CatalogFixture? = nil)
        async throws -> (summary: ImportSummary, progress: [ImportProgress], fixture: CatalogFixture)
    {
        let fixture = try fixture ?? CatalogFixture()
        let input = InputSource.url(server.url(path), options: HTTPByteSource.Options(timeout: timeout))
        let job = CatalogImporter(options: fixture.options).start(input: input)
        var snapshots: [ImportProgress] = []
        for await snapshot in job.progress { snapshots.append(snapshot) }
        return (try await job.summary, snapshots, fixture)
    }

    /// Imports `path` expecting it to fail; returns the error's message and checks that an
    /// existing catalog was left exactly as it was.
    func failure(importing path: String, timeout: Duration = .seconds(10)) async throws -> String {
        let fixture = try CatalogFixture()
        _ = try CatalogImporter(options: fixture.options).run(source: MemoryByteSource(Array("sku,name\nOLD1,kept\n".utf8)))
        let error = await #expect(throws: ImportError.self) {
            _ = try await importURL(path, timeout: timeout, into: fixture)
        }
        #expect(try fixture.allProducts().map(\.productId) == ["OLD1"], "the old catalog must stay")
        guard case .source(let sourceError)? = error else {
            Issue.record("expected a source error, got \(String(describing: error))")
            return ""
        }
        #expect(sourceError.source == server.url(path).absoluteString)
        return sourceError.reason
    }

    func expectSameCatalog(_ result: (summary: ImportSummary, progress: [ImportProgress], fixture: CatalogFixture)) throws {
        #expect(try result.fixture.allProducts(pageSize: 1_000) == expected)
        #expect(result.summary.rowsRead == expectedSummary.rowsRead)
        #expect(result.summary.rowsInserted == expectedSummary.rowsInserted)
        #expect(result.summary.duplicates == expectedSummary.duplicates)
        #expect(result.summary.rowsRejected == expectedSummary.rowsRejected)
    }

    @Test func aPlainCSVImportsWithProgressOverItsContentLength() async throws {
        defer { server.stop() }
        let result = try await importURL("/products.csv")
        try expectSameCatalog(result)
        #expect(result.summary.bytesRead == plain.count)
        let loading = result.progress.filter { $0.phase != .finished && $0.totalBytes != nil }
        #expect(!loading.isEmpty)
        #expect(loading.allSatisfy { $0.totalBytes == plain.count })
    }

    @Test func aGzipCSVImportsWithProgressInCompressedBytes() async throws {
        defer { server.stop() }
        let compressedSize = try SourceTestData.gzip(plain).count
        let result = try await importURL("/products.csv.gz")
        try expectSameCatalog(result)
        #expect(result.summary.bytesRead == compressedSize)
        #expect(result.progress.contains { $0.totalBytes == compressedSize })
        #expect(result.progress.allSatisfy { $0.bytesRead <= compressedSize })
    }

    @Test func aChunkedResponseWithoutContentLengthImportsWithoutAPercentage() async throws {
        defer { server.stop() }
        let result = try await importURL("/chunked.csv")
        try expectSameCatalog(result)
        #expect(result.summary.bytesRead == plain.count)
        // While reading, the length is unknown, so no share of it can be given; once the whole
        // body is read (writing, finishing) it is known, whatever the response said.
        let loading = result.progress.filter { $0.phase == .loading }
        #expect(!loading.isEmpty)
        #expect(loading.allSatisfy { $0.totalBytes == nil && $0.fractionCompleted == nil })
    }

    @Test func redirectsAreFollowed() async throws {
        defer { server.stop() }
        let result = try await importURL("/moved-twice.csv")
        try expectSameCatalog(result)
        #expect(server.requestedPaths == ["/moved-twice.csv", "/moved.csv", "/products.csv"])
    }

    @Test func theRedirectLimitOfAnArgumentRidesAlongWithTheURL() async throws {
        defer { server.stop() }
        let fixture = try CatalogFixture()
        let input = InputSource(argument: server.url("/moved-twice.csv").absoluteString, httpOptions: .init(maxRedirects: 1))
        #expect(input.kind == .url)
        let error = await #expect(throws: ImportError.self) {
            _ = try await CatalogImporter(options: fixture.options).start(input: input).summary
        }
        guard case .source(let sourceError)? = error else {
            Issue.record("expected a source error, got \(String(describing: error))")
            return
        }
        #expect(sourceError.reason == "more than 1 redirect; the server may redirect in a loop")
    }

    @Test func aRedirectLoopIsAClearError() async throws {
        defer { server.stop() }
        let reason = try await failure(importing: "/loop.csv")
        #expect(reason == "the server redirects in a loop")
    }

    @Test func aMissingFileIsAClearErrorWithItsStatus() async throws {
        defer { server.stop() }
        let missing = try await failure(importing: "/missing.csv")
        #expect(missing == "the server answered 404 Not Found (no such file on the server)")
        let forbidden = try await failure(importing: "/private.csv")
        #expect(forbidden == "the server answered 403 Forbidden (access denied)")
        let broken = try await failure(importing: "/broken.csv")
        #expect(broken == "the server answered 500 Internal Server Error (the server failed)")
    }

    @Test func aBodyCutOffHalfwayIsAClearErrorWithTheCounts() async throws {
        defer { server.stop() }
        let reason = try await failure(importing: "/cut.csv")
        #expect(reason == HTTPByteSource.endedEarly(plain.count / 2, of: plain.count))
    }

    @Test func aServerThatStallsTimesOut() async throws {
        defer { server.stop() }
        let reason = try await failure(importing: "/stall.csv", timeout: .milliseconds(300))
        #expect(reason == "the server sent nothing for 0.3 s (after 1000 bytes of the body); it may be stalled: try again, or allow a longer timeout")
    }

    @Test func aServerThatIsNotThereIsAClearError() async throws {
        let path = "/products.csv"
        server.stop()
        let reason = try await failure(importing: path)
        #expect(reason == "cannot connect: connection refused (is the server running, and is the port right?)")
    }
}
