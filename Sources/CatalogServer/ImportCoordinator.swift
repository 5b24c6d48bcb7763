import Foundation
import Logging
import ProductCatalog

/// Runs the server's imports, one at a time, and tells listeners how each one goes.
///
/// An upload reserves the slot before its first byte is read, so a second upload is refused
/// (409) while the first one is still arriving or importing. From the same moment a replacing
/// import refuses edits (``replacingImport()``, see ``EditGate``): its swap would discard them,
/// however long its file takes to arrive. The CSV goes to a file in the work
/// folder and ``CatalogImporter`` builds the new catalog beside the live one; searches keep
/// reading the old file until the swap (see ``SQLiteCatalog``). Each import's events are numbered;
/// a listener that joins late gets the newest snapshot first, then everything after it.
public actor ImportCoordinator {
    /// The catalog imports replace, as messages name it.
    public nonisolated var databasePath: String { store.name }
    /// The catalog's stock by store, which a stock upload imports into; throws
    /// ``EngineError/notKept(catalog:what:)`` when its engine keeps none.
    nonisolated func keptStock() throws -> any StockKeeping { try store.keptStock() }
    /// Where uploads and rejects files are kept while the server runs.
    public let workDirectory: String
    private let store: any CatalogEngine
    /// The catalog's stored pictures, swept after every import (a replacing one may drop products that had some).
    nonisolated let pictures: PictureFolder
    private let progressInterval: Duration
    private var nextId = 1
    private var records: [Int: ImportRecord] = [:]
    private var activeId: Int?
    /// The mode of the import in the slot.
    private var activeMode: ImportMode?
    private var listeners: [Int: [Int: AsyncStream<ImportRecord.NumberedEvent>.Continuation]] = [:]
    private var nextListener = 0
    /// How many finished imports are remembered.
    private static let keptImports = 50

    /// Imports into `store`, keeping uploads in `workDirectory`, and tells `store` when the catalog was replaced.
    public init(workDirectory: String, store: any CatalogEngine, progressInterval: Duration = .milliseconds(100)) {
        self.workDirectory = workDirectory
        self.store = store
        pictures = PictureFolder(catalog: store)
        self.progressInterval = progressInterval
    }

    /// Where import `id`'s upload is written.
    public nonisolated func uploadPath(for id: Int) -> String {
        workDirectory + "/import-\(id).csv"
    }

    /// Where import `id`'s rejected rows are written.
    public nonisolated func rejectsPath(for id: Int) -> String {
        workDirectory + "/import-\(id).rejects.csv"
    }

    /// Takes the import slot for a new upload in `mode` and returns its id; 409 while another import is under way.
    func reserve(mode: ImportMode = .replace) throws -> Int {
        if let activeId {
            let doing = records[activeId]?.status == .uploading ? "is still uploading" : "is still running"
            throw APIError(.conflict, "Import \(activeId) \(doing); wait until it ends (follow /api/imports/\(activeId)/events), then upload again.")
        }
        let id = nextId
        nextId += 1
        records[id] = ImportRecord(id: id)
        activeId = id
        activeMode = mode
        forgetOldImports()
        return id
    }

    /// The replacing import that holds the slot, uploading or running, if any: edits made now would
    /// be discarded by its swap. (An upsert keeps the edits made while its file uploads: it starts
    /// from the catalog as it is when the upload ends, and the import lock refuses edits after that.)
    func replacingImport() -> (id: Int, status: ImportRecord.Status)? {
        guard let activeId, activeMode == .replace, let record = records[activeId] else { return nil }
        return (activeId, record.status)
    }

    /// Gives the slot back after an upload that failed or was refused.
    func abandonUpload(_ id: Int) {
        records[id] = nil
        release(id)
        try? FileManager.default.removeItem(atPath: uploadPath(for: id))
    }

    /// Starts importing the uploaded file of import `id`; an upsert `deletingMissing` deletes the products the file does not list.
    func start(_ id: Int, mode: ImportMode = .replace, deletingMissing: Bool = false, limits: ImportLimits = ImportLimits()) -> ImportRecord? {
        var options = ImportOptions(databasePath: databasePath, mode: mode)
        options.deleteMissing = deletingMissing
        options.maxDeletes = limits.maxDeletes
        options.maxErrors = limits.maxErrors
        options.allowEmpty = limits.allowEmpty
        options.rejectsPath = rejectsPath(for: id)
        options.progressInterval = progressInterval
        let importer = CatalogImporter(options: options)
        let input = InputSource.file(path: uploadPath(for: id))
        let job = importer.start(input: input, into: { [store, options] in store.makeSink(for: options) })
        records[id]?.status = .running
        Task { await self.follow(job, id: id) { .finished(self.forClients($0, id: id)) } }
        return records[id]
    }

    /// Starts importing the uploaded local inventory file of import `id` into the stock by store
    /// (see ``StockImporter``): `.replace` makes the stock the file's, `.upsert` changes the pairs it names.
    func startStock(_ id: Int, mode: ImportMode, limits: ImportLimits = ImportLimits()) -> ImportRecord? {
        // Refused before the upload by ImportsController when the catalog keeps no stock.
        guard let stock = store.stockKeeping else { return nil }
        var importer = stock.stockImporter(mode: mode)
        importer.maxErrors = limits.maxErrors
        importer.allowEmpty = limits.allowEmpty
        importer.rejectsPath = rejectsPath(for: id)
        importer.progressInterval = progressInterval
        let job = importer.start(input: InputSource.file(path: uploadPath(for: id)))
        records[id]?.status = .running
        Task { await self.follow(job, id: id) { .stockFinished(self.forClients($0, id: id)) } }
        return records[id]
    }

    /// The import with this id, if the server still remembers it.
    func record(_ id: Int) -> ImportRecord? {
        records[id]
    }

    /// The events of import `id` from now on, after the newest snapshot; ends after `finished` or `failed`.
    func events(_ id: Int) -> AsyncStream<ImportRecord.NumberedEvent>? {
        guard let record = records[id] else { return nil }
        let (stream, continuation) = AsyncStream.makeStream(of: ImportRecord.NumberedEvent.self, bufferingPolicy: .bufferingNewest(256))
        for event in record.replay { continuation.yield(event) }
        if record.isOver {
            continuation.finish()
            return stream
        }
        let key = nextListener
        nextListener += 1
        listeners[id, default: [:]][key] = continuation
        continuation.onTermination = { _ in
            Task { await self.removeListener(key, of: id) }
        }
        return stream
    }

    // MARK: - Following a job

    /// Publishes `job`'s progress, then its end: `finished` (the event `finishedEvent` makes of its summary) or `failed`.
    private func follow<Summary>(_ job: BackgroundImport<Summary>, id: Int, finishedEvent: @Sendable (Summary) -> ImportEvent) async {
        var published = false
        for await snapshot in job.progress {
            // The stream keeps only the newest snapshot: when this task ran too late to see any
            // before the end, the last one still goes out, so listeners always get the final numbers.
            guard snapshot.phase != .finished || !published else { continue }
            publish(.progress(snapshot), for: id)
            published = true
        }
        let final: ImportEvent
        do {
            let summary = try await job.summary
            // Searches must see the new catalog from the moment a listener hears "finished".
            await store.catalogReplaced()
            Task { [store] in await store.warmUp() }
            await pictures.sweepSoon()
            final = finishedEvent(summary)
        } catch {
            final = .failed(message(for: error, id: id))
        }
        try? FileManager.default.removeItem(atPath: uploadPath(for: id))
        release(id)
        publish(final, for: id)
    }

    /// `summary` as clients see it: they learn where things are by URL, never by the server's own paths.
    private nonisolated func forClients<Summary: PathsOfImport>(_ summary: Summary, id: Int) -> Summary {
        var summary = summary
        summary.databasePath = store.nameForClients
        summary.rejectsPath = summary.rejectsPath.map { _ in "/api/imports/\(id)/rejects" }
        return summary
    }

    /// The error's message for a web client, phrased from what it is: about "the file", with no
    /// server path. An error of no kind the page knows is told by its kind only, and written in
    /// full to the server's output.
    private func message(for error: any Error, id: Int) -> String {
        switch error {
        case let error as ImportError: return error.pageMessage
        case let error as EngineError: return APIError(error).message + " The catalog was not changed."
        case let error as CatalogError: return APIError.catalogMessage(error) + " The catalog was not changed."
        case let error as EditError: return APIError(error).message
        default:
            Logger(label: "catalog-serve").error("import \(id) failed: \(String(describing: error))")
            return "The import stopped with an error the page does not know (\(type(of: error))); the server's output says more. The catalog was not changed."
        }
    }

    /// Frees the slot import `id` held.
    private func release(_ id: Int) {
        guard activeId == id else { return }
        activeId = nil
        activeMode = nil
    }

    private func publish(_ event: ImportEvent, for id: Int) {
        guard let numbered = records[id]?.append(event) else { return }
        for continuation in (listeners[id] ?? [:]).values {
            continuation.yield(numbered)
            if event.isFinal { continuation.finish() }
        }
        if event.isFinal { listeners[id] = nil }
    }

    private func removeListener(_ key: Int, of id: Int) {
        listeners[id]?[key] = nil
    }

    /// Keeps the newest ``keptImports`` records and their rejects files.
    private func forgetOldImports() {
        let old = records.keys.sorted().dropLast(Self.keptImports)
        for id in old where id != activeId {
            records[id] = nil
            try? FileManager.default.removeItem(atPath: rejectsPath(for: id))
        }
    }
}

/// What an upload may ask of its import beyond its mode: the limits the command line sets with
/// `--max-errors`, `--max-deletes` and `--allow-empty`, with the same defaults.
struct ImportLimits: Sendable {
    var maxErrors = ImportOptions().maxErrors
    var maxDeletes = DeleteLimit.default
    var allowEmpty = false
}

/// The server paths an import's summary names: the catalog and the rejects file.
protocol PathsOfImport {
    var databasePath: String { get set }
    var rejectsPath: String? { get set }
}

extension ImportSummary: PathsOfImport {}
extension StockImportSummary: PathsOfImport {}
