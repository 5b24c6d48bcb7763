import Foundation
import Hummingbird
import HummingbirdTesting
import ProductCatalog
import Testing
@testable import CatalogServer

/// Hundreds of idle or dribbling sockets on loopback against the real server, which must still
/// answer a client that sends its request.
@Suite(.serialized) struct SlowClientTests {
    /// A server with room for 40 connections (closing the longest-waiting past 30) and a long
    /// idle limit, so that only the connection guard can free a place.
    func configuration(folder: String, headTimeout: Duration = .seconds(600)) -> ServerConfiguration {
        var configuration = ServerConfiguration(catalog: SQLiteCatalog(databasePath: folder + "/catalog.sqlite"), port: 0, workDirectory: folder)
        configuration.maxConnections = 40
        configuration.headTimeout = headTimeout
        configuration.idleTimeout = .seconds(600)
        return configuration
    }

    @Test func hundredsOfIdleAndDribblingSocketsMakeRoomForAClientThatSendsItsRequest() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 3))
        let app = try buildApplication(configuration(folder: fixture.folder))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            // 180 sockets that connect and say nothing, then 60 that dribble the start of a head: six
            // times the room, and within the kernel's queue of connections not yet accepted (256).
            var idle = try (0..<180).map { _ in try RawSocket(port: port) }
            for _ in 0..<60 {
                let socket = try RawSocket(port: port)
                try socket.write("GET /api/products HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                idle.append(socket)
            }
            let answer = try RawSocket(port: port).request("GET /api/products HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(answer.hasPrefix("HTTP/1.1 200 OK"), "\(answer.prefix(200))")
            #expect(answer.contains("\"P-000\""))
            // The first sockets, which waited longest, were closed to make that room.
            #expect(idle[0].readToEnd() == "")
            #expect(idle[1].readToEnd() == "")
        }
    }

    @Test func aRequestHeadThatDoesNotArriveInTimeClosesTheConnection() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        let app = try buildApplication(configuration(folder: fixture.folder, headTimeout: .milliseconds(300)))
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let slow = try RawSocket(port: port)
            try slow.write("GET /api/products HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            #expect(slow.readToEnd() == "")
            // A client that uses its connection gets its answer, and the same deadline again after it.
            let prompt = try RawSocket(port: port)
            let answer = try prompt.request("GET /api/catalog HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            #expect(answer.hasPrefix("HTTP/1.1 200 OK"))
            #expect(prompt.readToEnd() == "")
        }
    }
}

/// A blocking TCP socket to 127.0.0.1, with a receive limit of 60 s so that a broken server fails the test instead of hanging it.
final class RawSocket {
    private let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
    }

    deinit {
        close(descriptor)
    }

    func write(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
            throw POSIXError(.init(rawValue: errno) ?? .EIO)
        }
    }

    /// Sends `text` and reads the answer: until the server closes, or once a whole body of its `Content-Length` is in.
    func request(_ text: String) throws -> String {
        try write(text)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            received += buffer[0..<count]
            let text = String(decoding: received, as: UTF8.self)
            if let split = text.range(of: "\r\n\r\n"),
               let lengthLine = text[..<split.lowerBound].split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") }),
               let length = Int(lengthLine.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)),
               text.utf8.count - text.utf8.distance(from: text.startIndex, to: split.upperBound) >= length {
                return text
            }
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// What arrives until the server closes the connection ("" when it closes without a word);
    /// "<timeout>" when nothing ends within the receive limit.
    func readToEnd() -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return "<timeout>" }
            if count <= 0 { return String(decoding: received, as: UTF8.self) }
            received += buffer[0..<count]
        }
    }
}
