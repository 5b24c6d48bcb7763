import Foundation
import TestSupport
import Testing

/// What the command line prints of a feed's own text, and how it reads a FIFO.
@Suite struct TerminalSafetyTests {
    @Test func controlCharactersFromAFeedArePrintedEscapedAndJSONStaysExact() throws {
        let catalog = try CommandRunner()
        let feed = "productId,title,color\nA1,\u{1B}[31mRed\u{1B}]0;owned\u{07} mug,N\u{202E}x\n"
        #expect(try catalog.run(["import", "-"], input: Data(feed.utf8)).status == 0)

        let table = try catalog.run(["search", "A1"])
        #expect(table.status == 0)
        #expect(!table.standardOutput.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E })
        #expect(table.standardOutput.contains(#"\u{1B}[31mRed\u{1B}]0;owned\u{7} mug"#), "\(table.standardOutput)")
        #expect(table.standardOutput.contains(#"N\u{202E}x"#))

        let json = try catalog.run(["search", "A1", "--json"])
        let products = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])["products"] as? [[String: Any]]
        #expect(products?.first?["title"] as? String == "\u{1B}[31mRed\u{1B}]0;owned\u{07} mug")

        // An error that quotes what it was given: a file that is not there.
        let refused = try catalog.run(["import", "missing\u{1B}[2J.csv"])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains(#"missing\u{1B}[2J.csv"#), "\(refused.standardError)")
        #expect(!refused.standardError.unicodeScalars.contains { $0.value == 0x1B })
    }

    @Test func aFIFOIsNamedWhileTheImportWaitsForItsWriter() throws {
        let catalog = try CommandRunner()
        let fifo = catalog.directory + "/feed.fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let process = Process()
        process.executableURL = CommandRunner.executable
        process.arguments = ["import", "feed.fifo"]
        process.currentDirectoryURL = URL(fileURLWithPath: catalog.directory)
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // The notice comes while the import waits to open the FIFO: nothing has been written yet.
        var said = Data()
        while !String(decoding: said, as: UTF8.self).contains("\n") {
            let data = errors.fileHandleForReading.nextBytes()
            if data.isEmpty { break }
            said += data
        }
        #expect(String(decoding: said, as: UTF8.self).contains("feed.fifo is a FIFO (named pipe): waiting for a program to write to it"))
        let writer = try #require(FileHandle(forWritingAtPath: fifo))
        writer.write(Data("productId,title\nF1,From the pipe\n".utf8))
        try writer.close()
        _ = errors.fileHandleForReading.bytesToEnd()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(try catalog.run(["search", "F1"]).standardOutput.contains("From the pipe"))
    }
}
