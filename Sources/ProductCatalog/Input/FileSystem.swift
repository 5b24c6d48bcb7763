import SystemPackage
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few POSIX file operations an atomic import needs, with errors that name the path.
enum FileSystem {
    /// What a path names, following symbolic links.
    enum Entry: Equatable {
        /// Nothing is there.
        case missing
        /// A regular file, with its size, permission bits and owner.
        case regular(size: Int, mode: UInt32, owner: UInt32, group: UInt32)
        /// Something a catalog cannot be: a directory, a device, a FIFO or a socket (named in words).
        case other(String)
    }

    /// What is at `path` now.
    static func entry(at path: String) throws -> Entry {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return .missing }
            throw ByteSourceError(source: path, reason: FileByteSource.describe(errno: errno))
        }
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            return .regular(
                size: Int(info.st_size), mode: UInt32(info.st_mode & 0o7777),
                owner: UInt32(info.st_uid), group: UInt32(info.st_gid))
        case S_IFDIR: return .other("a directory")
        case S_IFCHR, S_IFBLK: return .other("a device")
        case S_IFIFO: return .other("a FIFO (named pipe)")
        case S_IFSOCK: return .other("a socket")
        default: return .other("not a regular file")
        }
    }

    /// The size of the regular file at `path`, nil when nothing is there.
    static func size(ofFileAt path: String) throws -> Int? {
        switch try entry(at: path) {
        case .missing: return nil
        case .regular(let size, _, _, _): return size
        case .other(let kind): throw ByteSourceError(source: path, reason: "is \(kind)")
        }
    }

    /// `path` with every symbolic link in it followed, so that the file itself (not the link) is replaced and locked.
    ///
    /// The last component need not exist: a missing file, or a link to one, resolves to where
    /// the file would be created. Paths without links come back unchanged.
    static func resolvingLinks(_ path: String) throws -> String {
        var current = path
        for _ in 0..<40 {
            var info = stat()
            guard lstat(current, &info) == 0 else {
                if errno == ENOENT { return current }
                throw ByteSourceError(source: current, reason: FileByteSource.describe(errno: errno))
            }
            guard info.st_mode & S_IFMT == S_IFLNK else { return current }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count >= 0 else {
                throw ByteSourceError(source: current, reason: FileByteSource.describe(errno: errno))
            }
            let target = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : directory(of: current) + "/" + target
        }
        throw ByteSourceError(source: path, reason: "has too many levels of symbolic links")
    }

    /// True when the process may write the file at `path`, and someone may at all.
    ///
    /// `access(2)` says yes to root for any file; a file without a single write bit (`chmod 444`)
    /// is read-only by its owner's choice, so it counts as not writable for root too.
    static func isWritable(_ path: String, mode: UInt32) -> Bool {
        access(path, W_OK) == 0 && mode & 0o222 != 0
    }

    /// Gives the file at `path` these permission bits and, when the process may, this owner.
    static func setPermissions(_ path: String, mode: UInt32, owner: UInt32, group: UInt32) throws {
        if geteuid() == 0, chown(path, owner, group) != 0 {
            throw ByteSourceError(source: path, reason: FileByteSource.describe(errno: errno))
        }
        guard chmod(path, mode_t(mode)) == 0 else {
            throw ByteSourceError(source: path, reason: FileByteSource.describe(errno: errno))
        }
    }

    /// Copies the file at `source` to a new file at `destination` (replacing it): inside the
    /// kernel where it can (`sendfile`, Linux: an upsert of 100,000 products into a 2.5 GB catalog
    /// took 14.5–15.6 s, against 16.3–20.0 s through a buffer), else 1 MiB at a time.
    static func copy(_ source: String, to destination: String) throws {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw ByteSourceError(source: source, reason: FileByteSource.describe(errno: errno)) }
        defer { close(input) }
        let output = open(destination, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw ByteSourceError(source: destination, reason: FileByteSource.describe(errno: errno)) }
        defer { close(output) }
        #if canImport(Glibc)
        var copied = 0
        while true {
            let count = sendfile(output, input, nil, 1 << 30)
            if count > 0 {
                copied += count
                continue
            }
            if count == 0 { return }
            if errno == EINTR { continue }
            // Not on this file system, or not this kernel: copy what is left through a buffer.
            guard copied == 0, [EXDEV, ENOSYS, EINVAL, EOPNOTSUPP].contains(errno) else {
                throw ByteSourceError(source: destination, reason: FileByteSource.describe(errno: errno))
            }
            break
        }
        #endif
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = read(input, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw ByteSourceError(source: source, reason: FileByteSource.describe(errno: errno))
            }
            if count == 0 { return }
            try writeAll(output, UnsafeRawBufferPointer(rebasing: buffer[..<count]), path: destination)
        }
    }

    /// Writes all of `bytes` to `descriptor` (at `offset`, when given), retrying short and
    /// interrupted writes; a failure names `path` and says what to do.
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int? = nil, path: String) throws {
        do {
            let file = FileDescriptor(rawValue: descriptor)
            if let offset {
                _ = try file.writeAll(toAbsoluteOffset: Int64(offset), bytes)
            } else {
                _ = try file.writeAll(bytes)
            }
        } catch let error as Errno {
            throw ByteSourceError(source: path, reason: FileByteSource.describe(errno: error.rawValue))
        }
    }

    /// Removes the file at `path` if there is one.
    static func removeIfPresent(_ path: String) throws {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw ByteSourceError(source: path, reason: FileByteSource.describe(errno: errno))
        }
    }

    /// Removes the files named `<pathPrefix>.run<N>` that a killed import left.
    ///
    /// A run file is unlinked as soon as it is created, so only a kill between the two leaves
    /// one; the caller holds the catalog's ``ImportLock``, so no running import owns it.
    static func removeLeftoverRuns(pathPrefix: String) throws {
        let folder = directory(of: pathPrefix)
        let stem = (pathPrefix.lastIndex(of: "/").map { String(pathPrefix[pathPrefix.index(after: $0)...]) } ?? pathPrefix) + ".run"
        guard let listing = opendir(folder) else { return }
        var leftovers: [String] = []
        while let entry = readdir(listing) {
            // Read in place: readdir's entry may end before the full `d_name` array, and copying
            // that whole array read past a mapped page now and then.
            let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
            let name = String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
            let number = name.dropFirst(stem.count)
            if name.hasPrefix(stem), !number.isEmpty, number.allSatisfy({ $0 >= "0" && $0 <= "9" }) { leftovers.append(name) }
        }
        closedir(listing)
        for name in leftovers { try removeIfPresent(folder + "/" + name) }
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
