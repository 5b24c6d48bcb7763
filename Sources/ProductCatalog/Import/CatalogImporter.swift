/// Imports a product CSV into a catalog file: bytes → records → checked rows → SQLite.
///
/// ```swift
/// let importer = CatalogImporter(options: ImportOptions(databasePath: "catalog.sqlite"))
/// let summary = try importer.run(source: try FileByteSource(path: "products.csv"))
/// ```
///
/// The new catalog is built beside the old one and swapped in only when complete (see
/// ``CatalogBuild``), so a failed, cancelled or killed import leaves the old catalog as it was.
/// Every data record ends up in exactly one place: the catalog, the rejects file, or the count
/// of duplicates. `run` blocks its thread; ``start(input:)`` runs it in the background.
public struct CatalogImporter: Sendable {
    public var options: ImportOptions

    public init(options: ImportOptions) {
        self.options = options
    }

    /// Imports `source` on the calling thread, calling `progress` about every `progressInterval`.
    ///
    /// `isCancelled` is polled with each progress check; when it turns true the import stops
    /// with ``ImportError/cancelled``.
    public func run(
        source: any ByteSource,
        progress: (ImportProgress) -> Void = { _ in },
        isCancelled: () -> Bool = { false }
    ) throws -> ImportSummary {
        try run(source: source, into: fileSink(), progress: progress, isCancelled: isCancelled)
    }

    /// The default sink: the catalog file at ``ImportOptions/databasePath``.
    func fileSink() -> any CatalogSink {
        SQLiteCatalogSink(databasePath: options.databasePath, maxPages: options.maxDatabasePages)
    }

    /// Imports `source` into `sink` instead of the file at ``ImportOptions/databasePath``, as ``run(source:progress:isCancelled:)`` does.
    public func run(
        source: any ByteSource,
        into sink: any CatalogSink,
        progress: (ImportProgress) -> Void = { _ in },
        isCancelled: () -> Bool = { false }
    ) throws -> ImportSummary {
        // The reporter keeps both closures only while `run` runs.
        try withoutActuallyEscaping(progress) { progress in
            try withoutActuallyEscaping(isCancelled) { isCancelled in
                let source = options.reading.encoding == .utf8 ? source : TranscodingByteSource(source, encoding: options.reading.encoding)
                var reporter = ProgressReporter(
                    source: source, interval: options.progressInterval, progress: progress, isCancelled: isCancelled)
                do {
                    return try run(source, into: sink, reporter: &reporter)
                } catch let error as SortError {
                    throw ImportError(error)
                } catch let error as CatalogError {
                    throw ImportError.catalog(error)
                }
            }
        }
    }

    /// The import, phase by phase: sort the checked rows, write them into a new catalog, swap it in.
    private func run(_ source: any ByteSource, into sink: any CatalogSink, reporter: inout ProgressReporter) throws -> ImportSummary {
        try sink.check(output: options.rejectsPath ?? sink.defaultRejectsPath)
        try sink.claim(mode: options.mode)
        defer { sink.release() }
        let reading = try ImportReading(source: source, reading: options.reading)
        let rejects = RejectsFile(path: options.rejectsPath ?? sink.defaultRejectsPath, header: reading.mapping.header)
        reporter.report(.loading)

        let stored: Int
        do {
            let sorted = try sortRows(reading, spillingTo: sink.spillPathPrefix, rejects: rejects, reporter: &reporter)
            try reporter.stopIfCancelled()
            reporter.report(.writing)
            try writeRows(sorted, into: sink, extraColumns: reading.mapping.extras.map(\.name), reporter: &reporter)
            reporter.report(.finishing)
            stored = try reporter.reportingEachInterval(.finishing) { try install(sink) }
        } catch {
            // The rejected rows explain a failure only when they are its reason; otherwise their
            // file goes with the import (a full disk must not stay full because of it).
            if !Self.isExplainedByRejects(error) { rejects.discard() }
            throw error
        }

        let counts = reporter.counts
        let summary = ImportSummary(
            rowsRead: counts.rowsRead, rowsInserted: counts.rowsInserted, rowsUpdated: counts.rowsInserted - (stored + sink.productsDeleted - sink.productsBefore),
            rowsDeleted: sink.productsDeleted,
            rowsRejected: counts.rowsRejected, duplicates: counts.duplicates, rowsFolded: counts.rowsFolded,
            rowsPadded: counts.rowsPadded, format: reading.format, productsInCatalog: stored,
            editsReplaced: sink.editsReplaced, bytesRead: source.bytesRead, elapsed: reporter.elapsed,
            databasePath: sink.catalogName, rejectsPath: counts.rowsRejected > 0 ? rejects.path : nil)
        reporter.finish(summary)
        return summary
    }

    /// True for the failures whose message points to the rejects file.
    private static func isExplainedByRejects(_ error: any Error) -> Bool {
        switch error as? ImportError {
        case .tooManyRejects?, .nothingImported?: true
        default: false
        }
    }

    /// What sorting leaves: the checked rows in runs sorted by productId, and the checker that read them.
    private struct SortedRows {
        var runs: [any SortedRun]
        /// It has learned the file (whether its prices named a currency), which decides the columns written.
        var checker: ProductRowChecker
        /// How long the kept rows are.
        var lengths: RowLengths
        /// The productIds the rejected rows name, kept when the upsert deletes what its file omits.
        var spared: Set<String>
    }

    /// Phase 1: reads and checks every record; sorts the good ones into runs on a second core,
    /// spilling to files whose paths start with `runPathPrefix`, and writes the others to `rejects`.
    private func sortRows(
        _ reading: consuming ImportReading, spillingTo runPathPrefix: String, rejects: RejectsFile, reporter: inout ProgressReporter
    ) throws -> SortedRows {
        do {
            try FileSystem.removeLeftoverRuns(pathPrefix: runPathPrefix)
        } catch let error as ByteSourceError {
            throw CatalogError.cannotWrite(error)
        }
        let arenaCapacity = options.sortMemory / 2
        let sorter = RunSorter(arenaCapacity: arenaCapacity, policy: options.onDuplicate, pathPrefix: runPathPrefix)
        var arena = RowArena(capacity: arenaCapacity)
        var checker = reading.checker
        var lengths = RowLengths()
        var spared = Set<String>()
        let sparing = options.mode == .upsert && options.deleteMissing
        let productIdColumn = reading.mapping.fieldColumns[.productId]
        let maxErrors = options.maxErrors
        /// Checks one row and sorts it in or rejects it.
        func accept(_ record: CSVRecord, line: Int) throws {
            let malformation = record.malformation
            var used = arena.used
            var outcome = record.withFields { checker.encode($0, malformation: malformation, line: line, into: arena) }
            if case .noRoom = outcome, !arena.isEmpty {
                arena = try sorter.exchange(arena)
                used = 0
                outcome = record.withFields { checker.encode($0, malformation: malformation, line: line, into: arena) }
            }
            if case .noRoom = outcome { outcome = .rejected("the row is larger than the import's sort memory") }
            if case .encoded = outcome { lengths.add(arena.used - used) }
            guard case .rejected(let reason) = outcome else { return }
            try record.withFields { try rejects.write(line: line, reason: reason, fields: $0) }
            // A rejected row still names its product: deleting what the file omits must keep it.
            if sparing, let column = productIdColumn, column < record.count {
                let id = record.withFields { String(decoding: ProductRowChecker.storedText($0[column]), as: UTF8.self) }
                if !id.isEmpty { spared.insert(id) }
            }
            reporter.counts.rowsRejected += 1
            if reporter.counts.rowsRejected > maxErrors {
                throw ImportError.tooManyRejects(limit: maxErrors, line: line, rejectsPath: rejects.path)
            }
        }
        do {
            while try reading.readRows(accept) {
                if reading.recordsRead & 1023 == 0 {
                    reporter.counts.rowsRead = reading.recordsRead
                    reporter.counts.rowsPadded = reading.recordsPadded
                    try reporter.reportIfDue(.loading)
                }
            }
            try reading.finishRows(accept)
            reporter.counts.rowsRead = reading.recordsRead
            reporter.counts.rowsPadded = reading.recordsPadded
            reporter.counts.rowsFolded = reading.recordsFolded
            try rejects.finish()
            try checkSomethingKept(reporter.counts, checker: checker, rejectsPath: rejects.path, source: reading.sourceName)
            let (runs, duplicates) = try sorter.finish(last: arena)
            let counts = reporter.counts
            reporter.counts.duplicates = duplicates
            reporter.rowsToWrite = counts.rowsRead - counts.rowsRejected - counts.rowsFolded - duplicates
            return SortedRows(runs: runs, checker: checker, lengths: lengths, spared: spared)
        } catch {
            sorter.abandon()
            try? rejects.finish()
            throw error
        }
    }

    /// Phase 2: merges the runs in productId order on the second core and writes them into
    /// `sink` on this one, committing every ``ImportOptions/rowsPerTransaction`` rows.
    private func writeRows(
        _ sorted: SortedRows, into sink: any CatalogSink, extraColumns: [String], reporter: inout ProgressReporter
    ) throws {
        let stream = RowBatchStream(runs: sorted.runs, policy: options.onDuplicate)
        do {
            let counts = reporter.counts
            try sink.begin(mode: options.mode, columns: sorted.checker.checkedColumns, extraColumns: extraColumns,
                           rows: counts.rowsRead - counts.rowsRejected - counts.rowsFolded, rowLengths: sorted.lengths,
                           deletingMissing: options.mode == .upsert && options.deleteMissing ? DeletionOfMissing(spared: sorted.spared) : nil)
            var rowsInTransaction = 0
            try sorted.checker.parameters.withUnsafeBufferPointer { parameters in
                while let batch = try stream.next() {
                    try sink.write(CheckedRows(batch: batch, parameters: parameters))
                    reporter.counts.rowsInserted += batch.count
                    rowsInTransaction += batch.count
                    stream.recycle(batch)
                    if rowsInTransaction >= options.rowsPerTransaction {
                        rowsInTransaction = 0
                        try sink.commitAndContinue()
                        reporter.noteCommit()
                    }
                    try reporter.reportIfDue(.writing)
                }
            }
            reporter.counts.duplicates += try stream.finish()
            try reporter.stopIfCancelled()
        } catch {
            stream.abandon()
            sink.abandon()
            throw error
        }
    }

    /// Phase 3: completes the new catalog and swaps it in; returns how many products the catalog now holds.
    private func install(_ sink: any CatalogSink) throws -> Int {
        do {
            let stored = try sink.finish()
            try checkDeletes(sink)
            try sink.install()
            return stored
        } catch {
            sink.abandon()
            throw error
        }
    }

    /// Refuses an upsert that would delete more of the catalog than ``ImportOptions/maxDeletes`` allows.
    private func checkDeletes(_ sink: any CatalogSink) throws {
        guard options.mode == .upsert, options.deleteMissing,
              sink.productsDeleted > options.maxDeletes.allowed(ofCatalog: sink.productsBefore) else { return }
        throw ImportError.tooManyDeletes(wouldDelete: sink.productsDeleted, catalogProducts: sink.productsBefore, limit: options.maxDeletes)
    }

    /// Refuses an import that would keep nothing: every row rejected, or no rows at all where that
    /// would empty the catalog (replacing it, or upserting and deleting what the file omits).
    private func checkSomethingKept(_ counts: ImportProgress, checker: ProductRowChecker, rejectsPath: String, source: String) throws {
        guard !options.allowEmpty, counts.rowsRejected + counts.rowsFolded == counts.rowsRead else { return }
        if counts.rowsRejected > 0 {
            throw ImportError.nothingImported(
                rowsRead: counts.rowsRead, invalidUTF8: checker.invalidUTF8Rows, rejectsPath: rejectsPath)
        }
        if options.mode == .replace || options.deleteMissing { throw ImportError.noDataRows(source: source) }
    }
}
