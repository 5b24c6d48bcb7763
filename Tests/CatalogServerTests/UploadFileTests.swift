import Foundation
import Hummingbird
import Testing
@testable import CatalogServer

@Suite struct UploadFileTests {
    func chunks(_ sizes: [Int]) -> RequestBody {
        RequestBody(asyncSequence: sizes.map { ByteBuffer(repeating: UInt8(ascii: "x"), count: $0) }.async)
    }

    @Test func aBodyIsWrittenToTheFileChunkByChunk() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let path = fixture.folder + "/upload.csv"
        let size = try await UploadFile.write(chunks([10, 20, 30]), to: path, limit: 60)
        #expect(size == 60)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == 60)
    }

    @Test func aBodyPastTheLimitIsA413AndLeavesNoFile() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let path = fixture.folder + "/upload.csv"
        await #expect {
            try await UploadFile.write(chunks([40, 40]), to: path, limit: 60)
        } throws: { error in
            (error as? APIError)?.status == .contentTooLarge
        }
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}

extension Array where Element: Sendable {
    /// The elements as an `AsyncSequence`, the way a request body arrives.
    var async: AsyncStream<Element> {
        AsyncStream { continuation in
            for element in self { continuation.yield(element) }
            continuation.finish()
        }
    }
}
