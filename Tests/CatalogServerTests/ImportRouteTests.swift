import Foundation
import Synchronization
import Hummingbird
import HummingbirdTesting
import ProductCatalog
import Testing
@testable import CatalogServer

@Suite(.serialized) struct ImportRouteTests {
    /// 30,000 generated products, a row whose price is not one, and a productId that comes again.
    static func uploadCSV() -> String {
        var csv = productsCSV(prefix: "NEW", count: 30_000)
        csv += "NEW-BAD,Broken,abc\n"
        csv += "NEW-000,Again,1\n"
        return csv
    }

    @Test func anUploadIsImportedWhileItsEventsArriveInOrderEndingWithTheSummary() async throws {
        let fixture = try ServerFixture(progressInterval: .milliseconds(1))
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "OLD", count: 5))
        try await fixture.application().test(.router) { client in
            let accepted = try await client.execute(uri: "/api/imports", method: .post, headers: csvUpload, body: ByteBuffer(string: Self.uploadCSV()))
            #expect(accepted.status == .accepted)
            #expect(accepted.headers[.location] == "/api/imports/1")
            let record = try accepted.json()
            #expect(record["id"] as? Int == 1)
            #expect(record["eventsURL"] as? String == "/api/imports/1/events")

            let stream = try await client.execute(uri: "/api/imports/1/events", method: .get)
            #expect(stream.headers[.contentType] == "text/event-stream; charset=utf-8")
            let events = try ServerSentEvent.parse(stream.text)
            #expect(events.map(\.id) == events.map(\.id).sorted() && Set(events.map(\.id)).count == events.count)
            #expect(events.dropLast().allSatisfy { $0.name == "progress" && $0.data["event"] as? String == "progress" })
            #expect(events.count >= 2, "a progress event before the end")
            let progressKeys: Set = ["event", "phase", "rowsRead", "rowsInserted", "rowsRejected", "duplicates",
                                     "bytesRead", "totalBytes", "seconds", "rowsPerSecond", "fractionCompleted", "etaSeconds"]
            #expect(events.dropLast().allSatisfy { Set($0.data.keys) == progressKeys })
            let rowsRead = events.dropLast().compactMap { $0.data["rowsRead"] as? Int }
            #expect(rowsRead == rowsRead.sorted())

            let finished = try #require(events.last)
            #expect(finished.name == "finished")
            #expect(finished.data["rowsRead"] as? Int == 30_002)
            #expect(finished.data["rowsInserted"] as? Int == 30_000)
            #expect(finished.data["rowsRejected"] as? Int == 1)
            #expect(finished.data["duplicates"] as? Int == 1)

            let status = try await client.execute(uri: "/api/imports/1", method: .get)
            let done = try status.json()
            #expect(done["status"] as? String == "finished")
            #expect(done["rejectsURL"] as? String == "/api/imports/1/rejects")

            let rejects = try await client.execute(uri: "/api/imports/1/rejects", method: .get)
            #expect(rejects.status == .ok)
            #expect(rejects.headers[.contentType] == "text/csv; charset=utf-8")
            #expect(rejects.text.hasPrefix("line,reason,productId,title,listPrice\n30002,"))
            #expect(rejects.text.contains("NEW-BAD,Broken,abc"))

            let list = try await client.execute(uri: "/api/products", method: .get)
            #expect(try list.json()["count"] as? Int == 30_000)
            #expect(try list.productIds().first == "NEW-000")
        }
    }

    /// The importer writes rejected rows to a FIFO here, so it stops at the first one until the
    /// test reads them: a real import held mid-way, with no timing involved.
    @Test(arguments: TestEngine.available) func whileAnImportRunsAnotherIsRefusedAndSearchesSeeTheOldCatalog(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "OLD", count: 3))
        let fifo = fixture.imports.rejectsPath(for: 1)
        #expect(mkfifo(fifo, 0o600) == 0)
        let drained = RejectsDrain(path: fifo)
        try await fixture.application().test(.router) { client in
            defer { drained.start() }
            let first = try await client.execute(uri: "/api/imports", method: .post, headers: csvUpload, body: ByteBuffer(string: "productId,title,listPrice\nNEW-1,One,1\nNEW-2,Two,x\nNEW-3,Three,3\n"))
            #expect(first.status == .accepted)

            let second = try await client.execute(uri: "/api/imports", method: .post, headers: csvUpload, body: ByteBuffer(string: productsCSV(prefix: "X", count: 1)))
            #expect(second.status == .conflict)
            let message = try #require(try second.json()["error"] as? [String: Any])["message"] as? String
            #expect(message?.contains("Import 1 is still running") == true)

            let during = try await client.execute(uri: "/api/products", method: .get)
            #expect(try during.productIds() == ["OLD-000", "OLD-001", "OLD-002"])
            let status = try await client.execute(uri: "/api/imports/1", method: .get)
            #expect(try status.json()["status"] as? String == "running")

            drained.start()
            let events = try ServerSentEvent.parse(try await client.execute(uri: "/api/imports/1/events", method: .get).text)
            #expect(events.last?.name == "finished")
            #expect(events.last?.data["rowsRejected"] as? Int == 1)
            #expect(await drained.contents().contains("NEW-2,Two,x"))

            let after = try await client.execute(uri: "/api/products", method: .get)
            #expect(try after.productIds() == ["NEW-1", "NEW-3"])
            let third = try await client.execute(uri: "/api/imports", method: .post, headers: csvUpload, body: ByteBuffer(string: productsCSV(prefix: "X", count: 1)))
            #expect(third.status == .accepted)
        }
    }

    @Test func anUploadOverTheLimitIsA413AndLeavesTheSlotFree() async throws {
        let fixture = try ServerFixture(maxUploadBytes: 100)
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let tooLarge = try await client.execute(uri: "/api/imports", method: .post, headers: csvUpload, body: ByteBuffer(string: productsCSV(prefix: "P", count: 10)))
            #expect(tooLarge.status == .contentTooLarge)
            let error = try #require(try tooLarge.json()["error"] as? [String: Any])
            #expect((error["message"] as? String)?.contains("--max-upload-bytes") == true)
            let small = try await client.execute(uri: "/api/imports", method: .post, headers: csvUpload, body: ByteBuffer(string: productsCSV(prefix: "P", count: 2)))
            #expect(small.status == .accepted)
        }
    }

    @Test(arguments: TestEngine.available) func anUpsertWithDeleteMissingLeavesExactlyTheFilesProducts(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 10))
        try await fixture.application().test(.router) { client in
            let refused = try await client.execute(uri: "/api/imports?deleteMissing=true", method: .post, headers: csvUpload,
                                                   body: ByteBuffer(string: productsCSV(prefix: "P", count: 2)))
            #expect(refused.status == .badRequest)
            let delta = "productId,title,listPrice\nP-003,Changed,1.00\nQ-1,New,2.00\n"
            // Past a tenth of the catalog, the import stops with it unchanged; so does a header-only file.
            for (query, body) in [("", delta), ("&maxDeletes=90%", "productId,title\n")] {
                let limited = try await client.execute(uri: "/api/imports?mode=upsert&deleteMissing=true" + query, method: .post, headers: csvUpload,
                                                       body: ByteBuffer(string: body))
                #expect(limited.status == .accepted)
                let id = try #require(try limited.json()["id"] as? Int)
                let failed = try #require(try ServerSentEvent.parse(try await client.execute(uri: "/api/imports/\(id)/events", method: .get).text).last)
                #expect(failed.name == "failed", "\(failed.data)")
            }
            #expect(try await client.execute(uri: "/api/products", method: .get).productIds().count == 10)
            let badLimit = try await client.execute(uri: "/api/imports?mode=upsert&deleteMissing=true&maxDeletes=lots", method: .post,
                                                    headers: csvUpload, body: ByteBuffer(string: delta))
            #expect(badLimit.status == .badRequest)
            let accepted = try await client.execute(uri: "/api/imports?mode=upsert&deleteMissing=true&maxDeletes=9", method: .post, headers: csvUpload,
                                                    body: ByteBuffer(string: delta))
            #expect(accepted.status == .accepted)
            let id = try #require(try accepted.json()["id"] as? Int)
            let events = try ServerSentEvent.parse(try await client.execute(uri: "/api/imports/\(id)/events", method: .get).text)
            let finished = try #require(events.last)
            #expect(finished.name == "finished", "\(finished.data)")
            #expect(finished.data["rowsDeleted"] as? Int == 9 && finished.data["rowsUpdated"] as? Int == 1)
            let list = try await client.execute(uri: "/api/products", method: .get)
            #expect(try list.productIds() == ["P-003", "Q-1"])
        }
    }

    @Test(arguments: TestEngine.available) func anEmptyUploadIsABadRequest(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/api/imports", method: .post, headers: csvUpload)
            #expect(response.status == .badRequest)
            let next = try await client.execute(uri: "/api/imports", method: .post, headers: csvUpload, body: ByteBuffer(string: productsCSV(prefix: "P", count: 2)))
            #expect(next.status == .accepted)
        }
    }

    @Test(arguments: TestEngine.available) func aFileThatCannotBeImportedEndsWithAFailedEventAndTheCatalogUnchanged(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "OLD", count: 2))
        try await fixture.application().test(.router) { client in
            let accepted = try await client.execute(uri: "/api/imports", method: .post, headers: csvUpload, body: ByteBuffer(string: "name,price\nMug,1\n"))
            #expect(accepted.status == .accepted)
            let events = try ServerSentEvent.parse(try await client.execute(uri: "/api/imports/1/events", method: .get).text)
            let failed = try #require(events.last)
            #expect(failed.name == "failed")
            #expect((failed.data["message"] as? String)?.contains("no productId column") == true)
            let status = try await client.execute(uri: "/api/imports/1", method: .get)
            #expect(try status.json()["status"] as? String == "failed")
            let rejects = try await client.execute(uri: "/api/imports/1/rejects", method: .get)
            #expect(rejects.status == .notFound)
            #expect(try await fixture.storedIds() == ["OLD-000", "OLD-001"])
        }
    }

    @Test(arguments: TestEngine.available) func anImportThisServerDoesNotKnowIsA404(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.application().test(.router) { client in
            for uri in ["/api/imports/7", "/api/imports/7/events", "/api/imports/seven"] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .notFound, "\(uri)")
                #expect(try response.errorFields().isEmpty)
            }
        }
    }
}

/// Reads a FIFO to its end on a thread of its own, once told to start.
final class RejectsDrain: Sendable {
    private let path: String
    private let result = Mutex<(started: Bool, contents: Data?, waiters: [CheckedContinuation<Data, Never>])>((false, nil, []))

    init(path: String) {
        self.path = path
    }

    /// Opens the FIFO for reading (which lets the blocked importer go on) and reads it to its end.
    func start() {
        let begin = result.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started
        }
        guard begin else { return }
        let path = self.path
        Thread.detachNewThread {
            let data = Self.readToEnd(path)
            let waiters = self.result.withLock { state -> [CheckedContinuation<Data, Never>] in
                state.contents = data
                defer { state.waiters = [] }
                return state.waiters
            }
            for waiter in waiters { waiter.resume(returning: data) }
        }
    }

    /// Every byte until the writer closes its end; `FileManager` would stop at the FIFO's size, 0.
    private static func readToEnd(_ path: String) -> Data {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return Data() }
        defer { close(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return data }
            data.append(contentsOf: buffer[0..<count])
        }
    }

    /// What the importer wrote, once it closed the file.
    func contents() async -> String {
        let data = await withCheckedContinuation { continuation in
            let ready = result.withLock { state -> Data? in
                if let contents = state.contents { return contents }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
        return String(decoding: data, as: UTF8.self)
    }
}

@Suite struct ImportPreviewRouteTests {
    @Test(arguments: TestEngine.available) func aPreviewShowsTheFormatAndFirstProductsAndChangesNothing(engine: TestEngine) async throws {
        let fixture = try ServerFixture(engine: engine)
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "OLD", count: 2))
        let csv = "Handle,Title,Option1 Name,Option1 Value,Variant Price\ntee,Tee,Size,S,10.00\ntee,,,M,12.00\n"
        try await fixture.application().test(.router) { client in
            let response = try await client.execute(uri: "/api/imports/preview", method: .post, headers: csvUpload, body: ByteBuffer(string: csv))
            #expect(response.status == .ok)
            let preview = try response.json()
            #expect(preview["format"] as? String == "shopify")
            #expect((preview["products"] as? [[String: Any]])?.compactMap { $0["productId"] as? String } == ["tee/S", "tee/M"])
            let refused = try await client.execute(uri: "/api/imports/preview", method: .post, headers: [.contentType: "text/plain"], body: ByteBuffer(string: csv))
            #expect(refused.status == .unsupportedMediaType)
        }
        #expect(try await fixture.storedIds() == ["OLD-000", "OLD-001"])
    }
}
