#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which file a path names: its device and inode.
///
/// An import renames a new file over the catalog, and a connection keeps reading the file it
/// opened. Comparing the identity a connection opened with the one the path names now tells
/// whether the connection still sees the live catalog.
public struct CatalogFileIdentity: Sendable, Hashable {
    /// The device the file is on.
    public var device: UInt64
    /// The file's inode number on that device.
    public var inode: UInt64

    /// An identity from its two numbers.
    public init(device: UInt64, inode: UInt64) {
        self.device = device
        self.inode = inode
    }

    /// The identity of the file now at `path`; nil when nothing is there.
    public static func ofFile(at path: String) -> CatalogFileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return CatalogFileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}
