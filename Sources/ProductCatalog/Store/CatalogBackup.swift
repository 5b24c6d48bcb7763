/// A copy of a live catalog file, consistent while others write it: `catalog backup`.
///
/// The copy is read in one read transaction (SQLite's backup API, every page in one step), so it
/// holds the catalog as of one commit, whatever edits, upserts and merges commit meanwhile; in WAL
/// mode they never wait for it. It is written beside its destination as `<output>.partial`, turned
/// to a rollback journal (one file, no log to carry), synced and renamed into place: an
/// interrupted backup leaves no file that looks finished. A backup is a catalog: search it, serve
/// it, or put it back by backing it up again to the catalog's path (see docs/commands.md).
public enum CatalogBackup {
    /// What a finished copy holds.
    public struct Summary: Sendable, Equatable {
        /// Products in the copy.
        public var products: Int
        /// The copy's size in bytes.
        public var bytes: Int
    }

    /// Copies the catalog at `databasePath` to `output`, which must not exist; throws ``CatalogError``.
    public static func copy(catalogAt databasePath: String, to output: String) throws -> Summary {
        let partial = output + ".partial"
        let partialFiles = [partial, partial + "-journal", partial + "-wal", partial + "-shm"]
        do {
            switch try CatalogSchema.kind(ofFileAt: databasePath) {
            case .catalog: break
            case .missing, .empty: throw CatalogError.noCatalog(path: databasePath)
            case .otherDatabase, .notADatabase: throw CatalogError.notACatalog(path: databasePath)
            }
            try CatalogCompanions(catalogPath: databasePath).check(output: output)
            guard try FileSystem.entry(at: output) == .missing else { throw CatalogError.outputExists(path: output) }
            for file in partialFiles { try FileSystem.removeIfPresent(file) }
        } catch {
            throw Self.catalogError(error, databasePath, output)
        }
        do {
            let products: Int64
            do {
                let source = try Connection(path: databasePath, mode: .readOnly)
                source.setBusyTimeout(milliseconds: 30_000)
                let copy = try Connection(path: partial, mode: .create)
                try copy.replaceContents(with: source)
                _ = try copy.scalarText("PRAGMA journal_mode = DELETE")
                products = try copy.scalarInt("SELECT count(*) FROM \(CatalogSchema.table)") ?? 0
            }
            try FileSystem.sync(partial)
            try LiveJournal.removeLeftovers(at: output)
            try FileSystem.rename(partial, to: output)
            try FileSystem.sync(FileSystem.directory(of: output), directory: true)
            return Summary(products: Int(products), bytes: try FileSystem.size(ofFileAt: output) ?? 0)
        } catch {
            for file in partialFiles { try? FileSystem.removeIfPresent(file) }
            throw Self.catalogError(error, databasePath, output)
        }
    }

    private static func catalogError(_ error: any Error, _ databasePath: String, _ output: String) -> CatalogError {
        switch error {
        case let error as CatalogError: error
        case let error as SQLiteError: .database(path: error.path ?? databasePath, error)
        case let error as ByteSourceError: .cannotWrite(error)
        default: .cannotWrite(ByteSourceError(source: output, reason: "\(error)"))
        }
    }
}
