/// Why the catalog file could not be opened, written or swapped: the store's one error.
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
    /// Another program has the catalog open in write-ahead-log mode, which a swap could corrupt.
    case inUse(path: String)
    /// Another import into the same catalog is running.
    case importRunning(path: String)
    /// A file beside the catalog (its lock, its build file, a sort run) could not be written.
    case cannotWrite(ByteSourceError)
    /// SQLite could not read or write the catalog at `path`.
    case database(path: String, SQLiteError)
    /// An output (a rejects file, an export) was to be written over the catalog at `catalog`, or
    /// a file beside it that belongs to it; nothing was written.
    case outputOverCatalog(output: String, catalog: String)
    /// A copy was to be written where a file already is; nothing was written.
    case outputExists(path: String)

    /// What happened and where, without naming any interface's options.
    public var description: String {
        switch self {
        case .noCatalog(let path):
            "\(path): no catalog here yet"
        case .notACatalog(let path):
            "\(path): this file is not a product catalog made by this tool; it is left untouched"
        case .notAFile(let path, let kind):
            "\(path) is \(kind), not a catalog file; it is left untouched."
        case .readOnly(let path):
            "\(path) is read-only, so it was left untouched."
        case .unfinishedWrite(let path):
            "\(path): a program was stopped in the middle of writing this catalog, and rolling its write back needs write access to the file and its folder; the next reader that has it restores the catalog as it was before the interrupted write."
        case .inUse(let path):
            "\(path): another program has the catalog open in write-ahead-log mode. The catalog was not changed."
        case .importRunning(let path):
            "\(path): another import into this catalog is running; wait for it to finish."
        case .cannotWrite(let error):
            "cannot write \(error)."
        case .database(let path, let error) where error.isFull:
            "\(path): the disk is full (\(error.message)). The catalog was not changed."
        case .database(let path, let error) where error.isReadOnly:
            "\(path): the catalog or its folder cannot be written (\(error.message)). The catalog was not changed."
        case .outputOverCatalog(let output, let catalog):
            "\(output) is the catalog \(catalog) or a file that belongs to it; nothing was written there, and the catalog was not changed."
        case .outputExists(let path):
            "\(path) already exists; a copy never replaces a file, so nothing was written"
        case .database(let path, let error):
            "\(path): SQLite could not write the catalog (\(error.message), code \(error.extendedCode)). The catalog was not changed."
        }
    }
}
