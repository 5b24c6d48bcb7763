import Dispatch
import Synchronization

/// A product import running in the background (``CatalogImporter/start(input:)``).
public typealias ImportJob = BackgroundImport<ImportSummary>

/// An import running on a background thread: its progress as an `AsyncSequence`, its result, and a way to stop it.
///
/// ```swift
/// let job = CatalogImporter(options: options).start(input: .file(path: "products.csv"))
/// for await snapshot in job.progress { print(snapshot.rowsRead) }
/// let summary = try await job.summary
/// ```
///
/// The work runs on a Dispatch thread, not in the Swift concurrency pool, because it blocks on
/// file reads and SQLite for seconds at a time. Progress arrives about every `progressInterval`
/// whatever the row rate; a slow consumer sees only the newest snapshot, never a backlog.
public final class BackgroundImport<Summary: Sendable>: Sendable {
    /// Progress snapshots, ending with the final one when the import finishes or fails.
    public let progress: AsyncStream<ImportProgress>
    private let flag = CancellationFlag()
    private let outcome: Task<Summary, any Error>

    /// Runs `work` on a Dispatch thread, handing it where to report progress and whether to stop.
    init(_ work: @escaping @Sendable (_ progress: (ImportProgress) -> Void, _ isCancelled: () -> Bool) throws -> Summary) {
        let (stream, continuation) = AsyncStream.makeStream(of: ImportProgress.self, bufferingPolicy: .bufferingNewest(1))
        progress = stream
        let flag = self.flag
        // The work is handed to Dispatch here, not from a task, so that it starts even when every
        // thread of the concurrency pool is busy; the task only waits for its one result.
        let (result, resultContinuation) = AsyncThrowingStream.makeStream(of: Summary.self)
        DispatchQueue.global(qos: .userInitiated).async {
            defer { continuation.finish() }
            do {
                resultContinuation.yield(try work({ continuation.yield($0) }, { flag.isSet }))
                resultContinuation.finish()
            } catch {
                resultContinuation.finish(throwing: error)
            }
        }
        outcome = Task {
            for try await summary in result { return summary }
            preconditionFailure("an import ended without a summary or an error")
        }
    }

    /// The finished import's summary; throws the ``ImportError`` that stopped it.
    public var summary: Summary {
        get async throws { try await outcome.value }
    }

    /// Asks the import to stop; it ends with ``ImportError/cancelled`` and the catalog unchanged.
    public func cancel() {
        flag.set()
    }

    /// True once ``cancel()`` was called.
    public var isCancelled: Bool { flag.isSet }
}

/// A flag one thread sets and another polls.
private final class CancellationFlag: Sendable {
    private let value = Atomic(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
}

extension CatalogImporter {
    /// Starts importing `input` in the background.
    public func start(input: InputSource) -> ImportJob {
        start(input: input, into: { [self] in fileSink() })
    }

    /// Starts importing `input` in the background into the sink `makeSink` makes on the import's thread.
    public func start(input: InputSource, into makeSink: @escaping @Sendable () -> any CatalogSink) -> ImportJob {
        ImportJob { [self] progress, isCancelled in
            try run(source: try input.open(), into: makeSink(), progress: progress, isCancelled: isCancelled)
        }
    }
}

extension StockImporter {
    /// Starts importing `input`'s stock in the background.
    public func start(input: InputSource) -> BackgroundImport<StockImportSummary> {
        BackgroundImport { [self] progress, isCancelled in
            try run(source: try input.open(), progress: progress, isCancelled: isCancelled)
        }
    }

    /// The stock format `source`'s header names, or nil when it is no stock file (or no CSV).
    public static func recognise(source: any ByteSource, reading: FeedReading = FeedReading()) -> StockFormat? {
        guard let header = ImportReading.cleanHeader(of: source, reading: reading) else { return nil }
        return try? StockLayout(header: header).format
    }
}
