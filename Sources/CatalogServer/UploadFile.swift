#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Hummingbird

/// Streams a request body into a file as it arrives, never holding more than one buffer in memory.
enum UploadFile {
    /// Writes `body` to a new file at `path` and returns its size; 413 once it passes `limit` bytes.
    ///
    /// The partial file is removed when the upload fails.
    static func write(_ body: RequestBody, to path: String, limit: Int) async throws -> Int {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw APIError(.internalServerError, "The server cannot create \(path) for the upload: \(String(cString: strerror(errno))).")
        }
        var total = 0
        do {
            defer { close(descriptor) }
            for try await buffer in body {
                total += buffer.readableBytes
                guard total <= limit else { throw tooLarge(limit: limit) }
                try buffer.withUnsafeReadableBytes { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        let written = systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                        if written < 0 {
                            if errno == EINTR { continue }
                            throw writeFailed(path: path, errno: errno)
                        }
                        offset += written
                    }
                }
            }
        } catch {
            unlink(path)
            throw error
        }
        return total
    }

    /// The 413 answer for an upload over `limit` bytes.
    static func tooLarge(limit: Int) -> APIError {
        APIError(.contentTooLarge, "The file is larger than this server accepts (\(limit) bytes); split it, or restart catalog serve with a larger --max-upload-bytes.")
    }

    private static func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(descriptor, bytes, count)
        #else
        Darwin.write(descriptor, bytes, count)
        #endif
    }

    private static func writeFailed(path: String, errno code: Int32) -> APIError {
        if code == ENOSPC {
            return APIError(.init(code: 507, reasonPhrase: "Insufficient Storage"), "The server's disk is full while saving the upload to \(path); free some space and upload again.")
        }
        return APIError(.internalServerError, "The server could not save the upload to \(path): \(String(cString: strerror(code))).")
    }
}
