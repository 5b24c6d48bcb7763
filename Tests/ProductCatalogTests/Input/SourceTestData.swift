import Foundation
import TestSupport
import Testing
@testable import FeedGenerator
@testable import ProductCatalog

/// Inputs for the byte-source tests: generated product CSVs, and gzip made by the system's
/// `gzip` (an implementation independent of the one under test).
enum SourceTestData {
    /// A generated product CSV of `rows` rows.
    static func productCSV(rows: Int, seed: UInt64 = 5) -> [UInt8] {
        var bytes: [UInt8] = []
        ProductGenerator(rows: rows, seed: seed).write { bytes += $0 }
        return bytes
    }

    /// `bytes` compressed by `gzip -c`.
    static func gzip(_ bytes: [UInt8], level: Int = 6) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-c", "-\(level)", "-n"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // Write on another thread so that neither pipe can fill up and block the other.
        let writer = Thread {
            input.fileHandleForWriting.write(Data(bytes))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let compressed = output.fileHandleForReading.bytesToEnd()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "gzip failed")
        return Array(compressed)
    }

    /// Every record `bytes` holds, read straight from memory: what any source must reproduce.
    static func records(_ bytes: [UInt8]) throws -> [ReadRecord] {
        try readRecords(from: MemoryByteSource(bytes))
    }
}
