import Foundation

/// The external test files in `../shared/testdata` beside the package (see its README).
///
/// They are never copied into the repository: tests that use them are skipped when the folder is
/// absent, so the package still tests cleanly elsewhere.
enum SharedTestData {
    /// The package root: the nearest folder above this source file that holds `Package.swift`.
    static let packageRoot: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder
            }
            folder = folder.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    }()

    /// `../shared/testdata` from the package root.
    static let root: URL = packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared").appendingPathComponent("testdata").standardizedFileURL

    /// A folder (or file) inside ``root``.
    static func url(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }

    /// Whether `relativePath` exists inside ``root``.
    static func exists(_ relativePath: String) -> Bool {
        FileManager.default.fileExists(atPath: url(relativePath).path)
    }

    /// The bytes of a file inside ``root``.
    static func bytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url(relativePath)))
    }
}
