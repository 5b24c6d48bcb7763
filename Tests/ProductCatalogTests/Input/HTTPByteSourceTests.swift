import Foundation
import Testing
@testable import ProductCatalog
@testable import ProductCatalogHTTP

@Suite struct HTTPByteSourceTests {
    @Test func aReaderThatFallsBehindPausesTheDownloadInsteadOfBufferingTheBody() throws {
        let body = SourceTestData.productCSV(rows: 100_000)
        let server = try TestHTTPServer(routes: ["/large.csv": .body(body)])
        defer { server.stop() }
        let capacity = 128 << 10
        let source = try HTTPByteSource(url: server.url("/large.csv"), options: HTTPByteSource.Options(bufferCapacity: capacity))

        var received: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
        defer { buffer.deallocate() }
        let first = try source.read(into: buffer)
        received += buffer[..<first]
        #expect(source.expectedBytes == body.count)

        // The reader stops here; the download goes on until the buffer is full, then waits.
        source.waitUntilDownloadPauses()
        let peak = source.peakBufferedBytes
        #expect(peak >= capacity, "the download filled the buffer")
        #expect(peak < body.count / 4, "but did not run ahead with the body: \(peak) of \(body.count) bytes")

        while true {
            let n = try source.read(into: buffer)
            if n == 0 { break }
            received += buffer[..<n]
        }
        #expect(received == body)
        #expect(source.bytesRead == body.count)
        #expect(source.peakBufferedBytes < body.count / 4, "the bound held to the end")
    }

    @Test(arguments: ["http://example.com/a.csv", "HTTPS://example.com/feed.csv.gz", "http://127.0.0.1:8080/x"])
    func anHTTPOrHTTPSArgumentIsAURL(argument: String) throws {
        #expect(InputSource(argument: argument) == .url(try #require(URL(string: argument))))
    }

    @Test(arguments: ["products.csv", "ftp://example.com/a.csv", "http:relative", "./http://x", "file:///tmp/a.csv"])
    func anythingElseIsAPath(argument: String) {
        #expect(InputSource(argument: argument) == .file(path: argument))
    }

    @Test func aDashIsStandardInput() {
        #expect(InputSource(argument: "-") == .standardInput)
    }

}
