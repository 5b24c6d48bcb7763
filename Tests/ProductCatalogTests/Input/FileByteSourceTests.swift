import Foundation
import Testing
@testable import ProductCatalog

/// Named with a `CSV` prefix so that `swift test --filter CSV` runs it with the rest of the CSV layer.
@Suite("FileByteSource")
struct CSVFileByteSourceTests {
    /// A fresh temporary folder, removed after `body`.
    private func withTemporaryFolder<R>(_ body: (URL) throws -> R) throws -> R {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("FileByteSourceTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }

    @Test("Reading a file gives the same records as reading its bytes", arguments: [7, 1 << 20])
    func fileMatchesMemory(chunkSize: Int) throws {
        var text = "\u{FEFF}sku,name,note\r\n"
        for index in 0..<500 {
            text += "SKU-\(index),\"Name \(index), \"\"quoted\"\"\",\"line\nbreak ü\"\r\n"
        }
        let bytes = Array(text.utf8)
        try withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("products.csv").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))

            let source = try FileByteSource(path: path)
            #expect(source.name == path)
            #expect(source.expectedBytes == bytes.count)
            #expect(source.bytesRead == 0)
            let records = try readRecords(from: source, options: .init(chunkSize: chunkSize))
            #expect(records.count == 501)
            #expect(records == readRecords(bytes, chunkSize: chunkSize))
            #expect(records.last?.fields == ["SKU-499", "Name 499, \"quoted\"", "line\nbreak ü"])
            #expect(source.bytesRead == bytes.count)
        }
    }

    @Test("Reading an empty file gives no records")
    func emptyFile() throws {
        try withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("empty.csv").path
            try Data().write(to: URL(fileURLWithPath: path))
            let source = try FileByteSource(path: path)
            #expect(source.expectedBytes == 0)
            #expect(try readRecords(from: source).isEmpty)
        }
    }

    @Test("Opening a missing file throws an error that says there is no such file")
    func missingFile() throws {
        try withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("missing.csv").path
            let error = #expect(throws: ByteSourceError.self) { try FileByteSource(path: path) }
            #expect(error?.source == path)
            #expect(error?.description.contains("no such file") == true, "\(String(describing: error))")
        }
    }

    @Test("Opening a directory throws an error that says it is a directory")
    func directory() throws {
        try withTemporaryFolder { folder in
            let error = #expect(throws: ByteSourceError.self) { try FileByteSource(path: folder.path) }
            #expect(error?.source == folder.path)
            #expect(error?.description.contains("directory") == true, "\(String(describing: error))")
        }
    }

    @Test("Errors describe the source and the reason")
    func errorDescription() {
        let error = ByteSourceError(source: "products.csv", reason: "permission denied")
        #expect(error.description == "products.csv: permission denied")
    }
}
