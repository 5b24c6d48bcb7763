import Foundation
@testable import ProductCatalog
import Testing

/// `kill -9` a merge of the word index's segments (``SegmentMerge``) in the middle, and a server in
/// the middle of a batch: the catalog passes SQLite's integrity check, holds the products it held
/// before or after each write (a batch whole or not at all), with a word index that finds exactly
/// the products whose titles hold a word; the next merge finishes without anyone cleaning up.
@Suite struct InterruptedMergeTests {
    /// A catalog of 20,000 products whose index is a base and several segments: five upserts of
    /// 400 products each given a word of its own (`Renewed1`…), and titles another program changed.
    static func segmentedCatalog() throws -> CommandRunner {
        let catalog = try CommandRunner()
        let directory = catalog.directory
        #expect(try catalog.run(["generate", "--rows", "20000", "--seed", "6", "--output", "base.csv"]).status == 0)
        #expect(try catalog.run(["import", "base.csv"]).status == 0)
        let lines = try String(contentsOfFile: directory + "/base.csv", encoding: .utf8).split(separator: "\n").map(String.init)
        let header = lines[0].split(separator: ",").map(String.init)
        let title = try #require(header.firstIndex(of: "title"))
        for round in 1...5 {
            var upsert = [lines[0]]
            for line in lines.dropFirst().enumerated().filter({ $0.offset % 50 == round }).map(\.element) {
                var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                guard fields.count == header.count, !fields[title].contains("\"") else { continue }
                fields[title] += " Renewed\(round)"
                upsert.append(fields.joined(separator: ","))
            }
            try (upsert.joined(separator: "\n") + "\n").write(toFile: directory + "/up\(round).csv", atomically: true, encoding: .utf8)
            let result = try catalog.run(["import", "up\(round).csv", "--mode", "upsert"])
            #expect(result.status == 0, "\(result.standardError)")
        }
        let other = try Connection(path: directory + "/catalog.sqlite", mode: .readWrite)
        try other.execute("UPDATE products SET title = title || ' Edited' WHERE productId IN (SELECT productId FROM products ORDER BY productId LIMIT 300)")
        return catalog
    }

    static let words = ["Renewed1", "Renewed2", "Renewed3", "Renewed4", "Renewed5", "Edited"]

    /// Killed after the first step of merging and after the second (of three): in the middle of
    /// writing the merged lists, or of the sort lists.
    @Test(arguments: [1, 2])
    func aKilledOptimizeLeavesAnIndexThatFindsWhatHoldsEachWord(step: Int) throws {
        let catalog = try Self.segmentedCatalog()
        let path = catalog.directory + "/catalog.sqlite"
        let before = try SegmentManifest.entries(Connection.reading(path)).count
        #expect(before > 1, "the upserts wrote segments")
        try InterruptedUpsertTests.expectTheIndexFinds(Self.words, path)

        let (process, killed) = try InterruptedImportTests.runAndKill(["optimize", "--json"], in: catalog.directory,
                                                                    at: InterruptedImportTests.Moment(phase: "", event: "progress", count: step))
        if killed { #expect(process.terminationReason == .uncaughtSignal || process.terminationStatus == 0) }
        #expect(try InterruptedImportTests.checkedCount(path) == 20_000)
        try InterruptedUpsertTests.expectTheIndexFinds(Self.words, path)

        // The next one finishes what the killed one began: one segment, the same answers.
        let again = try catalog.run(["optimize"])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(try SegmentManifest.entries(Connection.reading(path)).count == 1)
        #expect(try InterruptedImportTests.checkedCount(path) == 20_000)
        try InterruptedUpsertTests.expectTheIndexFinds(Self.words, path)
        #expect(try Connection.reading(path).scalarInt("SELECT count(*) FROM word_merges") == 0)
    }

    /// An upsert killed the moment its commit shows to another connection, while it does its share
    /// of the merges that commit made due: another program changed 28% of the titles, which the
    /// upsert's segment takes in, so the base is merged with it (a few seconds of steps). The
    /// catalog holds the upsert, the index finds what holds each word, and `optimize` finishes
    /// the merge the killed upsert began.
    @Test func anUpsertKilledWhileItMergesLeavesItsChangesAndAnIndexThatFindsThem() throws {
        let catalog = try CommandRunner()
        let directory = catalog.directory
        let path = directory + "/catalog.sqlite"
        #expect(try catalog.run(["generate", "--rows", "40000", "--seed", "8", "--output", "base.csv"]).status == 0)
        #expect(try catalog.run(["import", "base.csv"]).status == 0)
        do {
            let other = try Connection(path: path, mode: .readWrite)
            try other.execute("UPDATE products SET title = title || ' Edited' WHERE productId IN (SELECT productId FROM products ORDER BY productId LIMIT 11200)")
        }
        let lines = try String(contentsOfFile: directory + "/base.csv", encoding: .utf8).split(separator: "\n").map(String.init)
        let header = lines[0].split(separator: ",").map(String.init)
        let title = try #require(header.firstIndex(of: "title"))
        var upsert = [lines[0]]
        var changedIds: [String] = []
        for line in lines.dropFirst().enumerated().filter({ $0.offset % 400 == 7 }).map(\.element) {
            var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == header.count, !fields[title].contains("\""), !fields[0].contains("\"") else { continue }
            fields[title] += " Renewed"
            upsert.append(fields.joined(separator: ","))
            changedIds.append(fields[0])
        }
        try (upsert.joined(separator: "\n") + "\n").write(toFile: directory + "/up.csv", atomically: true, encoding: .utf8)
        let probe = try #require(changedIds.last)

        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = ["import", "up.csv", "--mode", "upsert"]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        // Reads the last changed product's title, in WAL mode, until the upsert's commit shows.
        let watcher = try Connection.reading(path)
        let read = try watcher.prepare("SELECT title FROM products WHERE productId = ?1")
        func committed() throws -> Bool {
            try read.using {
                try read.bind(1, probe)
                return try read.step() && (read.text(at: 0) ?? "").hasSuffix(" Renewed")
            }
        }
        try process.run()
        var killed = false
        while process.isRunning {
            if try committed() {
                kill(process.processIdentifier, SIGKILL)
                killed = true
                break
            }
        }
        process.waitUntilExit()
        #expect(killed, "the upsert was still merging when its commit showed")

        #expect(try InterruptedImportTests.checkedCount(path) == 40_000)
        #expect(try InterruptedUpsertTests.titlesHolding("Renewed", path) == changedIds.count)
        try InterruptedUpsertTests.expectTheIndexFinds(["Renewed", "Edited"], path)

        let again = try catalog.run(["optimize"])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(try SegmentManifest.entries(Connection.reading(path)).count == 1)
        try InterruptedUpsertTests.expectTheIndexFinds(["Renewed", "Edited"], path)
        #expect(try Connection.reading(path).scalarInt("SELECT count(*) FROM word_merges") == 0)
    }

    /// A server killed right after a batch of 1,000 title changes reached it (whether it had begun
    /// writing it, finished, or was merging after it): each batch is in the catalog whole or not at all.
    @Test func aServerKilledDuringABatchLeavesEachBatchWholeOrAbsent() async throws {
        let catalog = try Self.segmentedCatalog()
        let path = catalog.directory + "/catalog.sqlite"
        let ids = try Connection.reading(path).prepare("SELECT productId FROM products ORDER BY productId")
        var all: [String] = []
        while try ids.step() { all.append(ids.text(at: 0) ?? "") }
        for round in 1...3 {
            let server = try RunningServer(directory: catalog.directory)
            // A batch answered, then one the server is killed in.
            for (offset, kill) in [(0, false), (1, true)] {
                let chosen = all.enumerated().filter { $0.offset % 20 == (round * 2 + offset) % 20 }.prefix(1_000).map(\.element)
                let body = "{\"action\":\"set\",\"productIds\":[\(chosen.map { "\"\($0)\"" }.joined(separator: ","))],\"fields\":{\"title\":\"Lamp Batched\(round)x\(offset)\"}}"
                if kill {
                    try server.sendAndKill("POST", "/api/products/batch", json: body)
                } else {
                    let (status, _) = try await server.send("POST", "/api/products/batch", json: body)
                    #expect(status == 200)
                }
            }
            server.process.waitUntilExit()
            #expect(try InterruptedImportTests.checkedCount(path) == 20_000)
            let answered = try InterruptedUpsertTests.titlesHolding("Batched\(round)x0", path)
            let killed = try InterruptedUpsertTests.titlesHolding("Batched\(round)x1", path)
            #expect(answered == 1_000)
            #expect(killed == 0 || killed == 1_000, "the batch whole or not at all: \(killed)")
            try InterruptedUpsertTests.expectTheIndexFinds(Self.words + ["Batched\(round)x0", "Batched\(round)x1"], path)
        }
    }
}

extension RunningServer {
    /// Sends `method path` with `json` as the body over a socket of its own, then kills the
    /// server with SIGKILL as soon as the request's last byte is written.
    func sendAndKill(_ method: String, _ path: String, json: String) throws {
        guard let url = URL(string: address), let port = url.port else { throw CocoaError(.fileReadCorruptFile) }
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.EIO) }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
        let request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Type: application/json\r\nContent-Length: \(json.utf8.count)\r\n\r\n\(json)"
        let bytes = Array(request.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { throw POSIXError(.EIO) }
            sent += count
        }
        Foundation.kill(process.processIdentifier, SIGKILL)
    }
}
