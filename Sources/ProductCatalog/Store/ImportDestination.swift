/// The catalog file an import will write, checked before a byte of input is read.
///
/// `--db` must name a regular file or nothing: a directory, device or FIFO is refused, never
/// renamed over. A symbolic link is followed, so the file it points to is the one locked and
/// replaced (in both modes), and the link stays a link. A file that is not a catalog, or that
/// is read-only, is left untouched.
struct ImportDestination {
    /// The catalog file itself, symbolic links followed.
    let path: String

    /// Checks the destination `databasePath` for an import in `mode`.
    init(databasePath: String, mode: ImportMode) throws {
        do {
            path = try FileSystem.resolvingLinks(databasePath)
        } catch let error as ByteSourceError {
            throw CatalogError.cannotWrite(error)
        }
        let kind: CatalogSchema.FileKind
        do {
            kind = try CatalogSchema.kind(ofFileAt: path)
        } catch let error as SQLiteError {
            throw CatalogError.database(path: path, error)
        }
        switch kind {
        case .catalog, .empty:
            if kind == .empty, mode == .upsert { throw CatalogError.noCatalog(path: databasePath) }
            guard case .regular(_, let fileMode, _, _)? = try? FileSystem.entry(at: path),
                  FileSystem.isWritable(path, mode: fileMode)
            else { throw CatalogError.readOnly(path: databasePath) }
        case .missing:
            if mode == .upsert { throw CatalogError.noCatalog(path: databasePath) }
        case .otherDatabase, .notADatabase:
            throw CatalogError.notACatalog(path: databasePath)
        }
    }
}
