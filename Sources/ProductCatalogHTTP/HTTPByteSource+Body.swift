import ProductCatalog
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// One response's head and body on their way from the event loop to the reader's thread.
///
/// The event loop must never block, so it hands each body part over and, when the buffer holds
/// `capacity` bytes or more, gets a future that the reader completes once it has taken enough:
/// AsyncHTTPClient reads nothing more from the socket until then. The reader blocks on a
/// condition instead. A failure ends the response at once, whatever is still buffered.
final class HTTPBodyBuffer: @unchecked Sendable {
    // @unchecked: every stored var is read and written only with `condition` locked.

    /// What the reader learns from the response head.
    struct Head {
        /// The `Content-Length`, when the server sent one.
        var contentLength: Int?
    }

    private let condition = NSCondition()
    private let capacity: Int
    /// The name failures are reported under: the URL asked for.
    private let sourceName: String
    private let describe: @Sendable (_ error: any Error, _ received: Int, _ expected: Int?) -> String
    private var head: Head?
    private var parts = CircularBuffer<ByteBuffer>()
    private var buffered = 0
    private var received = 0
    private var finished = false
    private var failure: ByteSourceError?
    private var paused: EventLoopPromise<Void>?
    private var peak = 0

    /// `describe` puts an error of the download in words, given the body bytes received and expected.
    init(
        capacity: Int, sourceName: String,
        describing describe: @escaping @Sendable (_ error: any Error, _ received: Int, _ expected: Int?) -> String
    ) {
        self.capacity = capacity
        self.sourceName = sourceName
        self.describe = describe
    }

    /// The most bytes that were buffered at any time.
    var peakBufferedBytes: Int {
        condition.lock()
        defer { condition.unlock() }
        return peak
    }

    // MARK: The event loop's side

    /// Takes the final response head (after any redirects); returns false when its status is not 2xx.
    func receive(_ response: HTTPResponseHead) -> Bool {
        guard (200..<300).contains(response.status.code) else {
            fail(ByteSourceError(source: sourceName, reason: Self.describe(status: response.status)))
            return false
        }
        condition.lock()
        defer { condition.unlock() }
        head = Head(contentLength: response.headers.first(name: "content-length").flatMap { Int($0) })
        condition.broadcast()
        return true
    }

    /// Adds a body part; the future completes when there is room for the next one.
    func receive(_ part: ByteBuffer, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        condition.lock()
        defer { condition.unlock() }
        guard failure == nil else { return eventLoop.makeSucceededVoidFuture() }
        parts.append(part)
        buffered += part.readableBytes
        received += part.readableBytes
        peak = max(peak, buffered)
        condition.broadcast()
        guard buffered >= capacity else { return eventLoop.makeSucceededVoidFuture() }
        let promise = eventLoop.makePromise(of: Void.self)
        paused = promise
        condition.broadcast()
        return promise.futureResult
    }

    /// The response is complete.
    func finish() {
        condition.lock()
        defer { condition.unlock() }
        finished = true
        condition.broadcast()
    }

    /// The download failed; the first failure is the one the reader sees.
    func fail(_ error: any Error) {
        condition.lock()
        let failure = ByteSourceError(source: sourceName, reason: describe(error, received, head?.contentLength))
        condition.unlock()
        fail(failure)
    }

    private func fail(_ failure: ByteSourceError) {
        condition.lock()
        if self.failure == nil { self.failure = failure }
        parts.removeAll()
        buffered = 0
        let promise = paused
        paused = nil
        condition.broadcast()
        condition.unlock()
        // Outside the lock: on the event loop, completing a promise runs its callbacks at once.
        promise?.succeed()
    }

    // MARK: The reader's side

    /// Waits until the download is paused for want of room (or has ended): for tests of the bound.
    func waitForPause() {
        condition.lock()
        defer { condition.unlock() }
        while paused == nil && failure == nil && !finished { condition.wait() }
    }

    /// Waits for the response head.
    func waitForHead() throws(ByteSourceError) -> Head {
        condition.lock()
        defer { condition.unlock() }
        while head == nil && failure == nil && !finished { condition.wait() }
        if let failure { throw failure }
        // A response always has a head before it can finish; this is only a guard.
        return head ?? Head()
    }

    /// Waits for the next body part; nil once the response is complete.
    func take() throws(ByteSourceError) -> ByteBuffer? {
        condition.lock()
        while parts.isEmpty && failure == nil && !finished { condition.wait() }
        if let failure {
            condition.unlock()
            throw failure
        }
        guard let part = parts.popFirst() else {
            condition.unlock()
            return nil
        }
        buffered -= part.readableBytes
        // Resume at half the capacity, not just below it, so the download goes on in large steps.
        var resume: EventLoopPromise<Void>?
        if buffered <= capacity / 2 {
            resume = paused
            paused = nil
        }
        condition.unlock()
        resume?.succeed()
        return part
    }

    private static func describe(status: HTTPResponseStatus) -> String {
        let code = status.code
        let what = switch code {
        case 300..<400: "a redirect that was not followed"
        case 401, 403: "access denied"
        case 404, 410: "no such file on the server"
        case 400..<500: "the request was refused"
        default: "the server failed"
        }
        return "the server answered \(code) \(status.reasonPhrase) (\(what))"
    }
}

/// Passes AsyncHTTPClient's events for one download to an ``HTTPBodyBuffer``.
final class HTTPBodyDelegate: HTTPClientResponseDelegate {
    typealias Response = Void
    let buffer: HTTPBodyBuffer

    init(buffer: HTTPBodyBuffer) {
        self.buffer = buffer
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        if !buffer.receive(head) { task.cancel() }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ part: ByteBuffer) -> EventLoopFuture<Void> {
        buffer.receive(part, on: task.eventLoop)
    }

    func didReceiveError(task: HTTPClient.Task<Void>, _ error: any Error) {
        buffer.fail(error)
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {
        buffer.finish()
    }
}
