#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One import per catalog at a time: an advisory lock on `<db>.import-lock`.
///
/// The lock is `flock(2)` on a file of its own (never on the database, whose POSIX locks
/// SQLite manages), and the kernel drops it when the process ends, however it ends: a killed
/// import never leaves a stale lock behind.
final class ImportLock {
    private let descriptor: Int32

    /// Takes the lock for the catalog at `databasePath`, or throws ``ImportError/importRunning(path:)``.
    init(databasePath: String) throws {
        let path = databasePath + ".import-lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ImportError.destination(ByteSourceError(source: path, reason: FileByteSource.describe(errno: errno))) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw ImportError.importRunning(path: databasePath)
        }
        descriptor = fd
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
