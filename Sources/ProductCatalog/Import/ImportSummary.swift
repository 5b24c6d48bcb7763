/// The exact account of a finished import.
///
/// Every data record of the input is counted once:
/// `rowsRead == rowsInserted + rowsRejected + duplicates + rowsFolded`.
public struct ImportSummary: Sendable, Equatable {
    /// Data records read (the header excluded).
    public var rowsRead: Int
    /// Rows written to the catalog: new products, and with `--mode upsert` updated ones.
    public var rowsInserted: Int
    /// Of ``rowsInserted``, rows that replaced a product already in the catalog (upsert only).
    public var rowsUpdated: Int
    /// Products an upsert with ``ImportOptions/deleteMissing`` deleted because the file did not list them.
    public var rowsDeleted: Int = 0
    /// Rows written to the rejects file.
    public var rowsRejected: Int
    /// Rows that repeated an earlier productId and were collapsed into one product.
    public var duplicates: Int
    /// Records that are not products of their own and were folded into one (a Shopify image-only
    /// row, a WooCommerce variable product whose variations are the products).
    public var rowsFolded: Int = 0
    /// Rows that lacked trailing fields and were read with them empty.
    public var rowsPadded: Int = 0
    /// The format the file was read as.
    public var format: FeedFormat = .generic
    /// Products in the catalog after the import.
    public var productsInCatalog: Int
    /// Products added, edited or deleted by hand (in `catalog serve`) since the previous import,
    /// whose edits this replacing import discarded; 0 for an upsert, which keeps them.
    public var editsReplaced: Int = 0
    /// Input bytes read.
    public var bytesRead: Int
    /// Wall-clock time from start to the new catalog in place.
    public var elapsed: Duration
    /// The catalog written.
    public var databasePath: String
    /// The rejects file, when any row was rejected.
    public var rejectsPath: String?

    /// The last progress snapshot, equal to this summary.
    public var progress: ImportProgress {
        var progress = ImportProgress(
            phase: .finished, rowsRead: rowsRead, rowsInserted: rowsInserted, rowsRejected: rowsRejected,
            duplicates: duplicates, bytesRead: bytesRead, totalBytes: bytesRead, elapsed: elapsed)
        progress.rowsFolded = rowsFolded
        progress.rowsPadded = rowsPadded
        var estimate = ProgressEstimate()
        estimate.update(&progress, rowsToWrite: rowsInserted)
        return progress
    }
}
