import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOEmbedded
import ProductCatalog
import Synchronization
import Testing
@testable import CatalogServer

/// An edit sent while an import's file is still uploading: refused for a replacing import,
/// whose swap would discard it, and kept by an upsert, which starts from the catalog as it is.
@Suite struct EditDuringUploadTests {
    @Test func aReplacingImportRefusesEditsFromItsFirstByteSoNothingAcknowledgedIsLost() async throws {
        let outcome = try await editDuringUpload(mode: "replace")
        #expect(outcome.edit.status == .conflict)
        #expect(outcome.edit.headers[.retryAfter] == "5")
        let message = try #require(try outcome.edit.json()["error"] as? [String: Any])["message"] as? String
        #expect(message?.contains("is uploading") == true, "\(message ?? "")")
        #expect(outcome.finished["editsReplaced"] as? Int == 0)
        #expect(!outcome.storedIds.contains("EDIT-1"))
        #expect(outcome.storedIds.count == 400)
        // Once the import is over, edits are accepted again.
        #expect(outcome.editAfter.status == .created)
    }

    @Test func anUpsertKeepsAnEditMadeWhileItsFileUploads() async throws {
        let outcome = try await editDuringUpload(mode: "upsert")
        #expect(outcome.edit.status == .created)
        #expect(outcome.storedIds.contains("EDIT-1"))
        #expect(outcome.storedIds.count == 403)
    }

    struct Outcome {
        var edit: Answer
        var finished: [String: Any]
        var storedIds: [String]
        var editAfter: Answer
    }

    /// Uploads 400 products in `mode` in two halves, sending an add of `EDIT-1` between them.
    func editDuringUpload(mode: String) async throws -> Outcome {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "OLD", count: 2))
        let responder = buildRouter(store: fixture.store, imports: fixture.imports, maxUploadBytes: 1 << 30).buildResponder()
        let csv = Array(productsCSV(prefix: "NEW", count: 400).utf8)
        let body = HeldBody()

        let upload = Task {
            try await respond(responder, Request(
                head: .init(method: .post, scheme: "http", authority: "localhost", path: "/api/imports?mode=\(mode)",
                            headerFields: [.contentType: "text/csv", .contentLength: String(csv.count)]),
                body: RequestBody(asyncSequence: body)))
        }
        body.send(ByteBuffer(bytes: csv[..<(csv.count / 2)]))
        // The server asks for the second chunk only after it wrote the first: the upload is under way.
        await body.waitForSecondRead()
        let edit = try await respond(responder, jsonRequest(.post, "/api/products", #"{"productId":"EDIT-1","title":"Typed during the upload"}"#))
        body.send(ByteBuffer(bytes: csv[(csv.count / 2)...]))
        body.finish()
        let accepted = try await upload.value
        #expect(accepted.status == .accepted)

        let events = try ServerSentEvent.parse(try await respond(responder, Request(
            head: .init(method: .get, scheme: "http", authority: "localhost", path: "/api/imports/1/events"),
            body: RequestBody(buffer: ByteBuffer()))).text)
        let finished = try #require(events.last)
        #expect(finished.name == "finished")
        let editAfter = try await respond(responder, jsonRequest(.post, "/api/products", #"{"productId":"EDIT-2","title":"After"}"#))
        let ids = try await fixture.storedIds().filter { $0 != "EDIT-2" }
        return Outcome(edit: edit, finished: finished.data, storedIds: ids, editAfter: editAfter)
    }

    private func jsonRequest(_ method: HTTPRequest.Method, _ path: String, _ json: String) -> Request {
        Request(
            head: .init(method: method, scheme: "http", authority: "localhost", path: path, headerFields: [.contentType: "application/json"]),
            body: RequestBody(buffer: ByteBuffer(string: json)))
    }

    /// A response with its body read.
    struct Answer {
        var status: HTTPResponse.Status
        var headers: HTTPFields
        var text: String

        func json() throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not a JSON object: \(text)")
        }
    }

    /// Sends `request` straight to the routes, as the server would, and reads the whole answer.
    private func respond(_ responder: some HTTPResponder<BasicRequestContext>, _ request: Request) async throws -> Answer {
        let context = BasicRequestContext(source: .init(channel: NIOAsyncTestingChannel(), logger: Logger(label: "test")))
        let response = try await responder.respond(to: request, context: context)
        let collected = CollectingWriter()
        try await response.body.write(collected)
        return Answer(status: response.status, headers: response.headers, text: String(buffer: collected.buffer.withLock { $0 }))
    }
}

/// A request body the test hands out chunk by chunk, telling it when the server asks for the second.
final class HeldBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    private let (chunks, continuation) = AsyncStream.makeStream(of: ByteBuffer.self)
    private let (reads, readsContinuation) = AsyncStream.makeStream(of: Int.self)
    private let readCount = Mutex(0)

    func send(_ chunk: ByteBuffer) { continuation.yield(chunk) }
    func finish() { continuation.finish() }

    /// Returns once the reader has asked for a second chunk, having taken the first.
    func waitForSecondRead() async {
        for await count in reads where count >= 2 { return }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        var chunks: AsyncStream<ByteBuffer>.AsyncIterator
        let body: HeldBody

        mutating func next() async -> ByteBuffer? {
            body.readsContinuation.yield(body.readCount.withLock { $0 += 1; return $0 })
            return await chunks.next()
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(chunks: chunks.makeAsyncIterator(), body: self)
    }
}

/// Collects a response body written by a route.
final class CollectingWriter: ResponseBodyWriter, Sendable {
    let buffer = Mutex(ByteBuffer())

    func write(_ buffer: ByteBuffer) async throws {
        self.buffer.withLock { $0.writeImmutableBuffer(buffer) }
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {}
}
