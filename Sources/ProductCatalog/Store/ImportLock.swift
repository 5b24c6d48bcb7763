#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One import per catalog at a time, and no edits while one runs: `flock(2)` on `<db>.import-lock`.
///
/// An import holds the lock exclusively from start to finish. An edit holds it shared for the
/// few milliseconds of its transaction, and is refused while an import holds it: a replacing
/// import would discard the edit at its swap, so the edit must not be acknowledged. The lock is
/// on a file of its own (never on the database, whose POSIX locks SQLite manages), and the kernel
/// drops it when the process ends, however it ends: a killed import never leaves a stale lock.
final class ImportLock {
    private let descriptor: Int32

    /// Takes the lock for an import into the catalog at `databasePath` (links already followed).
    ///
    /// Edits hold the lock only briefly, so a busy lock is retried for up to `patience` before
    /// the import gives up with ``CatalogError/importRunning(path:)``.
    init(importInto databasePath: String, patience: Duration = .seconds(3)) throws {
        let path = Self.path(for: databasePath)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw CatalogError.cannotWrite(ByteSourceError(source: path, reason: FileByteSource.describe(errno: errno)))
        }
        let clock = ContinuousClock()
        let deadline = clock.now + patience
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, clock.now < deadline else {
                close(fd)
                throw CatalogError.importRunning(path: databasePath)
            }
            usleep(10_000)
        }
        descriptor = fd
    }

    /// What an edit found when it asked for the lock.
    enum EditPermit {
        /// No import runs; the lock is held shared until this value is released.
        case held(ImportLock)
        /// The lock file cannot be opened (a read-only folder), so no import can run there either.
        case notNeeded
        /// An import holds the lock.
        case importRunning
    }

    /// Takes the lock shared for one edit of the catalog at `databasePath`.
    static func forEdit(of databasePath: String) -> EditPermit {
        let path = Self.path(for: databasePath)
        var fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0o644)
        if fd < 0 { fd = open(path, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return .notNeeded }
        guard flock(fd, LOCK_SH | LOCK_NB) == 0 else {
            close(fd)
            return .importRunning
        }
        return .held(ImportLock(descriptor: fd))
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    private static func path(for databasePath: String) -> String {
        databasePath + ".import-lock"
    }
}
