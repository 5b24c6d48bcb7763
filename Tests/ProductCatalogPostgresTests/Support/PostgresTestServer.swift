import FeedGenerator
import Foundation
import ProductCatalog
@testable import ProductCatalogPostgres
import Testing

/// The PostgreSQL server the tests use: `PRODUCTCATALOG_TEST_POSTGRES=postgres://…` (as `.ci/run`
/// sets it for the throwaway cluster it starts). Without it, the tests that need a server are skipped.
enum PostgresTestServer {
    static let url = ProcessInfo.processInfo.environment["PRODUCTCATALOG_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }

    /// The condition for a test that needs the server, with the reason shown when it is skipped.
    static let required = Testing.ConditionTrait.enabled(
        if: url != nil,
        "no PostgreSQL server: set PRODUCTCATALOG_TEST_POSTGRES=postgres://user@host:port/database (bash .ci/run starts one)")

    /// Runs `body` with a catalog location in a schema of its own, dropped afterwards.
    static func withCatalog<T>(_ body: (PostgresLocation) async throws -> T) async throws -> T {
        let url = try #require(url)
        let schema = "pc_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        let location = try PostgresLocation(url: url + (url.contains("?") ? "&" : "?") + "schema=\(schema)")
        do {
            let result = try await body(location)
            try await drop(location)
            return result
        } catch {
            try? await drop(location)
            throw error
        }
    }

    /// Runs one statement in the location's schema.
    static func execute(_ sql: String, at location: PostgresLocation) async throws {
        let session = try await PostgresSession.open(location)
        defer { Task { await session.close() } }
        try await session.execute(sql, doing: "run a test statement")
    }

    /// Creates the location's schema and in it the table `definition` describes (`products (sku text)`), with `comment` if any.
    static func createTable(_ definition: String, comment: String? = nil, at location: PostgresLocation) async throws {
        try await execute("CREATE SCHEMA \(PostgresSchema.quote(location.schema))", at: location)
        try await execute("CREATE TABLE \(definition)", at: location)
        if let comment {
            let table = definition.prefix { $0 != " " && $0 != "(" }
            try await execute("COMMENT ON TABLE \(table) IS \(PostgresSchema.literal(comment))", at: location)
        }
    }

    /// The first column of the first row of `sql`, as an integer.
    static func integer(_ sql: String, at location: PostgresLocation) async throws -> Int? {
        let session = try await PostgresSession.open(location)
        defer { Task { await session.close() } }
        return try await session.scalar(.init(unsafeSQL: sql), as: Int.self, doing: "run a test query")
    }

    private static func drop(_ location: PostgresLocation) async throws {
        try await execute("DROP SCHEMA IF EXISTS \(PostgresSchema.quote(location.schema)) CASCADE", at: location)
    }
}

/// The lines `script` answers on a new catalog file and on a new catalog on PostgreSQL, each given
/// the way to replace or upsert its products from a file; every line of the two is expected equal,
/// and the file's are returned, for the test to check against what it states.
func agreeingTranscript(
    in folder: TemporaryFolder,
    _ script: (any StockKeeping & CollectionKeeping, _ imports: (String, ImportOptions) async throws -> Void) async throws -> [String]
) async throws -> [String] {
    let file = SQLiteCatalog(databasePath: folder.path + "/catalog.sqlite")
    let inFile = try await script(file) { path, options in
        var options = options
        options.databasePath = file.databasePath
        _ = try CatalogImporter(options: options).run(source: try FileByteSource(path: path))
        await file.catalogReplaced()
    }
    let onServer = try await PostgresTestServer.withCatalog { location in
        let catalog = PostgresCatalog(location: location, imagesFolder: folder.path + "/images")
        let lines = try await script(catalog) { path, options in
            _ = try await importCSV(path, into: location, options: options)
        }
        await catalog.close()
        return lines
    }
    for (a, b) in zip(inFile, onServer) { #expect(a == b) }
    #expect(inFile.count == onServer.count)
    return inFile
}

/// Imports a CSV file into the PostgreSQL catalog at `location` on the import's own thread, as the CLI does.
func importCSV(_ path: String, into location: PostgresLocation, options: ImportOptions = ImportOptions()) async throws -> ImportSummary {
    let job = CatalogImporter(options: options).start(input: .file(path: path), into: { PostgresCatalogSink(location: location) })
    for await _ in job.progress {}
    return try await job.summary
}

/// `generator`'s file, written into `folder` as `name` and imported into a catalog file there: the
/// file to import into PostgreSQL, and the search of the catalog file it is compared with.
func writeAndImport(_ generator: RealisticProductGenerator, as name: String, in folder: TemporaryFolder) throws -> (file: String, reference: ProductSearch) {
    var csv: [UInt8] = []
    generator.write { csv.append(contentsOf: $0) }
    let file = folder.path + "/" + name
    try Data(csv).write(to: URL(fileURLWithPath: file))
    let databasePath = folder.path + "/" + name + ".sqlite"
    _ = try CatalogImporter(options: ImportOptions(databasePath: databasePath)).run(source: try FileByteSource(path: file))
    return (file, try ProductSearch(databasePath: databasePath))
}

/// A fresh folder under the system's temporary directory, removed when the value is released.
final class TemporaryFolder {
    let path: String

    init() throws {
        path = NSTemporaryDirectory() + "product-catalog-pg-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes `text` to `name` inside the folder and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = path + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }
}
