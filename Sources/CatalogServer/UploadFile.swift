import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Hummingbird
import Synchronization

/// Streams a request body into a file as it arrives, never holding more than one buffer in memory.
enum UploadFile {
    /// Writes `body` to a new file at `path` and returns its size.
    ///
    /// 413 once it passes `limit` bytes (`tooLarge` says it in the route's words); with
    /// `keepingFirst`, the first that many bytes are written and the rest is not read, never a 413.
    /// 408 when no byte arrives for `stallTimeout`, so a client that stops sending holds no slot
    /// and no memory. The partial file is removed when the upload fails.
    static func write(_ body: RequestBody, to path: String, limit: Int, stallTimeout: Duration = .seconds(30),
                      tooLarge: APIError? = nil, keepingFirst: Int? = nil) async throws -> Int {
        let tooLarge = tooLarge ?? Self.tooLarge(limit: limit)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw APIError(.internalServerError, "The server cannot store the upload: \(String(cString: strerror(errno))). See the server's output.")
        }
        let lastArrival = LastArrival()
        do {
            defer { close(descriptor) }
            return try await withThrowingTaskGroup(of: Int?.self) { group in
                group.addTask {
                    var total = 0
                    for try await buffer in body {
                        lastArrival.touch()
                        if let keepingFirst {
                            let wanted = min(buffer.readableBytes, keepingFirst - total)
                            try buffer.withUnsafeReadableBytes { try writeAll(descriptor, UnsafeRawBufferPointer(rebasing: $0.prefix(wanted))) }
                            total += wanted
                            if total >= keepingFirst { break }
                            continue
                        }
                        total += buffer.readableBytes
                        guard total <= limit else { throw tooLarge }
                        try buffer.withUnsafeReadableBytes { try writeAll(descriptor, $0) }
                    }
                    return total
                }
                group.addTask {
                    while true {
                        let idle = lastArrival.idle
                        if idle >= stallTimeout { throw stalled(after: stallTimeout) }
                        try await Task.sleep(for: min(stallTimeout - idle, .seconds(1)))
                    }
                }
                defer { group.cancelAll() }
                while let result = try await group.next() {
                    if let total = result { return total }
                }
                return 0
            }
        } catch {
            unlink(path)
            throw error
        }
    }

    /// The 413 answer for an upload over `limit` bytes.
    static func tooLarge(limit: Int) -> APIError {
        APIError(.contentTooLarge, "The file is larger than this server accepts (\(limit) bytes); split it, or restart catalog serve with a larger --max-upload-bytes.")
    }

    /// The 408 answer for an upload that stopped arriving.
    static func stalled(after timeout: Duration) -> APIError {
        APIError(.requestTimeout, "The upload stopped: no data arrived for \(timeout.components.seconds) seconds. Upload the file again.")
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) throws {
        do {
            _ = try FileDescriptor(rawValue: descriptor).writeAll(bytes)
        } catch let error as Errno {
            throw writeFailed(errno: error.rawValue)
        }
    }

    private static func writeFailed(errno code: Int32) -> APIError {
        if code == ENOSPC {
            return .diskFull("The server's disk filled up while saving the upload; free some space and upload again.")
        }
        return APIError(.internalServerError, "The server could not save the upload: \(String(cString: strerror(code))).")
    }
}

/// When the last bytes of an upload arrived, shared by the task that writes and the one that watches.
private final class LastArrival: Sendable {
    private let instant = Mutex(ContinuousClock.now)

    func touch() {
        instant.withLock { $0 = .now }
    }

    var idle: Duration {
        ContinuousClock.now - instant.withLock { $0 }
    }
}
