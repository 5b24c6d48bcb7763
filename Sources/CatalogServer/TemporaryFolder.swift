import Foundation
import ServiceLifecycle

/// A new, private folder under the system's temporary directory, removed when the server stops.
struct TemporaryFolder: Service {
    let path: String

    /// Creates `<tmp>/<prefix>.<pid>.XXXXXX`.
    init(prefix: String) throws {
        var template = Array((NSTemporaryDirectory() + prefix + ".\(getpid()).XXXXXX").utf8CString)
        guard let created = mkdtemp(&template) else {
            throw APIError(.internalServerError, "Cannot create a temporary folder for uploads in \(NSTemporaryDirectory()): \(String(cString: strerror(errno))). Set TMPDIR to a folder you can write to.")
        }
        path = String(cString: created)
    }

    /// Removes the folders of servers that were killed before they could remove their own:
    /// partial uploads and rejects files of imports that never ended.
    ///
    /// A folder belongs to a dead server when the process id in its name no longer runs.
    static func removeAbandoned(prefix: String) {
        let temporary = NSTemporaryDirectory()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: temporary) else { return }
        for name in names where name.hasPrefix(prefix + ".") {
            let parts = name.split(separator: ".")
            guard parts.count == 3, let pid = Int32(parts[1]), pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(atPath: temporary + name)
            }
        }
    }

    /// Waits for the server to shut down, then removes the folder and what it holds.
    func run() async throws {
        try? await gracefulShutdown()
        try? FileManager.default.removeItem(atPath: path)
    }
}
