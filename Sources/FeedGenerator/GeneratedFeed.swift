import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A generated product file: written in chunks to any sink, or to a file or file descriptor.
public protocol GeneratedFeed {
    /// Writes the whole file to `sink` in chunks, each valid only during the call and never empty.
    func write<E: Error>(to sink: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E)
}

extension ProductGenerator: GeneratedFeed {}
extension RealisticProductGenerator: GeneratedFeed {}

/// Why generated products could not be written.
public struct FeedWriteError: Error, Sendable, CustomStringConvertible {
    /// Where the products were going, such as a path or `standard output`.
    public var destination: String
    /// What went wrong, and what to do about it, in words.
    public var reason: String

    public init(destination: String, reason: String) {
        self.destination = destination
        self.reason = reason
    }

    public var description: String { "cannot write \(destination): \(reason)" }
}

// MARK: - Writing to files

extension GeneratedFeed {
    /// Writes the whole file to an open file descriptor, such as `STDOUT_FILENO`; does not close it.
    public func write(toFileDescriptor descriptor: Int32) throws(FeedWriteError) {
        let name = descriptor == STDOUT_FILENO ? "standard output" : "file descriptor \(descriptor)"
        try write { (chunk) throws(FeedWriteError) in
            try Self.writeAll(chunk, to: descriptor, name: name)
        }
    }

    /// Creates or replaces the file at `path` and writes the whole file to it.
    public func write(toPath path: String) throws(FeedWriteError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw FeedWriteError(destination: path, reason: Self.describe(errno: errno))
        }
        do {
            try write { (chunk) throws(FeedWriteError) in
                try Self.writeAll(chunk, to: descriptor, name: path)
            }
        } catch {
            close(descriptor)
            throw error
        }
        // Some file systems report a failed write only when the file is closed.
        guard close(descriptor) == 0 else {
            throw FeedWriteError(destination: path, reason: Self.describe(errno: errno))
        }
    }

    /// Writes all of `chunk`, retrying after interruptions and short writes.
    private static func writeAll(_ chunk: UnsafeRawBufferPointer, to descriptor: Int32, name: String) throws(FeedWriteError) {
        do {
            _ = try FileDescriptor(rawValue: descriptor).writeAll(chunk)
        } catch let error as Errno {
            throw FeedWriteError(destination: name, reason: describe(errno: error.rawValue))
        } catch {
            throw FeedWriteError(destination: name, reason: describe(errno: EIO))
        }
    }

    static func describe(errno code: Int32) -> String {
        switch code {
        case ENOENT: return "the folder does not exist; create it or choose another path"
        case ENOTDIR: return "a part of the path is not a folder; choose another path"
        case EACCES, EPERM: return "permission denied; choose a location you can write to"
        case EISDIR: return "it is a folder; give a file path, such as products.csv"
        case ENOSPC: return "the disk is full; free some space or write fewer rows"
        case EROFS: return "the file system is read-only; choose another location"
        case EPIPE: return "the reader closed the pipe"
        default: return String(cString: strerror(code))
        }
    }
}
