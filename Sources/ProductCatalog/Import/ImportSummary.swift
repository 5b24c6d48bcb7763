/// The exact account of a finished import.
///
/// Every data record of the input is counted once: `rowsRead == rowsInserted + rowsRejected + duplicates`.
public struct ImportSummary: Sendable, Equatable {
    /// Data records read (the header excluded).
    public var rowsRead: Int
    /// Products now in the catalog from this import.
    public var rowsInserted: Int
    /// Rows written to the rejects file.
    public var rowsRejected: Int
    /// Rows that repeated an earlier productId and were collapsed into one product.
    public var duplicates: Int
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
        ImportProgress(
            phase: .finished, rowsRead: rowsRead, rowsInserted: rowsInserted, rowsRejected: rowsRejected,
            duplicates: duplicates, bytesRead: bytesRead, totalBytes: bytesRead, elapsed: elapsed)
    }
}
