import Dispatch

/// An import's counters, and the caller's `progress` called with them about every `interval`.
///
/// The phases count into ``counts`` as they go. Reading the clock costs more than checking a
/// row, so the reading loop asks ``reportIfDue(_:)`` only every 1,024 records; the caller's
/// `isCancelled` is polled at the same moments.
struct ProgressReporter {
    var counts: ImportProgress
    /// Rows the writing phase will write, known once reading ends; the estimate of time left uses it.
    var rowsToWrite: Int?
    private let source: any ByteSource
    private let interval: Duration
    private let progress: (ImportProgress) -> Void
    private let isCancelled: () -> Bool
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var nextReport: ContinuousClock.Instant
    private var estimate: ProgressEstimate

    init(source: any ByteSource, interval: Duration, estimate: ProgressEstimate = ProgressEstimate(),
         progress: @escaping (ImportProgress) -> Void, isCancelled: @escaping () -> Bool) {
        self.estimate = estimate
        self.source = source
        self.interval = interval
        self.progress = progress
        self.isCancelled = isCancelled
        counts = ImportProgress()
        start = clock.now
        nextReport = start + interval
    }

    /// Time since the import started.
    var elapsed: Duration { clock.now - start }

    /// Notes that the rows written so far are committed, their words placed in the index: the
    /// writing rate is measured at commits, which include that work.
    mutating func noteCommit() {
        estimate.noteCommit(rows: counts.rowsInserted, at: elapsed.seconds)
    }

    /// Notes that the writing phase's first work, of another kind (a sort), is done and rows are being written now.
    mutating func noteFirstWrite() {
        estimate.noteFirstWrite(at: elapsed.seconds)
    }

    /// Sends a snapshot of the counters, in `phase`, now.
    mutating func report(_ phase: ImportProgress.Phase) {
        counts.phase = phase
        counts.bytesRead = source.bytesRead
        // A download learns its length from the response, after the import has begun.
        counts.totalBytes = source.expectedBytes
        counts.elapsed = elapsed
        estimate.update(&counts, rowsToWrite: rowsToWrite)
        progress(counts)
    }

    /// Runs `body`, a step that reports nothing itself (swapping in the new catalog), while another
    /// thread sends a snapshot in `phase` every interval, so that the fraction and the time left
    /// keep moving. The two never report at once: the ticker has stopped before this returns.
    mutating func reportingEachInterval<T>(_ phase: ImportProgress.Phase, while body: () throws -> T) throws -> T {
        let box = ReporterBox(self)
        let stop = DispatchSemaphore(value: 0)
        let wait = DispatchTimeInterval.milliseconds(max(1, Int(interval / .milliseconds(1))))
        let ticker = Worker<Void> {
            while stop.wait(timeout: .now() + wait) == .timedOut { box.reporter?.report(phase) }
        }
        let outcome = Result { try body() }
        stop.signal()
        try ticker.join()
        // Taken back out of the box: the caller's closures must not outlive this call in the
        // ticker's thread, which may end a moment after it signalled.
        self = box.reporter!
        box.reporter = nil
        return try outcome.get()
    }

    /// Sends a snapshot when the interval has passed, first stopping the import if the caller cancelled it.
    mutating func reportIfDue(_ phase: ImportProgress.Phase) throws {
        guard clock.now >= nextReport else { return }
        try stopIfCancelled()
        report(phase)
        nextReport = clock.now + interval
    }

    /// Throws ``ImportError/cancelled`` when the caller has cancelled the import.
    func stopIfCancelled() throws {
        if isCancelled() { throw ImportError.cancelled }
    }

    /// Sends the last snapshot, the finished import's.
    func finish(_ summary: ImportSummary) {
        finish(progress: summary.progress)
    }

    /// Sends the last snapshot, `progress`.
    func finish(progress last: ImportProgress) {
        progress(last)
    }
}

/// A reporter lent to the thread that reports for a step that cannot (see
/// ``ProgressReporter/reportingEachInterval(_:while:)``): one thread uses it at a time.
private final class ReporterBox: @unchecked Sendable {
    var reporter: ProgressReporter?
    init(_ reporter: ProgressReporter) { self.reporter = reporter }
}
