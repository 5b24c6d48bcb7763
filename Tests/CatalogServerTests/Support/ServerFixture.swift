import Foundation
import Hummingbird
import HummingbirdTesting
import ProductCatalog
@testable import ProductCatalogPostgres
import Testing
@testable import CatalogServer

/// The engines a route test runs on: a catalog file always, and PostgreSQL where
/// `PRODUCTCATALOG_TEST_POSTGRES` names a server (as `.ci/run` sets it).
enum TestEngine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    static var available: [TestEngine] { testPostgres == nil ? [.sqlite] : [.sqlite, .postgres] }

    var testDescription: String { rawValue }
}

/// A catalog in a fresh temporary folder (or a fresh schema on the PostgreSQL test server) and
/// the real `catalog serve` router over it.
struct ServerFixture {
    let engine: TestEngine
    let folder: String
    /// The catalog file, for a test on SQLite.
    let databasePath: String
    let store: any CatalogEngine
    let imports: ImportCoordinator
    let maxUploadBytes: Int
    /// The catalog's location, on PostgreSQL.
    let location: PostgresLocation?

    init(engine: TestEngine = .sqlite, maxUploadBytes: Int = 1 << 30, progressInterval: Duration = .milliseconds(100)) throws {
        var template = Array((NSTemporaryDirectory() + "catalog-server-tests.XXXXXX").utf8CString)
        folder = String(cString: try #require(mkdtemp(&template)))
        databasePath = folder + "/catalog.sqlite"
        let work = folder + "/work"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: false)
        self.engine = engine
        switch engine {
        case .sqlite:
            store = SQLiteCatalog(databasePath: databasePath)
            location = nil
        case .postgres:
            let server = try #require(testPostgres)
            let schema = "pc_route_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
            let location = try PostgresLocation(url: server + (server.contains("?") ? "&" : "?") + "schema=" + schema)
            store = PostgresCatalog(location: location, imagesFolder: folder + "/images")
            self.location = location
        }
        imports = ImportCoordinator(workDirectory: work, store: store, progressInterval: progressInterval)
        self.maxUploadBytes = maxUploadBytes
    }

    /// The application the tests send requests to, built by the same function `catalog serve` uses.
    func application() -> some ApplicationProtocol {
        Application(router: buildRouter(store: store, imports: imports, maxUploadBytes: maxUploadBytes))
    }

    /// Imports `csv` into the catalog the way `catalog import` does, outside the server.
    @discardableResult
    func importCSV(_ csv: String) async throws -> ImportSummary {
        let path = folder + "/import-\(UUID().uuidString).csv"
        try Data(csv.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var options = ImportOptions(databasePath: databasePath)
        options.rejectsPath = path + ".rejects.csv"
        let job = CatalogImporter(options: options).start(input: .file(path: path), into: { [store, options] in store.makeSink(for: options) })
        for await _ in job.progress {}
        let summary = try await job.summary
        await store.catalogReplaced()
        return summary
    }

    /// The productIds in the catalog now, in productId order, read on a connection of the test's own.
    func storedIds() async throws -> [String] {
        switch engine {
        case .sqlite:
            let connection = try Connection(path: databasePath, mode: .readOnly)
            let statement = try connection.prepare("SELECT productId FROM products ORDER BY productId")
            var ids: [String] = []
            while try statement.step() { ids.append(statement.text(at: 0) ?? "") }
            return ids
        case .postgres:
            let search = try await PostgresProductSearch.open(try #require(location))
            var ids: [String] = []
            var cursor: KeysetCursor?
            repeat {
                let page = try await search.page(SearchRequest(listing: .variants), after: cursor, limit: 1_000)
                ids += page.products.map(\.productId)
                cursor = page.nextCursor
            } while cursor != nil
            await search.close()
            return ids
        }
    }

    /// Every product of the catalog, in productId order, read on a connection of the test's own.
    func allProducts() async throws -> [Product] {
        var products: [Product] = []
        var cursor: KeysetCursor?
        switch engine {
        case .sqlite:
            let search = try ProductSearch(databasePath: databasePath)
            repeat {
                let page = try search.page(prefix: "", listing: .variants, after: cursor, limit: 100)
                products += page.products
                cursor = page.nextCursor
            } while cursor != nil
        case .postgres:
            let search = try await PostgresProductSearch.open(try #require(location))
            repeat {
                let page = try await search.page(SearchRequest(listing: .variants), after: cursor, limit: 100)
                products += page.products
                cursor = page.nextCursor
            } while cursor != nil
            await search.close()
        }
        return products
    }

    /// Removes the folder, and on PostgreSQL the catalog's schema (in the background: a test ends without waiting for it).
    func remove() {
        try? FileManager.default.removeItem(atPath: folder)
        if let location {
            let store = store
            Task {
                await store.close()
                guard let session = try? await PostgresSession.open(location) else { return }
                try? await session.execute("DROP SCHEMA IF EXISTS \(PostgresSchema.quote(location.schema)) CASCADE", doing: "drop the test schema")
                await session.close()
            }
        }
    }
}

/// A CSV of products `PREFIX-000`, `PREFIX-001`, … with a title and a list price.
func productsCSV(prefix: String, count: Int) -> String {
    "productId,title,listPrice\n" + productRows(prefix: prefix, count: count)
}

/// The data rows of ``productsCSV(prefix:count:)``.
func productRows(prefix: String, count: Int) -> String {
    (0..<count).map { "\(prefix)-\(String(format: "%03d", $0)),Product \($0),\($0 + 1).50\n" }.joined()
}

/// The headers the page sends with an upload.
let csvUpload: HTTPFields = [.contentType: "text/csv"]

extension TestResponse {
    /// The body as a JSON object.
    func json() throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(body.readableBytesView)) as? [String: Any], "not a JSON object: \(text)")
    }

    /// The body as text.
    var text: String { String(buffer: body) }

    /// The `error.fields` of a JSON error answer.
    func errorFields() throws -> [String: String] {
        let error = try #require(try json()["error"] as? [String: Any], "not an error answer: \(text)")
        #expect(error["message"] is String)
        return try #require(error["fields"] as? [String: String])
    }

    /// The `productId`s of a page answer.
    func productIds() throws -> [String] {
        try #require(try json()["products"] as? [[String: Any]]).compactMap { $0["productId"] as? String }
    }
}

extension TestClientProtocol {
    /// Sends `object` as a JSON body.
    func send(_ uri: String, _ method: HTTPRequest.Method, json object: [String: Any?]) async throws -> TestResponse {
        let data = try JSONSerialization.data(withJSONObject: object.mapValues { $0 ?? NSNull() })
        return try await execute(uri: uri, method: method, headers: [.contentType: "application/json"], body: ByteBuffer(bytes: data))
    }
}
