import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A small HTTP/1.1 server on 127.0.0.1, on a port the system picks, that answers each path the
/// way a test says, misbehaving on purpose when asked to.
///
/// It writes raw bytes on plain sockets, one thread per connection and `Connection: close`, so a
/// test controls exactly what goes on the wire: a `Content-Length` that lies, a body cut off, a
/// server that goes silent. ``stop()`` (or releasing the server) closes everything.
final class TestHTTPServer: @unchecked Sendable {
    /// How the server answers one path.
    enum Response: Sendable {
        /// 200 with a `Content-Length` and the whole body.
        case body([UInt8], contentType: String = "text/csv")
        /// 200 with `Transfer-Encoding: chunked` and no `Content-Length`, in chunks of `chunkSize`.
        case chunked([UInt8], chunkSize: Int)
        /// A redirect to `location` (a path on this server or a whole URL).
        case redirect(to: String, status: Int = 302)
        /// Any status, with a short text body.
        case status(Int, reason: String)
        /// 200 with a `Content-Length` of the whole body, but only its first `sent` bytes; then the
        /// connection closes.
        case cutOff([UInt8], sent: Int)
        /// The response head and the first `sent` bytes of the body, then silence until the
        /// server stops.
        case stall([UInt8], sent: Int)
    }

    /// The port the server listens on.
    let port: Int
    private let listener: Int32
    private let routes: [String: Response]
    private let lock = NSCondition()
    private var connections: Set<Int32> = []
    private var requested: [String] = []
    private var stopped = false

    /// Starts listening; the server answers until ``stop()``.
    init(routes: [String: Response]) throws {
        self.routes = routes
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard listening else {
            let code = errno
            close(fd)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptConnections() }
        thread.start()
    }

    /// The URL of `path` on this server.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)")!
    }

    /// The paths requested so far, in order.
    var requestedPaths: [String] {
        lock.lock()
        defer { lock.unlock() }
        return requested
    }

    /// Stops listening and closes every open connection, waking stalled ones.
    func stop() {
        lock.lock()
        guard !stopped else {
            lock.unlock()
            return
        }
        stopped = true
        for connection in connections { shutdown(connection, Int32(SHUT_RDWR)) }
        lock.broadcast()
        lock.unlock()
        // Wakes the blocked accept(); the accept thread closes the listener.
        shutdown(listener, Int32(SHUT_RDWR))
    }

    private func acceptConnections() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                break
            }
            lock.lock()
            if stopped {
                lock.unlock()
                close(connection)
                break
            }
            connections.insert(connection)
            lock.unlock()
            Thread { [self] in
                answer(connection)
                lock.lock()
                connections.remove(connection)
                lock.unlock()
                close(connection)
            }.start()
        }
        close(listener)
    }

    private func answer(_ connection: Int32) {
        guard let path = readRequestPath(connection) else { return }
        lock.lock()
        requested.append(path)
        lock.unlock()
        switch routes[path] ?? .status(404, reason: "Not Found") {
        case .body(let body, let contentType):
            send(connection, head(200, "OK", ["Content-Type": contentType, "Content-Length": "\(body.count)"]) + body)
        case .chunked(let body, let chunkSize):
            send(connection, head(200, "OK", ["Content-Type": "text/csv", "Transfer-Encoding": "chunked"]))
            var start = 0
            while start < body.count {
                let end = min(start + chunkSize, body.count)
                send(connection, Array((String(end - start, radix: 16) + "\r\n").utf8) + body[start..<end] + Array("\r\n".utf8))
                start = end
            }
            send(connection, Array("0\r\n\r\n".utf8))
        case .redirect(let location, let status):
            send(connection, head(status, "Found", ["Location": location, "Content-Length": "0"]))
        case .status(let status, let reason):
            let body = Array("\(status) \(reason)\n".utf8)
            send(connection, head(status, reason, ["Content-Type": "text/plain", "Content-Length": "\(body.count)"]) + body)
        case .cutOff(let body, let sent):
            send(connection, head(200, "OK", ["Content-Type": "text/csv", "Content-Length": "\(body.count)"]) + body[..<sent])
        case .stall(let body, let sent):
            send(connection, head(200, "OK", ["Content-Type": "text/csv", "Content-Length": "\(body.count)"]) + body[..<sent])
            lock.lock()
            while !stopped { lock.wait() }
            lock.unlock()
        }
    }

    /// Reads the request head and returns its path; nil when the client went away first.
    private func readRequestPath(_ connection: Int32) -> String? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        let end = Array("\r\n\r\n".utf8)
        while received.firstRange(of: end) == nil {
            guard received.count < 65_536 else { return nil }
            let n = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { return nil }
            received += buffer[..<n]
        }
        let requestLine = String(decoding: received.prefix { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
        let parts = requestLine.split(separator: " ")
        return parts.count >= 2 ? String(parts[1]) : nil
    }

    private func head(_ status: Int, _ reason: String, _ fields: [String: String]) -> [UInt8] {
        var text = "HTTP/1.1 \(status) \(reason)\r\nConnection: close\r\n"
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) { text += "\(name): \(value)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    /// Writes all of `bytes`, giving up quietly when the client has gone.
    private func send(_ connection: Int32, _ bytes: [UInt8]) {
        var offset = 0
        bytes.withUnsafeBytes { raw in
            while offset < raw.count {
                let n = Glibc.send(connection, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if n <= 0 {
                    if n < 0 && errno == EINTR { continue }
                    return
                }
                offset += n
            }
        }
    }
}
