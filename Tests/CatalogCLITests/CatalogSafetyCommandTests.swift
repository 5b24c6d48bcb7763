import Foundation
import TestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ProductCatalog
import Testing

/// The command line's answers to imports that would lose data and to `--db` paths it must not write.
@Suite struct CatalogSafetyCommandTests {
    @Test func anImportThatKeepsNothingExitsWithOneAndLeavesTheCatalog() throws {
        let catalog = try CommandRunner()
        #expect(try catalog.run(["import", "-"], input: Data("productId,title\nA1,One\nA2,Two\n".utf8)).status == 0)
        var latin1 = Data("productId,title\n".utf8)
        for index in 0..<50 { latin1 += Data("B\(index),Caf".utf8) + Data([0xE9, 0x0A]) }
        let refused = try catalog.run(["import", "-"], input: latin1)
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("--encoding latin1"), "\(refused.standardError)")
        #expect(try catalog.run(["search", ""]).standardOutput.contains("A2"))

        let headerOnly = try catalog.run(["import", "-"], input: Data("productId,title\n".utf8))
        #expect(headerOnly.status == 1)
        #expect(headerOnly.standardError.contains("--allow-empty"))
        let emptied = try catalog.run(["import", "-", "--allow-empty"], input: Data("productId,title\n".utf8))
        #expect(emptied.status == 0, "\(emptied.standardError)")
        #expect(try catalog.run(["search", ""]).standardOutput.contains("No products"))
    }

    /// No command writes its output over the catalog or a file that belongs to it, however the
    /// path is spelled: checked by file identity before anything is written.
    @Test func noOutputPathMayBeTheCatalogOrItsCompanions() throws {
        let catalog = try CommandRunner()
        let directory = catalog.directory
        try Data("productId,title,listPrice\nA1,One,1\nA2,Two,x\n".utf8).write(to: URL(fileURLWithPath: directory + "/feed.csv"))
        try Data("productId,store,quantity\nA1,S1,1\nZZ,S1,2\n".utf8).write(to: URL(fileURLWithPath: directory + "/stock.csv"))
        try Data("collection,productId\nSummer,A1\nSummer,ZZ\n".utf8).write(to: URL(fileURLWithPath: directory + "/members.csv"))
        #expect(try catalog.run(["import", "feed.csv"]).status == 0)
        #expect(try catalog.run(["import-stock", "stock.csv"]).status == 0)
        #expect(link(directory + "/catalog.sqlite", directory + "/hard-link.sqlite") == 0)
        #expect(symlink(directory + "/catalog.sqlite", directory + "/soft-link.sqlite") == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: directory + "/catalog.sqlite"))
        let spellings = ["catalog.sqlite", "./catalog.sqlite", directory + "/catalog.sqlite", "hard-link.sqlite", "soft-link.sqlite",
                         "catalog.sqlite-journal", "catalog.sqlite-wal", "catalog.sqlite.importing"]
        for output in spellings {
            for command in [["import", "feed.csv", "--rejects", output], ["import", "feed.csv", "--mode", "upsert", "--rejects", output],
                            ["import-stock", "stock.csv", "--rejects", output], ["collections", "import", "members.csv", "--rejects", output],
                            ["export", "", "--output", output], ["collections", "export", "--output", output]] {
                let refused = try catalog.run(command)
                #expect(refused.status == 1 && refused.standardError.contains("is the catalog"), "\(command): \(refused.standardError)")
                #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/catalog.sqlite")) == before, "\(command)")
                #expect(!FileManager.default.fileExists(atPath: directory + "/catalog.sqlite-journal"), "\(command)")
            }
        }
        #expect(try catalog.run(["search", "", "--json"]).standardOutput.contains("\"A1\""))
    }

    @Test func aDbThatIsADeviceOrAFIFOIsRefusedByImportAndServe() throws {
        let catalog = try CommandRunner()
        let input = Data("productId,title\nA1,One\n".utf8)
        let device = try catalog.run(["import", "-", "--db", "/dev/null"], input: input)
        #expect(device.status == 1)
        #expect(device.standardError.contains("/dev/null is a device"), "\(device.standardError)")
        var info = stat()
        #expect(stat("/dev/null", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)

        #expect(mkfifo(catalog.directory + "/fifo", 0o644) == 0)
        let serve = try catalog.run(["serve", "--db", "fifo", "--port", "0"])
        #expect(serve.status == 1)
        #expect(serve.standardError.contains("FIFO"), "\(serve.standardError)")
    }

    /// `kill -9` of an upsert at random moments: the next command opens the catalog with no manual step.
    @Test func aKilledUpsertLeavesACatalogTheNextCommandOpens() throws {
        let catalog = try CommandRunner()
        let directory = catalog.directory
        #expect(try catalog.run(["generate", "--rows", "2000", "--seed", "3", "--output", "old.csv"]).status == 0)
        #expect(try catalog.run(["generate", "--rows", "150000", "--seed", "4", "--output", "new.csv"]).status == 0)
        #expect(try catalog.run(["import", "old.csv"]).status == 0)
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<4 {
            try Self.run(["import", "new.csv", "--mode", "upsert", "--quiet", "--sort-memory", "2"], in: directory,
                         killedAfter: UInt32.random(in: 0..<400_000, using: &generator))

            let search = try catalog.run(["search", "", "--limit", "1"])
            #expect(search.status == 0, "\(search.standardError)")
            let count = try InterruptedImportTests.checkedCount(directory + "/catalog.sqlite")
            #expect(count == 2000 || count > 2000 && count <= 152_000)
        }
        let again = try catalog.run(["import", "new.csv", "--mode", "upsert"])
        #expect(again.status == 0, "\(again.standardError)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains("-journal") || $0.contains(".importing") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    /// `kill -9` of an upsert small enough to be written into the live file, at random moments
    /// (reading, writing, settling the words, committing): the catalog holds either none of its
    /// changes or all of them, and the next command needs no manual step.
    @Test func aKilledUpsertInPlaceLeavesTheCatalogBeforeOrAfterIt() throws {
        let catalog = try CommandRunner()
        let directory = catalog.directory
        #expect(try catalog.run(["generate", "--rows", "40000", "--seed", "3", "--output", "old.csv"]).status == 0)
        #expect(try catalog.run(["import", "old.csv"]).status == 0)
        // 1,600 products spread over the catalog, each with a word added to its title.
        let lines = try String(contentsOfFile: directory + "/old.csv", encoding: .utf8).split(separator: "\n")
        var delta = [String(lines[0])]
        var undo = [String(lines[0])]
        for (index, line) in lines.dropFirst().enumerated() where index % 25 == 0 {
            var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count > 1, !line.contains("\"") else { continue }
            undo.append(String(line))
            fields[1] += " Renewed"
            delta.append(fields.joined(separator: ","))
        }
        try (delta.joined(separator: "\n") + "\n").write(toFile: directory + "/delta.csv", atomically: true, encoding: .utf8)
        // The same products as they were: an upsert that takes the changes back, so that every kill lands in a real write.
        try (undo.joined(separator: "\n") + "\n").write(toFile: directory + "/undo.csv", atomically: true, encoding: .utf8)
        let changed = delta.count - 1
        #expect(changed > 1_000 && changed <= 2_000)

        func renewed() throws -> Int {
            let database = try Connection(path: directory + "/catalog.sqlite", mode: .readOnly)
            #expect(try database.scalarText("PRAGMA integrity_check") == "ok")
            return Int(try database.scalarInt("SELECT count(*) FROM products WHERE title LIKE '% Renewed'") ?? -1)
        }
        var generator = SystemRandomNumberGenerator()
        var count = 0
        for _ in 0..<6 {
            try Self.run(["import", count == 0 ? "delta.csv" : "undo.csv", "--mode", "upsert", "--quiet"], in: directory,
                         killedAfter: UInt32.random(in: 10_000..<330_000, using: &generator))

            // The search rolls back a hot journal the kill left; the catalog is then whole.
            let search = try catalog.run(["search", "renewed", "--limit", "1"])
            #expect(search.status == 0, "\(search.standardError)")
            count = try renewed()
            #expect(count == 0 || count == changed, "\(count) of \(changed) changes survived the kill")
            #expect(try InterruptedImportTests.checkedCount(directory + "/catalog.sqlite") == 40_000)
        }
        let again = try catalog.run(["import", count == 0 ? "delta.csv" : "undo.csv", "--mode", "upsert"])
        #expect(again.status == 0, "\(again.standardError)")
        if count == 0 { #expect(try renewed() == changed) } else { #expect(try renewed() == 0) }
        if count != 0 { _ = try catalog.run(["import", "delta.csv", "--mode", "upsert"]) }
        #expect(try renewed() == changed)
        let words = try catalog.run(["search", "renewed", "--json", "--limit", "1000"])
        #expect(words.standardOutput.components(separatedBy: "\"productId\"").count - 1 == 1_000)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains("-journal") || $0.contains(".importing") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    /// `kill -9` of `catalog serve` while it saves edits: the next server starts and answers.
    @Test func aServerKilledDuringEditsLeavesACatalogTheNextServerOpens() async throws {
        let catalog = try CommandRunner()
        #expect(try catalog.run(["generate", "--rows", "3000", "--seed", "8", "--output", "p.csv"]).status == 0)
        #expect(try catalog.run(["import", "p.csv"]).status == 0)
        for round in 0..<3 {
            let server = try RunningServer(directory: catalog.directory)
            // Edits in flight when the kill lands. (Not stopped by cancelling the task: cancelling
            // a URLSession request on Linux can deadlock; a refused connection ends the loop.)
            let edits = Task {
                for index in 0..<10_000 {
                    let body = #"{"productId":"HAND-\#(round)-\#(index)","title":"By hand"}"#
                    guard (try? await server.send("POST", "/api/products", json: body)) != nil else { return }
                }
            }
            _ = try await server.send("POST", "/api/products", json: #"{"productId":"FIRST-\#(round)","title":"First"}"#)
            // A random number of edits more, while the others keep coming: the kill lands anywhere.
            for index in 0..<Int.random(in: 1...60) {
                _ = try await server.send("PUT", "/api/products/FIRST-\(round)", json: #"{"title":"Edit \#(index)"}"#)
            }
            kill(server.process.processIdentifier, SIGKILL)
            server.process.waitUntilExit()
            _ = await edits.result

            let search = try catalog.run(["search", "first-\(round)"])
            #expect(search.status == 0, "\(search.standardError)")
            #expect(search.standardOutput.contains("FIRST-\(round)"))
        }
        let last = try RunningServer(directory: catalog.directory)
        let (status, _) = try await last.send("GET", "/api/products?prefix=first", json: nil)
        #expect(status == 200)
        kill(last.process.processIdentifier, SIGTERM)
        last.process.waitUntilExit()
    }

    /// Runs `catalog arguments…` in `directory` and sends it SIGKILL after `microseconds` (if it is still running).
    static func run(_ arguments: [String], in directory: String, killedAfter microseconds: UInt32) throws {
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(microseconds)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// `catalog serve --port 0` as a child process, with the address it printed.
final class RunningServer: Sendable {
    let process: Process
    let address: String

    init(directory: String) throws {
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = ["serve", "--port", "0"]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(0x0A) {
            let data = output.fileHandleForReading.nextBytes()
            if data.isEmpty { break }
            line += data
        }
        let text = String(decoding: line, as: UTF8.self)
        guard let start = text.range(of: "http://"), let end = text[start.lowerBound...].firstIndex(of: " ") else {
            throw CocoaError(.fileReadCorruptFile)
        }
        address = String(text[start.lowerBound..<end]).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        self.process = process
    }

    /// Sends a request as the page would, and returns the status and body.
    func send(_ method: String, _ path: String, json: String?) async throws -> (Int, String) {
        var request = URLRequest(url: URL(string: address + path)!, timeoutInterval: 10)
        request.httpMethod = method
        if let json {
            request.httpBody = Data(json.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }
}

/// `catalog inspect`: what an import would do, with nothing written.
@Suite struct InspectCommandTests {
    @Test func inspectShowsTheFormatMappingAndFirstRowsWithoutWriting() throws {
        let catalog = try CommandRunner()
        let feed = """
            id\ttitle\tprice\tsale_price\titem_group_id\timage_link\tavailability
            A-1\tLinen Shirt\t30.00 EUR\t25.00 EUR\tSHIRT\thttps://img/a.jpg\tin stock
            A-2\tLinen Shirt\t30.00 EUR\t40.00 EUR\tSHIRT\thttps://img/b.jpg\tin stock

            """
        let text = try catalog.run(["inspect", "-"], input: Data(feed.utf8))
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.standardOutput.contains("Google Merchant Center feed"))
        #expect(text.standardOutput.contains("Delimiter: tab"))
        #expect(text.standardOutput.contains("groupId      ← item_group_id"))
        #expect(text.standardOutput.contains("Extra columns kept (1): availability"))
        #expect(text.standardOutput.contains("A-1"))
        #expect(text.standardOutput.contains("line 3: the sale price (40.00) is above the list price (30.00)"))
        #expect(!FileManager.default.fileExists(atPath: catalog.directory + "/catalog.sqlite"))

        let json = try catalog.run(["inspect", "-", "--json", "--format", "generic"], input: Data(feed.utf8))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(object["format"] as? String == "generic")
        #expect((object["products"] as? [[String: Any]])?.first?["currency"] as? String == "EUR")
        #expect((object["fields"] as? [String: String])?["listPrice"] == "price")
    }

    @Test func importSaysWhichFormatItReadAndHowRowsWereCounted() throws {
        let catalog = try CommandRunner()
        let shopify = """
            Handle,Title,Option1 Name,Option1 Value,Variant Price,Image Src
            tee,Tee,Size,S,10.00,https://img/1.jpg
            tee,,,M,10.00,
            tee,,,,,https://img/2.jpg

            """
        let result = try catalog.run(["import", "-"], input: Data(shopify.utf8))
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Read as: Shopify product export (--format shopify)."))
        #expect(result.standardOutput.contains("folded into their product: 1"))
        let json = try catalog.run(["import", "-", "--json"], input: Data(shopify.utf8))
        let finished = try #require(json.standardOutput.split(separator: "\n").last.map(String.init))
        #expect(finished.contains("\"rowsFolded\":1") && finished.contains("\"format\":\"shopify\""))
    }
}

@Suite struct SearchEdgeCommandTests {
    @Test func aPrefixStartingWithAHyphenGoesAfterTheDoubleDashAndSpacesAreIgnored() throws {
        let catalog = try CommandRunner()
        #expect(try catalog.run(["import", "-"], input: Data("productId,title\n-F1,Dash\nF1,Plain\n@x,At\n[y,Bracket\n".utf8)).status == 0)
        let dashed = try catalog.run(["search", "--", "-F1"])
        #expect(dashed.status == 0, "\(dashed.standardError)")
        #expect(dashed.standardOutput.contains("Dash") && !dashed.standardOutput.contains("Plain"))
        #expect(try catalog.run(["search", "--help"]).standardOutput.contains("catalog search -- -F1"))
        let spaced = try catalog.run(["search", "  f1  ", "--json"])
        #expect(spaced.standardOutput.contains("\"F1\"") && !spaced.standardOutput.contains("-F1"))
        let at = try catalog.run(["search", "@", "--json"])
        #expect(at.standardOutput.contains("@x") && !at.standardOutput.contains("[y"))
    }
}
