import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOHTTP1
import Testing
@testable import CatalogServer
@testable import ProductCatalog
@testable import ProductCatalogPostgres

/// The attacks a page on another site, or a careless client, can make: each is refused and changes nothing.
@Suite(.serialized) struct SecurityRouteTests {

    static let product = #"{"productId":"EVIL-1","title":"Planted"}"#

    @Test(arguments: TestEngine.available) func anotherSitesWritesAreRefusedWhateverTheirContentType(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 3))
        try await fixture.application().test(.router) { client in
            let attempts: [(String, HTTPRequest.Method, HTTPFields, String)] = [
                ("/api/imports", .post, [.contentType: "application/x-www-form-urlencoded", .origin: "http://evil.example"], "productId\nX\n"),
                ("/api/imports", .post, [.contentType: "text/csv", .origin: "http://evil.example"], "productId\nX\n"),
                ("/api/imports", .post, [.contentType: "text/csv", .secFetchSite: "cross-site"], "productId\nX\n"),
                ("/api/products", .post, [.contentType: "text/plain", .origin: "http://evil.example"], Self.product),
                ("/api/products", .post, [.contentType: "application/json", .origin: "null"], Self.product),
                ("/api/products", .post, [.contentType: "application/json", .secFetchSite: "same-site"], Self.product),
                ("/api/products/P-000", .delete, [.origin: "http://evil.example"], ""),
                ("/api/products/P-000", .put, [.contentType: "application/json", .origin: "http://127.0.0.1:9999"], Self.product),
            ]
            for (uri, method, headers, body) in attempts {
                let response = try await client.execute(uri: uri, method: method, headers: headers, body: ByteBuffer(string: body))
                #expect(response.status == .forbidden, "\(method) \(uri) \(headers)")
                #expect(try response.errorFields().isEmpty)
            }
        }
        #expect(try await fixture.storedIds() == ["P-000", "P-001", "P-002"])
    }

    /// Another site must not frame the page (a framed page's clicks are same-origin requests):
    /// every answer, the page's, the API's and its errors alike, forbids it.
    @Test(arguments: TestEngine.available) func noAnswerMayBeFramedByAnotherPage(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 3))
        try await fixture.application().test(.router) { client in
            for (uri, method) in [("/", HTTPRequest.Method.get), ("/app.js", .get), ("/api/products", .get), ("/api/products/P-001", .get),
                                  ("/api/products/NOPE", .get), ("/api/nothing-here", .get), ("/api/products/P-001", .delete), ("/", .head)] {
                let response = try await client.execute(uri: uri, method: method)
                #expect(response.headers[.xFrameOptions] == "DENY", "\(method) \(uri)")
                #expect(response.headers[HTTPField.Name("Content-Security-Policy")!]?.contains("frame-ancestors 'none'") == true, "\(method) \(uri)")
            }
        }
    }

    @Test func aRequestNamingAnotherHostIsRefusedEvenToRead() {
        let guarded = SameOriginGuard<BasicRequestContext>(names: ServedNames(listeningOn: "127.0.0.1"))
        // DNS rebinding: the attacker's name resolves to 127.0.0.1, and the browser sends it as Host.
        #expect(guarded.refusal(method: .get, host: "evil.example:8080", origin: nil, fetchSite: nil)?.status == .forbidden)
        #expect(guarded.refusal(method: .get, host: "127.0.0.1.evil.example", origin: nil, fetchSite: nil)?.status == .forbidden)
        #expect(guarded.refusal(method: .get, host: "192.168.1.5:8080", origin: nil, fetchSite: nil)?.status == .forbidden)
        for host in ["127.0.0.1:8080", "localhost:8080", "[::1]:8080", "LOCALHOST"] {
            #expect(guarded.refusal(method: .get, host: host, origin: nil, fetchSite: nil) == nil, "\(host)")
        }
        #expect(guarded.refusal(method: .post, host: "127.0.0.1:8080", origin: "http://127.0.0.1:8080", fetchSite: "same-origin") == nil)
        #expect(guarded.refusal(method: .post, host: "127.0.0.1:8080", origin: "http://localhost:8080", fetchSite: nil)?.status == .forbidden)
        #expect(guarded.refusal(method: .post, host: nil, origin: "http://evil.example", fetchSite: nil)?.status == .forbidden)
        #expect(guarded.refusal(method: .post, host: nil, origin: "http://localhost:8080", fetchSite: nil) == nil)
    }

    @Test func onEveryAddressTheServerAnswersToAddressesAndItsOwnNamesNeverToAnyName() {
        let open = SameOriginGuard<BasicRequestContext>(names: ServedNames(listeningOn: "0.0.0.0"))
        // The rebinding request that a server on 0.0.0.0 used to answer (204).
        #expect(open.refusal(method: .delete, host: "evil.example:8080", origin: "http://evil.example:8080", fetchSite: "same-origin")?.status == .forbidden)
        #expect(open.refusal(method: .get, host: "evil.example:8080", origin: nil, fetchSite: nil)?.status == .forbidden)
        #expect(open.refusal(method: .get, host: "shop.lan:8080", origin: nil, fetchSite: nil)?.status == .forbidden)
        #expect(open.refusal(method: .get, host: "1.2.3.4.evil.example", origin: nil, fetchSite: nil)?.status == .forbidden)
        for host in ["192.168.1.5:8080", "10.0.0.7", "[fe80::1]:8080", "127.0.0.1:8080", "localhost:8080"] {
            #expect(open.refusal(method: .get, host: host, origin: nil, fetchSite: nil) == nil, "\(host)")
        }
        #expect(open.refusal(method: .post, host: "192.168.1.5:8080", origin: "http://192.168.1.5:8080", fetchSite: "same-origin") == nil)
        #expect(open.refusal(method: .post, host: "192.168.1.5:8080", origin: "http://evil.example", fetchSite: nil)?.status == .forbidden)
        // A name given by --host or --public-url is one of its names.
        let named = SameOriginGuard<BasicRequestContext>(names: ServedNames(listeningOn: "0.0.0.0", publicURL: "http://shop.lan:8080"))
        #expect(named.refusal(method: .get, host: "shop.lan:8080", origin: nil, fetchSite: nil) == nil)
        #expect(named.refusal(method: .get, host: "other.lan:8080", origin: nil, fetchSite: nil)?.status == .forbidden)
        let listening = SameOriginGuard<BasicRequestContext>(names: ServedNames(listeningOn: "shop.lan"))
        #expect(listening.refusal(method: .get, host: "shop.lan:8080", origin: nil, fetchSite: nil) == nil)
        #expect(listening.refusal(method: .get, host: "192.168.1.5:8080", origin: nil, fetchSite: nil)?.status == .forbidden)
    }

    @Test func behindAnHTTPSProxyThePagesWritesAreAcceptedFromThePublicOrigin() {
        let proxied = SameOriginGuard<BasicRequestContext>(names: ServedNames(listeningOn: "127.0.0.1", publicURL: "https://Catalog.example.com/"))
        // nginx's default forwards the upstream's own address as Host; `proxy_set_header Host $host` forwards the public name.
        for host in ["127.0.0.1:8080", "catalog.example.com"] {
            #expect(proxied.refusal(method: .post, host: host, origin: "https://catalog.example.com", fetchSite: "same-origin") == nil, "\(host)")
            #expect(proxied.refusal(method: .post, host: host, origin: "http://catalog.example.com", fetchSite: nil)?.status == .forbidden, "\(host)")
            #expect(proxied.refusal(method: .post, host: host, origin: "https://evil.example", fetchSite: nil)?.status == .forbidden, "\(host)")
        }
        #expect(proxied.refusal(method: .get, host: "evil.example", origin: nil, fetchSite: nil)?.status == .forbidden)
        // Without --public-url the refusal says what to do.
        let unaware = SameOriginGuard<BasicRequestContext>(names: ServedNames(listeningOn: "catalog.example.com"))
        let refusal = unaware.refusal(method: .post, host: "catalog.example.com", origin: "https://catalog.example.com", fetchSite: "same-origin")
        #expect(refusal?.status == .forbidden)
        #expect(refusal?.message.contains("--public-url https://catalog.example.com") == true)
    }

    @Test func aPublicURLIsReadAsAnOriginOrRefused() {
        let origins: [(String, String?)] = [
            ("https://catalog.example.com", "https://catalog.example.com"),
            ("HTTPS://Catalog.Example.com/", "https://catalog.example.com"),
            ("https://catalog.example.com:443", "https://catalog.example.com"),
            ("http://shop-pc:8080", "http://shop-pc:8080"),
            ("http://shop-pc:80/", "http://shop-pc"),
            ("http://[fe80::1]:8080", "http://[fe80::1]:8080"),
            ("https://catalog.example.com/catalog", nil),
            ("https://user@catalog.example.com", nil),
            ("ftp://catalog.example.com", nil),
            ("catalog.example.com", nil),
            ("https://", nil),
            ("https://catalog.example.com:x", nil),
            ("https://catalog.example.com:", nil),
            ("http://fe80::1", nil),
        ]
        for (text, origin) in origins {
            #expect(ServedNames.origin(ofPublicURL: text) == origin, "\(text)")
        }
    }

    @Test(arguments: TestEngine.available) func writesFromThePageItselfAreAccepted(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            // The router test client names the server `localhost`, as a browser on the page would.
            let headers: HTTPFields = [.origin: "http://localhost", .secFetchSite: "same-origin", .contentType: "application/json"]
            let added = try await client.execute(uri: "/api/products", method: .post, headers: headers, body: ByteBuffer(string: Self.product))
            #expect(added.status == .created)
        }
    }

    @Test(arguments: TestEngine.available) func bodiesOfTheWrongTypeAre415(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let form = try await client.execute(uri: "/api/imports", method: .post, headers: [.contentType: "multipart/form-data; boundary=x"], body: ByteBuffer(string: "productId\nX\n"))
            #expect(form.status == .unsupportedMediaType)
            let plain = try await client.execute(uri: "/api/products", method: .post, headers: [.contentType: "text/plain"], body: ByteBuffer(string: Self.product))
            #expect(plain.status == .unsupportedMediaType)
            let none = try await client.execute(uri: "/api/products", method: .post, body: ByteBuffer(string: Self.product))
            #expect(none.status == .unsupportedMediaType)
            let json = try await client.execute(uri: "/api/products", method: .post, headers: [.contentType: "application/json; charset=utf-8"], body: ByteBuffer(string: Self.product))
            #expect(json.status == .created)
        }
    }

    @Test(arguments: TestEngine.available) func headAnswersWhereGetDoes(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 1))
        try await fixture.application().test(.router) { client in
            for uri in ["/", "/app.js", "/api/products", "/api/products/P-000"] {
                let response = try await client.execute(uri: uri, method: .head)
                #expect(response.status == .ok, "HEAD \(uri)")
                #expect(response.body.readableBytes == 0)
            }
        }
    }

    @Test(arguments: TestEngine.available) func aJSONBodyOverTheLimitIs413AndHugeErrorsStaySmall(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 1))
        try await fixture.application().test(.router) { client in
            let big = #"{"productId":"B","title":""# + String(repeating: "x", count: 3 << 20) + #""}"#
            let tooLarge = try await client.execute(uri: "/api/products", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: big))
            #expect(tooLarge.status == .contentTooLarge)
            #expect(!tooLarge.text.contains("NIO"))

            var object: [String: Any?] = ["productId": "U-1", "title": "Unknown keys"]
            for index in 0..<1_500 { object["unknown\(index)"] = "v" }
            let unknown = try await client.send("/api/products", .post, json: object)
            #expect(unknown.status == .unprocessableContent)
            #expect(unknown.body.readableBytes < 10_000)
            #expect(try unknown.errorFields().count == APIError.maxFields)
            #expect(unknown.text.contains("1480 more fields"))

            // More keys than a table can have columns are refused before any field is looked at.
            for index in 1_500..<20_000 { object["unknown\(index)"] = "v" }
            let tooMany = try await client.send("/api/products", .post, json: object)
            #expect(tooMany.status == .unprocessableContent)
            #expect(tooMany.body.readableBytes < 1_000)
            #expect(tooMany.text.contains("The body has 20002 keys; a product has at most \(ProductRequestBody.maxKeys)"))
        }
    }

    @Test func aMalformedBodyIsA400WithoutInternals() throws {
        let request = Request(head: HTTPRequest(method: .post, scheme: nil, authority: nil, path: "/api/imports"), body: .init(buffer: ByteBuffer()))
        let answer = JSONErrorMiddleware<BasicRequestContext>.answer(
            for: HTTPParserError.invalidChunkSize, request: request,
            logger: Logger(label: "test"))
        #expect(answer.status == .badRequest)
        #expect(!answer.message.contains("invalidChunkSize"))
    }

    @Test func aFullDiskIs507AndAReadOnlyOne503WithoutSQLiteInternals() {
        let full = APIError(EditError.database(path: "/srv/catalog.sqlite", SQLiteError(extendedCode: 13, message: "database or disk is full", sql: "INSERT …")))
        #expect(full.status.code == 507)
        let readOnly = APIError(EditError.database(path: "/srv/catalog.sqlite", SQLiteError(extendedCode: 8, message: "attempt to write a readonly database", sql: "UPDATE …")))
        #expect(readOnly.status == .serviceUnavailable)
        for answer in [full, readOnly] {
            #expect(!answer.message.contains("/srv") && !answer.message.contains("INSERT") && !answer.message.contains("UPDATE"))
        }
    }

    @Test(arguments: TestEngine.available) func anEditDuringAnImportIsRefusedWithA409NotLost(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 1))
        try await fixture.application().test(.router) { client in
            // An import holds the catalog's import lock: a lock file beside a catalog file, an
            // advisory lock of its session on PostgreSQL.
            let session = engine == .postgres ? try await PostgresSession.open(try #require(fixture.location)) : nil
            if let session, let location = fixture.location {
                try await session.execute("SELECT pg_advisory_lock(\(PostgresSchema.lockKey(schema: location.schema)))", doing: "hold the import lock")
            }
            do {
                let lock = engine == .sqlite ? try ImportLock(importInto: fixture.databasePath) : nil
                let refused = try await client.send("/api/products", .post, json: ["productId": "HAND-1", "title": "By hand"])
                #expect(refused.status == .conflict)
                #expect(refused.headers[.retryAfter] != nil)
                #expect(refused.text.contains("import"))
                withExtendedLifetime(lock) {}
            }
            // Released by the statement itself: a closed session's locks go only when the server notices.
            if let session, let location = fixture.location {
                try await session.execute("SELECT pg_advisory_unlock(\(PostgresSchema.lockKey(schema: location.schema)))", doing: "release the import lock")
            }
            await session?.close()
            let accepted = try await client.send("/api/products", .post, json: ["productId": "HAND-1", "title": "By hand"])
            #expect(accepted.status == .created)
        }
    }

    @Test func aSearchAnswersWhileAnotherProgramHoldsTheWriteLockAndAnEditGets503() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 3))
        let other = try Connection(path: fixture.databasePath, mode: .readWrite)
        try other.execute("BEGIN IMMEDIATE; INSERT INTO products (productId, title) VALUES ('OTHER', 'Uncommitted')")
        defer { try? other.execute("ROLLBACK") }
        try await fixture.application().test(.router) { client in
            async let edit = client.send("/api/products", .post, json: ["productId": "HAND-1", "title": "By hand"])
            let search = try await client.execute(uri: "/api/products?prefix=p", method: .get)
            #expect(search.status == .ok)
            #expect(try search.productIds() == ["P-000", "P-001", "P-002"])
            let refused = try await edit
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.headers[.retryAfter] == "1")
        }
    }

    @Test func aReadOnlyCatalogRefusesEditsWith503AndStillAnswersSearches() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 2))
        #expect(chmod(fixture.databasePath, 0o444) == 0)
        try await fixture.application().test(.router) { client in
            let refused = try await client.send("/api/products", .post, json: ["productId": "HAND-1", "title": "By hand"])
            #expect(refused.status == .serviceUnavailable)
            #expect(try await client.execute(uri: "/api/products", method: .get).productIds() == ["P-000", "P-001"])
        }
    }

    @Test func resultsAndErrorsNameNoServerPath() async throws {
        let fixture = try ServerFixture(progressInterval: .milliseconds(1))
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            _ = try await client.execute(uri: "/api/imports", method: .post, headers: csvUpload, body: ByteBuffer(string: "productId,price\nA,1\nB,x\n"))
            let finished = try await client.execute(uri: "/api/imports/1/events", method: .get)
            #expect(finished.text.contains("\"rejects\":\"/api/imports/1/rejects\""))
            _ = try await client.execute(uri: "/api/imports", method: .post, headers: csvUpload, body: ByteBuffer(string: "name,price\nMug,1\n"))
            let failed = try await client.execute(uri: "/api/imports/2/events", method: .get)
            #expect(failed.text.contains("event: failed"))
            for text in [finished.text, failed.text] {
                #expect(!text.contains(fixture.folder), "\(text)")
            }
        }
    }

    @Test(arguments: TestEngine.available) func aStalledUploadIs408AndFreesTheSlot(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        let (stream, continuation) = AsyncStream.makeStream(of: ByteBuffer.self)
        continuation.yield(ByteBuffer(string: "productId\n"))
        let path = fixture.folder + "/stalled.csv"
        await #expect {
            try await UploadFile.write(RequestBody(asyncSequence: stream), to: path, limit: 1 << 20, stallTimeout: .milliseconds(200))
        } throws: { error in
            (error as? APIError)?.status == .requestTimeout
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        continuation.finish()
    }

    @Test func theFoldersOfKilledServersAreRemovedAtTheNextStart() throws {
        // A process that has ended: its id names no running process any more.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let prefix = "catalog-serve-test-\(UUID().uuidString.prefix(8))"
        let abandoned = NSTemporaryDirectory() + "\(prefix).\(ended.processIdentifier).abc123"
        let ours = NSTemporaryDirectory() + "\(prefix).\(getpid()).def456"
        for folder in [abandoned, ours] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            FileManager.default.createFile(atPath: folder + "/import-3.csv", contents: Data("partial".utf8))
        }
        defer { try? FileManager.default.removeItem(atPath: ours) }
        TemporaryFolder.removeAbandoned(prefix: prefix)
        #expect(!FileManager.default.fileExists(atPath: abandoned))
        #expect(FileManager.default.fileExists(atPath: ours + "/import-3.csv"))
    }
}
