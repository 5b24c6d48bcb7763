/// One message about an import: a progress snapshot, then the summary or the reason it failed.
///
/// `catalog import --json` prints these, one per line, and `catalog serve` sends the same JSON
/// as Server-Sent Events, so a script reads the command's lines and the web API's events alike.
public enum ImportEvent: Sendable, Equatable, JSONRepresentable {
    /// A snapshot of the counters while the import runs.
    case progress(ImportProgress)
    /// The exact account of a finished import.
    case finished(ImportSummary)
    /// The exact account of a finished stock import (``StockImporter``).
    case stockFinished(StockImportSummary)
    /// Why the import stopped; the catalog is unchanged.
    case failed(String)

    /// `progress`, `finished` or `failed`: the SSE event name and the JSON's `event` field.
    public var name: String {
        switch self {
        case .progress: "progress"
        case .finished, .stockFinished: "finished"
        case .failed: "failed"
        }
    }

    /// True for the last event of an import.
    public var isFinal: Bool {
        if case .progress = self { return false }
        return true
    }

    /// The event as `catalog import --json` writes it.
    public var jsonValue: JSONValue {
        switch self {
        case .progress(let progress):
            .object([
                "event": .string(name),
                "phase": .string(progress.phase.rawValue),
                "rowsRead": .int(progress.rowsRead),
                "rowsInserted": .int(progress.rowsInserted),
                "rowsRejected": .int(progress.rowsRejected),
                "duplicates": .int(progress.duplicates),
                "bytesRead": .int(progress.bytesRead),
                "totalBytes": progress.totalBytes.map(JSONValue.int) ?? .null,
                "seconds": .double(progress.elapsed.seconds),
                "rowsPerSecond": .double(progress.rowsPerSecond.rounded()),
                "fractionCompleted": progress.fractionCompleted.map { .double(($0 * 10_000).rounded() / 10_000) } ?? .null,
                "etaSeconds": progress.estimatedTimeRemaining.map { .double($0.seconds) } ?? .null,
            ])
        case .finished(let summary):
            .object([
                "event": .string(name),
                "rowsRead": .int(summary.rowsRead),
                "rowsInserted": .int(summary.rowsInserted),
                "rowsUpdated": .int(summary.rowsUpdated),
                "rowsDeleted": .int(summary.rowsDeleted),
                "rowsRejected": .int(summary.rowsRejected),
                "duplicates": .int(summary.duplicates),
                "rowsFolded": .int(summary.rowsFolded),
                "rowsPadded": .int(summary.rowsPadded),
                "format": .string(summary.format.rawValue),
                "productsInCatalog": .int(summary.productsInCatalog),
                "editsReplaced": .int(summary.editsReplaced),
                "bytesRead": .int(summary.bytesRead),
                "seconds": .double(summary.elapsed.seconds),
                "database": .string(summary.databasePath),
                "rejects": .string(summary.rejectsPath),
            ])
        case .stockFinished(let summary):
            summary.jsonValue
        case .failed(let message):
            .object(["event": .string(name), "message": .string(message)])
        }
    }
}
