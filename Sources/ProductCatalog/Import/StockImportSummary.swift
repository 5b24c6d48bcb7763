/// What a finished stock import did: every record read is written, rejected or a duplicate.
public struct StockImportSummary: Sendable, Equatable {
    /// The format recognised from the header.
    public var format: StockFormat
    /// Data records read (the header excluded).
    public var rowsRead: Int
    /// Product–store pairs written (added or changed).
    public var rowsWritten: Int
    /// Records rejected, each in the rejects file with its line and reason.
    public var rowsRejected: Int
    /// Of the rejected records, those naming a product the catalog does not hold.
    public var unknownProducts: Int
    /// Records that named a product and store a later record named again: the later one counts.
    public var duplicates: Int
    /// Product–store rows the catalog's stock holds now.
    public var stockRows: Int
    /// Stores with at least one product in stock now.
    public var stores: Int
    public var bytesRead: Int
    public var elapsed: Duration
    public var databasePath: String
    /// The rejects file, when a record was rejected.
    public var rejectsPath: String?

    /// The last progress report, the finished import's.
    public var progress: ImportProgress {
        var progress = ImportProgress(
            phase: .finished, rowsRead: rowsRead, rowsInserted: rowsWritten, rowsRejected: rowsRejected,
            duplicates: duplicates, bytesRead: bytesRead, totalBytes: bytesRead, elapsed: elapsed)
        var estimate = ProgressEstimate.stock
        estimate.update(&progress, rowsToWrite: rowsWritten)
        return progress
    }
}

extension StockImportSummary: JSONRepresentable {
    /// `{"event": "finished", "format": "google-local-inventory", "rowsRead": …, "rowsWritten": …, …}`
    public var jsonValue: JSONValue {
        .object([
            "event": .string("finished"),
            "format": .string(format.rawValue),
            "rowsRead": .int(rowsRead),
            "rowsWritten": .int(rowsWritten),
            "rowsRejected": .int(rowsRejected),
            "unknownProducts": .int(unknownProducts),
            "duplicates": .int(duplicates),
            "stockRows": .int(stockRows),
            "stores": .int(stores),
            "bytesRead": .int(bytesRead),
            "seconds": .double(elapsed.seconds),
            "catalog": .string(databasePath),
            "rejects": .string(rejectsPath),
        ])
    }
}
