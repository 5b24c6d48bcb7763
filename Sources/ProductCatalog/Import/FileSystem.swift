#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few POSIX file operations an atomic import needs, with errors that name the path.
enum FileSystem {
    /// The size of the regular file at `path`, nil when nothing is there.
    static func size(ofFileAt path: String) throws -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return nil }
            throw ByteSourceError(source: path, reason: FileByteSource.describe(errno: errno))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            throw ByteSourceError(source: path, reason: "is a directory")
        }
        return Int(info.st_size)
    }

    /// Removes the file at `path` if there is one.
    static func removeIfPresent(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw ByteSourceError(source: path, reason: FileByteSource.describe(errno: errno))
        }
    }

    /// Atomically replaces `destination` with `source` (both on the same file system).
    static func rename(_ source: String, to destination: String) throws {
        #if canImport(Glibc)
        let result = Glibc.rename(source, destination)
        #else
        let result = Darwin.rename(source, destination)
        #endif
        guard result == 0 else {
            throw ByteSourceError(source: destination, reason: FileByteSource.describe(errno: errno))
        }
    }

    /// Flushes the file or directory at `path` to stable storage.
    static func sync(_ path: String, directory: Bool = false) throws {
        let fd = open(path, (directory ? O_DIRECTORY : 0) | O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ByteSourceError(source: path, reason: FileByteSource.describe(errno: errno)) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw ByteSourceError(source: path, reason: FileByteSource.describe(errno: errno)) }
    }

    /// The directory part of `path` (`"."` for a bare file name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
