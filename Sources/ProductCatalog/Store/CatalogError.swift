/// A catalog-level failure: the file to read or write is not what it should be.
public enum CatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing at the path: import something first.
    case noCatalog(path: String)
    /// The file exists but is not a catalog this tool made; it is never overwritten.
    case notACatalog(path: String)
    /// The path names something that is not a regular file: a directory, a device, a FIFO.
    case notAFile(path: String, kind: String)
    /// The catalog is read-only (for this user, or by its mode): it is never replaced.
    case readOnly(path: String)
    /// A program stopped in the middle of a write, and this user cannot roll it back.
    case unfinishedWrite(path: String)

    public var description: String {
        switch self {
        case .noCatalog(let path):
            "\(path): no catalog here yet; create one with `catalog import FILE --db \(path)`"
        case .notACatalog(let path):
            "\(path): this file is not a product catalog made by this tool; it is left untouched (choose another --db path)"
        case .notAFile(let path, let kind):
            "\(path) is \(kind), not a catalog file; it is left untouched. Give --db the path of a catalog file, or of a new one to create."
        case .readOnly(let path):
            "\(path) is read-only, so it was left untouched. Make it writable (chmod u+w \(path)) or choose another --db path."
        case .unfinishedWrite(let path):
            "\(path): a program was stopped in the middle of writing this catalog, and rolling its write back needs write access to the file and its folder. Run `catalog search --db \(path)` once as a user who can write there; that restores the catalog as it was before the interrupted write."
        }
    }
}
