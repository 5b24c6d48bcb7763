import Foundation
import Hummingbird
import HummingbirdTesting
import ProductCatalog
import Testing
@testable import CatalogServer

/// A catalog in a fresh temporary folder and the real `catalog serve` router over it.
struct ServerFixture {
    let folder: String
    let databasePath: String
    let store: SQLiteCatalog
    let imports: ImportCoordinator
    let maxUploadBytes: Int

    init(maxUploadBytes: Int = 1 << 30, progressInterval: Duration = .milliseconds(100)) throws {
        var template = Array((NSTemporaryDirectory() + "catalog-server-tests.XXXXXX").utf8CString)
        folder = String(cString: try #require(mkdtemp(&template)))
        databasePath = folder + "/catalog.sqlite"
        let work = folder + "/work"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: false)
        store = SQLiteCatalog(databasePath: databasePath)
        imports = ImportCoordinator(workDirectory: work, store: store, progressInterval: progressInterval)
        self.maxUploadBytes = maxUploadBytes
    }

    /// The application the tests send requests to, built by the same function `catalog serve` uses.
    func application() -> some ApplicationProtocol {
        Application(router: buildRouter(store: store, imports: imports, maxUploadBytes: maxUploadBytes))
    }

    /// Imports `csv` into the catalog the way `catalog import` does, outside the server.
    @discardableResult
    func importCSV(_ csv: String) throws -> ImportSummary {
        let path = folder + "/import-\(UUID().uuidString).csv"
        try Data(csv.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return try CatalogImporter(options: ImportOptions(databasePath: databasePath)).run(source: try FileByteSource(path: path))
    }

    /// The productIds in the catalog file now, read with a connection of the test's own.
    func storedIds() throws -> [String] {
        let connection = try Connection(path: databasePath, mode: .readOnly)
        let statement = try connection.prepare("SELECT productId FROM products ORDER BY productId")
        var ids: [String] = []
        while try statement.step() { ids.append(statement.text(at: 0) ?? "") }
        return ids
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: folder)
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
