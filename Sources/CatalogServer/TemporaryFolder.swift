import Foundation
import ServiceLifecycle

/// A new, private folder under the system's temporary directory, removed when the server stops.
struct TemporaryFolder: Service {
    let path: String

    /// Creates `<tmp>/<prefix>.XXXXXX`.
    init(prefix: String) throws {
        var template = Array((NSTemporaryDirectory() + prefix + ".XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else {
            throw APIError(.internalServerError, "Cannot create a temporary folder for uploads in \(NSTemporaryDirectory()): \(String(cString: strerror(errno))). Set TMPDIR to a folder you can write to.")
        }
        path = String(cString: created)
    }

    /// Waits for the server to shut down, then removes the folder and what it holds.
    func run() async throws {
        try? await gracefulShutdown()
        try? FileManager.default.removeItem(atPath: path)
    }
}
