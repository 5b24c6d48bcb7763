#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Bytes read from a file with `read(2)`, or from standard input.
public final class FileByteSource: ByteSource {
    public let name: String
    public let expectedBytes: Int?
    public private(set) var bytesRead = 0
    private let descriptor: Int32
    private let ownsDescriptor: Bool

    /// Opens the file at `path` for reading.
    public init(path: String) throws {
        name = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw ByteSourceError(source: path, reason: Self.describe(errno: errno))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let reason = Self.describe(errno: errno)
            close(fd)
            throw ByteSourceError(source: path, reason: reason)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw ByteSourceError(source: path, reason: "is a directory, not a CSV file")
        }
        descriptor = fd
        ownsDescriptor = true
        expectedBytes = (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : nil
    }

    /// True when `path` names a FIFO (named pipe): opening it waits until a program opens it for writing.
    public static func isFIFO(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFIFO
    }

    /// Reads standard input; its length is unknown.
    public convenience init(standardInput: Void = ()) {
        self.init(fileDescriptor: STDIN_FILENO, name: "standard input")
    }

    /// Reads an open file descriptor (a pipe, a socket, a file), which stays open: its owner closes it.
    public init(fileDescriptor: Int32, name: String) {
        self.name = name
        descriptor = fileDescriptor
        ownsDescriptor = false
        var info = stat()
        expectedBytes = fstat(fileDescriptor, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
            ? max(0, Int(info.st_size) - Int(lseek(fileDescriptor, 0, SEEK_CUR)))
            : nil
    }

    deinit {
        if ownsDescriptor { close(descriptor) }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            #if canImport(Glibc)
            let n = Glibc.read(descriptor, base, buffer.count)
            #else
            let n = Darwin.read(descriptor, base, buffer.count)
            #endif
            if n >= 0 {
                bytesRead += n
                return n
            }
            if errno == EINTR { continue }
            throw ByteSourceError(source: name, reason: Self.describe(errno: errno))
        }
    }

    static func describe(errno code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file"
        case EACCES, EPERM: return "permission denied"
        case EISDIR: return "is a directory, not a CSV file"
        default: return String(cString: strerror(code))
        }
    }
}
