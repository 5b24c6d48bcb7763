#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FeedGenerator
import ProductCatalog

/// Files the benchmarks measure against: generated product CSVs and catalogs, made before
/// measurement starts and removed when the process ends.
///
/// package-benchmark runs every benchmark in a process of its own, so everything here is made
/// at most once per process, in a setup hook, never inside a measured iteration.
public enum BenchmarkFiles {
    /// A folder of this process's own under the system's temporary folder, removed at exit.
    public static var scratchFolder: String {
        if let folder = scratch { return folder }
        let base = temporaryBase()
        var template = Array("\(base)/productcatalog-bench-XXXXXX".utf8CString)
        let folder = template.withUnsafeMutableBufferPointer { buffer -> String in
            guard let result = mkdtemp(buffer.baseAddress!) else {
                fatalError("cannot create a temporary folder in \(base): \(String(cString: strerror(errno)))")
            }
            return String(cString: result)
        }
        scratch = folder
        atexit { BenchmarkFiles.removeScratchFolder() }
        return folder
    }

    /// Writes `rows` generated products (ProductGenerator, `seed`) to a file in the scratch folder.
    public static func generatedCSV(rows: Int, seed: UInt64 = 1) throws -> String {
        let path = "\(scratchFolder)/products-\(rows)-seed\(seed).csv"
        if access(path, F_OK) == 0 { return path }
        try ProductGenerator(rows: rows, seed: seed).write(toPath: path)
        return path
    }

    /// The size of the file at `path` in bytes.
    public static func size(ofFileAt path: String) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else { return 0 }
        return Int(info.st_size)
    }

    /// A path in the scratch folder for a database that does not exist yet.
    public static func freshDatabasePath(_ name: String) -> String {
        let path = "\(scratchFolder)/\(name).sqlite"
        removeDatabase(at: path)
        return path
    }

    /// Removes a catalog and whatever an import leaves beside it.
    public static func removeDatabase(at path: String) {
        for suffix in ["", "-journal", "-wal", "-shm", ".importing", ".importing-journal", ".rejects.csv"] {
            unlink(path + suffix)
        }
    }

    /// A catalog of `rows` generated products, built with ``CatalogImporter``.
    ///
    /// Building a catalog of a million rows takes seconds, and every benchmark runs in its own
    /// process, so the catalog is kept between processes under
    /// `<tmp>/productcatalog-bench-cache/`. Its name carries the row count, the seed and the
    /// identity of the running executable (its size and modification time): rebuilding the
    /// benchmarks, which happens whenever the importer changes, builds the catalog afresh, and
    /// older catalogs for the same rows and seed are removed then.
    public static func cachedCatalog(rows: Int, seed: UInt64 = 1) throws -> String {
        let folder = "\(temporaryBase())/productcatalog-bench-cache"
        mkdir(folder, 0o755)
        let stem = "catalog-\(rows)-seed\(seed)-"
        let path = "\(folder)/\(stem)\(executableIdentity()).sqlite"
        if access(path, R_OK) == 0 { return path }

        removeFiles(in: folder, startingWith: stem)
        let csv = try generatedCSV(rows: rows, seed: seed)
        // Import beside the final name and rename, so that a process that stops half-way never
        // leaves a catalog another one would take for complete.
        let building = "\(scratchFolder)/\(stem)building.sqlite"
        let summary = try CatalogImporter(options: ImportOptions(databasePath: building))
            .run(source: try FileByteSource(path: csv))
        guard summary.rowsInserted == rows else {
            throw BenchmarkSetupError("the catalog holds \(summary.rowsInserted) products, expected \(rows)")
        }
        guard rename(building, path) == 0 else {
            throw BenchmarkSetupError("cannot move the catalog to \(path): \(String(cString: strerror(errno)))")
        }
        unlink(csv)
        return path
    }

    // MARK: - Internals

    nonisolated(unsafe) private static var scratch: String?

    private static func temporaryBase() -> String {
        if let tmp = getenv("TMPDIR"), tmp.pointee != 0 {
            var path = String(cString: tmp)
            while path.count > 1 && path.hasSuffix("/") { path.removeLast() }
            return path
        }
        return "/tmp"
    }

    private static func removeScratchFolder() {
        guard let folder = scratch else { return }
        removeFiles(in: folder, startingWith: "")
        rmdir(folder)
    }

    private static func removeFiles(in folder: String, startingWith prefix: String) {
        guard let directory = opendir(folder) else { return }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." && name.hasPrefix(prefix) { names.append(name) }
        }
        closedir(directory)
        for name in names { unlink("\(folder)/\(name)") }
    }

    /// The running executable's size and modification time, which change when it is rebuilt.
    private static func executableIdentity() -> String {
        var info = stat()
        #if os(Linux)
        let path = "/proc/self/exe"
        #else
        let path = CommandLine.arguments[0]
        #endif
        guard stat(path, &info) == 0 else { return "unknown" }
        #if os(Linux)
        let modified = info.st_mtim
        #else
        let modified = info.st_mtimespec
        #endif
        return "\(info.st_size)-\(modified.tv_sec)-\(modified.tv_nsec)"
    }
}

/// Why a benchmark's setup could not prepare its files.
public struct BenchmarkSetupError: Error, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
