import ProductCatalog
import AsyncHTTPClient
import struct Foundation.URL
import NIOCore

/// The body of an `http` or `https` download, read as it arrives.
///
/// ```swift
/// let source = try HTTPByteSource(url: URL(string: "https://example.com/products.csv")!)
/// let summary = try importer.run(source: GzipByteSource.decompressingIfGzip(source))
/// ```
///
/// The download runs on AsyncHTTPClient's event loop while the reader blocks in
/// ``read(into:)``. Between the two sits a buffer of at most ``Options/bufferCapacity`` bytes:
/// when it is full the download pauses (the server is made to wait by TCP flow control), so
/// memory stays constant however fast the network and however large the file.
///
/// Redirects are followed up to ``Options/maxRedirects``. A status other than 2xx, a failed
/// connection, ``Options/timeout`` without a byte, or a body shorter than its `Content-Length`
/// makes a read throw a ``ByteSourceError`` that says which. ``expectedBytes`` is the
/// `Content-Length` (nil when the server does not send one), known once the response head has
/// arrived, which the first read waits for.
public final class HTTPByteSource: ByteSource {
    /// How to download.
    public struct Options: Sendable, Hashable {
        /// How long to wait for the connection, and then for each next piece of the response.
        public var timeout: Duration
        /// How many redirects to follow; 0 treats a redirect as a failure.
        public var maxRedirects: Int
        /// The most downloaded bytes held for the reader; the download pauses while they are there.
        public var bufferCapacity: Int

        public init(timeout: Duration = .seconds(30), maxRedirects: Int = 10, bufferCapacity: Int = 4 << 20) {
            precondition(timeout > .zero && maxRedirects >= 0 && bufferCapacity > 0)
            self.timeout = timeout
            self.maxRedirects = maxRedirects
            self.bufferCapacity = bufferCapacity
        }
    }

    /// True for an absolute `http` or `https` URL with a host: what this source can download.
    public static func canDownload(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        return url.host.map { !$0.isEmpty } ?? false
    }

    /// The URL asked for.
    public let url: URL
    public let options: Options
    public var name: String { url.absoluteString }
    /// Body bytes handed to the reader so far.
    public private(set) var bytesRead = 0
    /// The response's `Content-Length`; nil before the first read and when the server sends none.
    public private(set) var expectedBytes: Int?

    private let client: HTTPClient
    private let body: HTTPBodyBuffer
    private let task: HTTPClient.Task<Void>
    private var current: ByteBuffer?
    private var headSeen = false
    private var ended = false

    /// Starts downloading `url`; throws only when `url` is not an `http` or `https` URL.
    public init(url: URL, options: Options = Options()) throws {
        guard Self.canDownload(url) else {
            throw ByteSourceError(source: url.absoluteString, reason: "not an http:// or https:// URL")
        }
        let request: HTTPClient.Request
        do {
            request = try HTTPClient.Request(url: url.absoluteString, method: .GET, headers: ["User-Agent": "ProductCatalog"])
        } catch {
            throw ByteSourceError(source: url.absoluteString, reason: "not a URL that can be downloaded (\(error))")
        }
        self.url = url
        self.options = options
        let timeout = TimeAmount(options.timeout)
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: options.maxRedirects > 0 ? .follow(max: options.maxRedirects, allowCycles: false) : .disallow,
            timeout: HTTPClient.Configuration.Timeout(connect: timeout, read: timeout))
        // A refused connection fails at once instead of being retried until the timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        let body = HTTPBodyBuffer(
            capacity: options.bufferCapacity, sourceName: url.absoluteString, describing: Self.describeFailure(options: options))
        self.body = body
        task = client.execute(request: request, delegate: HTTPBodyDelegate(buffer: body))
        // Some failures (a redirect loop, say) fail the task without telling the delegate.
        task.futureResult.whenComplete { result in
            switch result {
            case .success: body.finish()
            case .failure(let error): body.fail(error)
            }
        }
    }

    deinit {
        // Stops a download the reader gave up on; the client keeps itself alive until it is shut down.
        task.cancel()
        client.shutdown { _ in }
    }

    /// The most body bytes that were waiting for the reader at any time, for tests of the bound.
    var peakBufferedBytes: Int { body.peakBufferedBytes }

    /// Waits until the download pauses because the buffer is full (or ends), for tests of the bound.
    func waitUntilDownloadPauses() {
        body.waitForPause()
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard buffer.count > 0, !ended else { return 0 }
        if !headSeen {
            let head = try body.waitForHead()
            headSeen = true
            expectedBytes = head.contentLength
        }
        while (current?.readableBytes ?? 0) == 0 {
            guard let next = try body.take() else {
                ended = true
                if let expectedBytes, bytesRead < expectedBytes {
                    throw ByteSourceError(source: name, reason: Self.endedEarly(bytesRead, of: expectedBytes))
                }
                return 0
            }
            current = next
        }
        let n = min(buffer.count, current!.readableBytes)
        current!.withUnsafeReadableBytes { bytes in
            buffer.baseAddress!.copyMemory(from: bytes.baseAddress!, byteCount: n)
        }
        current!.moveReaderIndex(forwardBy: n)
        bytesRead += n
        return n
    }

    static func endedEarly(_ received: Int, of expected: Int) -> String {
        "the download ended early: the server sent \(received) of the \(expected) bytes it announced (Content-Length)"
    }
}
