/// Where an import writes: a new catalog built beside the live one and swapped in when complete,
/// or the live one updated in one transaction (an upsert).
///
/// ``CatalogImporter`` reads, checks and sorts the file, then calls, in this order:
/// ``claim(mode:)`` before reading a byte, ``begin(mode:columns:extraColumns:rows:deletingMissing:)``, ``write(_:)``
/// for each batch (with ``commitAndContinue()`` every ``ImportOptions/rowsPerTransaction`` rows),
/// ``finish()`` and ``install()``; ``abandon()`` after any failure, which must leave the live
/// catalog as it was. The SQLite file of ``ImportOptions/databasePath`` is the default sink;
/// ProductCatalogPostgres adds a table on a PostgreSQL server.
public protocol CatalogSink: AnyObject {
    /// The catalog as messages and the summary name it: a path, or a URL without its password.
    var catalogName: String { get }
    /// Where rejected rows go when ``ImportOptions/rejectsPath`` is nil.
    var defaultRejectsPath: String { get }
    /// The start of the paths of the sorted runs an import spills to disk.
    var spillPathPrefix: String { get }
    /// Products the catalog held before an upsert; 0 for a replacement.
    var productsBefore: Int { get }
    /// Products an upsert deleted because its file did not list them.
    var productsDeleted: Int { get }
    /// Products added, edited or deleted by hand since the previous import, which ``install()`` replaced.
    var editsReplaced: Int { get }

    /// Throws when `output`, a file the import will write (its rejects), names the catalog or a
    /// file that belongs to it (see ``CatalogCompanions``); called before anything is written.
    func check(output: String) throws
    /// Checks that the catalog can be written in `mode` and takes its import lock, held until
    /// ``release()``: one import at a time per catalog, and no edits meanwhile.
    func claim(mode: ImportMode) throws
    /// Creates the new catalog (replace) or prepares the update (upsert) for about `rows` rows
    /// (duplicates not yet collapsed) of `columns` (productId first), of which `extraColumns` are
    /// the file's own, whose lengths are `rowLengths` (a new SQLite file's page size follows
    /// them); an upsert `deletingMissing` also deletes the products the rows do not list, but
    /// for those it spares (named by rejected rows).
    func begin(mode: ImportMode, columns: [CheckedColumn], extraColumns: [String], rows: Int, rowLengths: RowLengths,
               deletingMissing: DeletionOfMissing?) throws
    /// Writes rows sorted by productId and free of duplicates.
    func write(_ rows: CheckedRows) throws
    /// Lets the writes so far be committed, so that a large import holds little in memory.
    func commitAndContinue() throws
    /// Completes the new catalog (indexes, upgrades) and returns how many products it holds.
    func finish() throws -> Int
    /// Makes the new catalog the live one, all at once.
    func install() throws
    /// Drops what was written, leaving the live catalog as it was.
    func abandon()
    /// Releases the import lock.
    func release()
}

extension CatalogSink {
    /// A catalog that is no file has no file an output could overwrite.
    public func check(output: String) throws {}
}
