import Foundation
import TestSupport
import ProductCatalog
import Testing

/// `catalog import` end to end from a pipe, from gzip, and from URLs that fail.
@Suite struct ImportSourcesTests {
    let directory: String
    let catalog: CommandRunner
    let csv: Data

    init() throws {
        catalog = try CommandRunner()
        directory = catalog.directory
        let generated = try catalog.run(["generate", "--rows", "5000", "--seed", "3", "--output", "products.csv"])
        try #require(generated.status == 0, "\(generated.standardError)")
        csv = try Data(contentsOf: URL(fileURLWithPath: directory + "/products.csv"))
    }

    /// Every row of a catalog, every column as text, in productId order.
    func rows(of database: String) throws -> [[String?]] {
        let connection = try Connection(path: directory + "/" + database, mode: .readOnly)
        let query = try connection.prepare("SELECT * FROM products ORDER BY productId")
        var rows: [[String?]] = []
        while try query.step() {
            rows.append((0..<query.columnCount).map { query.isNull(at: $0) ? nil : query.text(at: $0) })
        }
        return rows
    }

    /// `data` compressed by the system's gzip, as `gzip -c` would pipe it.
    func gzip(_ data: Data) throws -> Data {
        let path = directory + "/to-compress"
        try data.write(to: URL(fileURLWithPath: path))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-c", "-n", path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let compressed = output.fileHandleForReading.bytesToEnd()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return compressed
    }

    /// Imports `arguments` into `database` and expects success.
    func importSucceeds(_ arguments: [String], database: String, input: Data? = nil) throws -> CommandRunner.Result {
        let result = try catalog.run(["import"] + arguments + ["--db", database], input: input)
        #expect(result.status == 0, "\(result.standardError)")
        return result
    }

    @Test func catAndGzipThroughAPipeGiveTheSameCatalogAsTheFile() throws {
        _ = try importSucceeds(["products.csv"], database: "from-file.sqlite")
        let expected = try rows(of: "from-file.sqlite")
        #expect(expected.count > 4_000)

        _ = try importSucceeds(["-"], database: "from-cat.sqlite", input: csv)
        #expect(try rows(of: "from-cat.sqlite") == expected)

        _ = try importSucceeds(["-"], database: "from-gzip-pipe.sqlite", input: try gzip(csv))
        #expect(try rows(of: "from-gzip-pipe.sqlite") == expected)

        // A gzip file with a name that does not say so: the magic bytes decide.
        try gzip(csv).write(to: URL(fileURLWithPath: directory + "/feed.dat"))
        _ = try importSucceeds(["feed.dat"], database: "from-gzip-file.sqlite")
        #expect(try rows(of: "from-gzip-file.sqlite") == expected)
    }

    @Test func progressFromAPipeCountsBytesWithoutATotal() throws {
        let result = try importSucceeds(["-", "--json"], database: "piped.sqlite", input: try gzip(csv))
        let events = try result.standardOutput.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let progress = events.filter { $0["event"] as? String == "progress" }
        #expect(!progress.isEmpty)
        #expect(progress.allSatisfy { $0["totalBytes"] is NSNull })
        let finished = try #require(events.last)
        #expect(finished["event"] as? String == "finished")
        #expect(finished["rowsRead"] as? Int == 5_000)
    }

    @Test func aTruncatedOrCorruptGzipFileIsAClearErrorAndTheCatalogStays() throws {
        _ = try importSucceeds(["products.csv"], database: "catalog.sqlite")
        let before = try rows(of: "catalog.sqlite")
        let compressed = try gzip(csv)

        try compressed.prefix(compressed.count / 2).write(to: URL(fileURLWithPath: directory + "/truncated.csv.gz"))
        let truncated = try catalog.run(["import", "truncated.csv.gz"])
        #expect(truncated.status == 1)
        #expect(truncated.standardError.contains("cannot read truncated.csv.gz: the gzip data ends early, after \(compressed.count / 2) compressed bytes: the file is truncated"), "\(truncated.standardError)")

        var damaged = compressed
        damaged[compressed.count - 8] ^= 0xFF
        try damaged.write(to: URL(fileURLWithPath: directory + "/corrupt.csv.gz"))
        let corrupt = try catalog.run(["import", "corrupt.csv.gz"])
        #expect(corrupt.status == 1)
        #expect(corrupt.standardError.contains("cannot read corrupt.csv.gz: the gzip data is corrupt (incorrect data check)"), "\(corrupt.standardError)")

        #expect(try rows(of: "catalog.sqlite") == before)
    }

    @Test func aURLNobodyServesIsAClearErrorWithExitStatus1() throws {
        let port = try unusedPort()
        let result = try catalog.run(["import", "http://127.0.0.1:\(port)/products.csv", "--timeout", "5"])
        #expect(result.status == 1)
        #expect(result.standardError.contains(
            "cannot read http://127.0.0.1:\(port)/products.csv: cannot connect: connection refused"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/catalog.sqlite"))
    }

    @Test func aTimeoutThatIsNotPositiveIsAWrongCommandLine() throws {
        let result = try catalog.run(["import", "http://127.0.0.1:9/p.csv", "--timeout", "0"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("--timeout must be more than 0"))
    }

    @Test func helpMentionsURLsAndTheTimeout() throws {
        let help = try catalog.run(["import", "--help"])
        #expect(help.standardOutput.contains("http:// or https:// URL"))
        #expect(help.standardOutput.contains("--timeout <timeout>"))
    }

    /// A port on 127.0.0.1 that nothing listens on: bound, then released.
    func unusedPort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        try #require(bound)
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
