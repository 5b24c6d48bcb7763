import Foundation
import TestSupport
import ProductCatalog
import Testing

/// `kill -9` an import at different moments: the catalog must always pass SQLite's integrity
/// check and hold exactly the old products or exactly the new ones, and the next import must
/// work without anyone cleaning up.
@Suite struct InterruptedImportTests {
    /// When to kill: on the `count`-th `--json` event whose phase is `phase`.
    /// The `count`th event of `phase` (an import's JSON progress), or of kind `event` (another command's).
    struct Moment: CustomTestStringConvertible, Sendable {
        var phase: String
        var event = ""
        var count: Int
        var testDescription: String { "\(event.isEmpty ? phase : event) event \(count)" }
    }

    static let moments = [
        Moment(phase: "loading", count: 1), Moment(phase: "loading", count: 3), Moment(phase: "writing", count: 1),
        Moment(phase: "writing", count: 2), Moment(phase: "finishing", count: 1),
    ]

    @Test(arguments: moments)
    func aKilledImportLeavesTheOldCatalogOrTheNewOne(moment: Moment) throws {
        let catalog = try CommandRunner()
        let directory = catalog.directory
        #expect(try catalog.run(["generate", "--rows", "500", "--seed", "6", "--output", "old.csv"]).status == 0)
        #expect(try catalog.run(["generate", "--rows", "120000", "--seed", "5", "--output", "new.csv"]).status == 0)
        #expect(try catalog.run(["import", "old.csv"]).status == 0)

        // Small sort memory: several runs spill to disk, so the kill can land in any stage.
        let (process, killed) = try Self.runAndKill(["import", "new.csv", "--json", "--sort-memory", "2"], in: directory, at: moment)

        let count = try Self.checkedCount(directory + "/catalog.sqlite")
        #expect(count == 500 || count == 120_000)
        if killed { #expect(process.terminationReason == .uncaughtSignal) }

        // The next import needs no cleanup, and leaves nothing of the killed one behind.
        let again = try catalog.run(["import", "new.csv"])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(try Self.checkedCount(directory + "/catalog.sqlite") == 120_000)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".importing") }
        #expect(leftovers.isEmpty)
    }

    /// Runs `catalog arguments…` (with `--json`) in `directory` and sends it SIGKILL at `moment`;
    /// returns the ended process and whether the kill was sent before it finished.
    static func runAndKill(_ arguments: [String], in directory: String, at moment: Moment) throws -> (Process, Bool) {
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var seen = 0
        var buffered = Data()
        var killed = false
        reading: while true {
            let data = output.fileHandleForReading.nextBytes()
            if data.isEmpty { break }
            buffered += data
            while let newline = buffered.firstIndex(of: 0x0A) {
                let line = String(decoding: buffered[buffered.startIndex..<newline], as: UTF8.self)
                buffered = Data(buffered[buffered.index(after: newline)...])
                if line.contains(moment.event.isEmpty ? "\"phase\":\"\(moment.phase)\"" : "\"event\":\"\(moment.event)\"") {
                    seen += 1
                    if seen == moment.count {
                        kill(process.processIdentifier, SIGKILL)
                        killed = true
                        break reading
                    }
                }
            }
        }
        process.waitUntilExit()
        return (process, killed)
    }

    /// The product count of a catalog that passes `PRAGMA integrity_check`.
    static func checkedCount(_ path: String) throws -> Int {
        let database = try Connection.reading(path)
        #expect(try database.scalarText("PRAGMA integrity_check") == "ok")
        return Int(try database.scalarInt("SELECT count(*) FROM products") ?? -1)
    }
}
