import Foundation
import TestSupport

/// Runs the built `catalog` executable as a child process in a temporary folder of its own,
/// removed with the runner, and captures what it prints.
final class CommandRunner {
    struct Result {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// The `catalog` binary beside the test bundle in the build folder.
    static let executable: URL = {
        let testBinary = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        // On Linux the tests run from `<build>/debug/<Package>PackageTests.xctest`.
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("catalog")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: "catalog")
    }()

    /// The folder the command runs in.
    let directory: String

    init() throws {
        var template = Array((NSTemporaryDirectory() + "catalog-cli-tests.XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else { throw CocoaError(.fileWriteUnknown) }
        directory = String(cString: created)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs `catalog arguments…`, feeding `input` to its standard input.
    func run(_ arguments: [String], input: Data? = nil) throws -> Result {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let output = Pipe()
        let error = Pipe()
        let standardInput = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = standardInput
        try process.run()
        // Drain standard error on another thread while standard output is read here, so the
        // child never blocks on a full pipe.
        let errorData = CapturedData()
        let drained = DispatchGroup()
        DispatchQueue.global().async(group: drained) {
            errorData.value = error.fileHandleForReading.bytesToEnd()
        }
        if let input { standardInput.fileHandleForWriting.write(input) }
        try standardInput.fileHandleForWriting.close()
        let outputData = output.fileHandleForReading.bytesToEnd()
        process.waitUntilExit()
        drained.wait()
        return Result(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData.value ?? Data(), as: UTF8.self))
    }
}

/// Data handed from the reader thread to the test; the dispatch group orders the accesses.
private final class CapturedData: @unchecked Sendable {
    var value: Data?
}
