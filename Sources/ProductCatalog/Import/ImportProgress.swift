/// A snapshot of an import's counters, sent while it runs.
public struct ImportProgress: Sendable, Equatable {
    /// What the import is doing.
    public enum Phase: String, Sendable, Equatable {
        /// Reading and checking the input, sorting good rows by productId.
        case loading
        /// Writing the sorted rows into the new catalog.
        case writing
        /// Making the new catalog durable and swapping it in.
        case finishing
        /// Done: the counters are exact.
        case finished
    }

    public var phase: Phase
    /// Data records read (the header excluded).
    public var rowsRead: Int
    /// Rows written to the catalog so far: they are written once the whole input is read.
    public var rowsInserted: Int
    /// Rows written to the rejects file.
    public var rowsRejected: Int
    /// Rows collapsed because their productId came again; exact once finished.
    public var duplicates: Int
    /// Records folded into another row (see ``ImportSummary/rowsFolded``).
    public var rowsFolded = 0
    /// Rows read with missing trailing fields left empty.
    public var rowsPadded = 0
    /// Input bytes read.
    public var bytesRead: Int
    /// The input's size, when known.
    public var totalBytes: Int?
    /// Time since the import started.
    public var elapsed: Duration

    public init(
        phase: Phase = .loading, rowsRead: Int = 0, rowsInserted: Int = 0, rowsRejected: Int = 0,
        duplicates: Int = 0, bytesRead: Int = 0, totalBytes: Int? = nil, elapsed: Duration = .zero
    ) {
        self.phase = phase
        self.rowsRead = rowsRead
        self.rowsInserted = rowsInserted
        self.rowsRejected = rowsRejected
        self.duplicates = duplicates
        self.bytesRead = bytesRead
        self.totalBytes = totalBytes
        self.elapsed = elapsed
    }

    /// The fraction of the whole import done, from 0 to 1: reading, writing and finishing,
    /// weighted by what each costs so that it tracks the time spent. It never decreases, and is
    /// 1 only once the import has finished; nil while the input's size is unknown.
    public var fractionCompleted: Double?
    /// Time left for the whole import, once there is enough to estimate it.
    public var estimatedTimeRemaining: Duration?
    /// The current phase's rate: rows read per second while loading, rows written per second while writing.
    public var rowsPerSecond: Double = 0

    /// Rows done in the current phase: read while loading, written while writing.
    public var rowsInPhase: Int {
        phase == .loading ? rowsRead : rowsInserted
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number for display and rates.
    public var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
