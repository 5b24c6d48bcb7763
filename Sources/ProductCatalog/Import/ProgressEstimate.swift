/// Turns an import's counters into one fraction of the whole job, the time left and the phase's rate.
///
/// The job's length is predicted from what has been measured so far: while reading, from the
/// share of the input's bytes read, with writing (the rows, with the word index and the sort lists
/// built beside them on other threads) taken to cost ``writeCostPerRead`` times reading per row and
/// finishing (merging the lists, copying them in, syncing and the swap) ``finishShare`` of both.
/// Measured in a release build of 2026-11-27 (`catalog import --json`, the phases' first events):
/// a million plain generated rows 0.99 s reading, 3.27 s writing, 1.12 s finishing; a million
/// realistic ones 1.20, 12.12 and 5.52 s; 100,000 realistic ones with descriptions 0.47, 1.51 and
/// 0.63 s. Writing is 3.2 to 10 times reading, finishing 0.26 to 0.41 of the rest: the prior sits
/// between, and the writing phase soon measures its own rate. While writing, the length comes from
/// the real reading time and the rate of writing so far. The fraction is the time spent over the
/// predicted length, so it tracks elapsed time, and it is held from going back when a prediction
/// shrinks. A stock import (``StockImporter``) has weights of its own: writing 2.2 times reading,
/// finishing next to nothing.
struct ProgressEstimate {
    /// Writing a row costs about this many times reading it.
    var writeCostPerRead = 5.0
    /// Making the new catalog durable and swapping it in, as a share of reading and writing.
    var finishShare = 0.35
    /// Seconds of a phase before its own rate is trusted over the prior.
    static let settling = 0.05

    /// The weights of a stock import, measured on two and twenty million rows (`Benchmarks/stock.sh`):
    /// reading 3.6 s and 40.4 s, writing 7.9 s and 94.5 s, finishing a count.
    static let stock = ProgressEstimate(writeCostPerRead: 2.2, finishShare: 0.02)

    private var readingSeconds: Double?
    private var writingSeconds: Double?
    private var lastFraction = 0.0
    /// Rows committed, and when: a commit also places the rows' words in the index, which costs
    /// more than binding them, so the writing rate is measured from one commit to the last.
    private var committed: (rows: Int, at: Double)?

    /// When the first row was written, if the writing phase began with work of another kind
    /// (a stock import's sort): the writing rate is measured from then.
    private var firstWrite: Double?

    mutating func noteCommit(rows: Int, at seconds: Double) {
        committed = (rows, seconds)
    }

    mutating func noteFirstWrite(at seconds: Double) {
        firstWrite = seconds
    }

    /// Fills in `progress`'s fraction, time left and rate; `rowsToWrite` is known once reading ends.
    mutating func update(_ progress: inout ImportProgress, rowsToWrite: Int?) {
        let elapsed = progress.elapsed.seconds
        var predicted: Double?
        switch progress.phase {
        case .loading:
            progress.rowsPerSecond = elapsed > 0 ? Double(progress.rowsRead) / elapsed : 0
            if let total = progress.totalBytes, total > 0, progress.bytesRead > 0, elapsed > Self.settling {
                let reading = elapsed * Double(total) / Double(progress.bytesRead)
                let kept = progress.rowsRead > 0 ? Double(progress.rowsRead - progress.rowsRejected) / Double(progress.rowsRead) : 1
                let writing = reading * writeCostPerRead * kept
                predicted = (reading + writing) * (1 + finishShare)
            } else if progress.totalBytes == 0 {
                predicted = elapsed
            }
        case .writing:
            let reading = readingSeconds ?? elapsed
            readingSeconds = reading
            let spent = elapsed - reading
            progress.rowsPerSecond = spent > 0 ? Double(progress.rowsInserted) / spent : 0
            let toWrite = Double(rowsToWrite ?? progress.rowsInserted)
            let writing: Double
            let writingFrom = firstWrite ?? reading
            if let committed, committed.rows > 0, committed.at - writingFrom > Self.settling {
                writing = (writingFrom - reading) + toWrite / (Double(committed.rows) / (committed.at - writingFrom))
            } else {
                let perRow = progress.rowsRead > 0 ? reading / Double(progress.rowsRead) : 0
                writing = toWrite * perRow * writeCostPerRead
            }
            predicted = (reading + max(writing, spent)) * (1 + finishShare)
        case .finishing:
            let reading = readingSeconds ?? elapsed
            let writing = writingSeconds ?? (elapsed - reading)
            readingSeconds = reading
            writingSeconds = writing
            progress.rowsPerSecond = 0
            predicted = max((reading + writing) * (1 + finishShare), elapsed * 1.01)
        case .finished:
            progress.fractionCompleted = 1
            progress.estimatedTimeRemaining = .zero
            progress.rowsPerSecond = elapsed > 0 ? Double(progress.rowsRead) / elapsed : 0
            return
        }
        guard let predicted, predicted > 0 else {
            progress.fractionCompleted = progress.totalBytes == nil ? nil : lastFraction
            progress.estimatedTimeRemaining = nil
            return
        }
        lastFraction = min(0.99, max(lastFraction, elapsed / predicted))
        progress.fractionCompleted = lastFraction
        progress.estimatedTimeRemaining = .seconds(max(0, predicted - elapsed))
    }
}
