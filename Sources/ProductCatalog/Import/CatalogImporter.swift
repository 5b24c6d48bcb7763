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
        let clock = ContinuousClock()
        let start = clock.now
        let reader = CSVReader(source: source, options: CSVReader.Options(
            delimiter: options.delimiter, chunkSize: options.chunkSize, maxFieldBytes: options.maxFieldBytes))

        var record = CSVRecord()
        do {
            guard try reader.readRecord(into: &record) else { throw ImportError.emptyInput(source: source.name) }
        } catch let error as ByteSourceError {
            throw ImportError.source(error)
        }
        if let malformation = record.malformation { throw ImportError.malformedHeader(source: source.name, malformation) }
        let mapping: HeaderMapping
        do {
            mapping = try HeaderMapping(header: record.strings, overrides: options.columns)
        } catch {
            throw ImportError.header(source: source.name, error)
        }
        var checker = ProductRowChecker(mapping: mapping)

        let build = try CatalogBuild(livePath: options.databasePath)
        let rejects = RejectsFile(path: options.resolvedRejectsPath, header: mapping.header)
        /// Stops the current second-core stage when this thread fails.
        var stopStages: (() -> Void)?
        do {
            try build.createTable(extraColumns: mapping.extras.map(\.name), insertColumns: checker.columnNames)
            var counts = ImportProgress(totalBytes: source.expectedBytes)
            var nextReport = start + options.progressInterval
            func report(_ phase: ImportProgress.Phase) {
                counts.phase = phase
                counts.bytesRead = source.bytesRead
                counts.elapsed = clock.now - start
                progress(counts)
            }
            /// Reports when the interval has passed; checked every 1,024 rows to keep clock reads rare.
            func reportIfDue(_ phase: ImportProgress.Phase) throws {
                guard clock.now >= nextReport else { return }
                if isCancelled() { throw ImportError.cancelled }
                report(phase)
                nextReport = clock.now + options.progressInterval
            }
            report(.loading)

            // 1. Read and check every record; sort the good ones into runs, on a second core.
            let arenaCapacity = options.sortMemory / 2
            let sorter = RunSorter(arenaCapacity: arenaCapacity, policy: options.onDuplicate, pathPrefix: build.buildPath)
            stopStages = sorter.abandon
            var arena = RowArena(capacity: arenaCapacity)
            while try readNext(reader, into: &record) {
                counts.rowsRead += 1
                let line = record.position.line
                let malformation = record.malformation
                var outcome = record.withFields { checker.encode($0, malformation: malformation, line: line, into: arena) }
                if case .arenaFull = outcome {
                    arena = try sorter.exchange(arena)
                    outcome = record.withFields { checker.encode($0, malformation: malformation, line: line, into: arena) }
                    if case .arenaFull = outcome { outcome = .rejected("the row is larger than the import's sort memory") }
                }
                if case .rejected(let reason) = outcome {
                    try record.withFields { try rejects.write(line: line, reason: reason, fields: $0) }
                    counts.rowsRejected += 1
                    if counts.rowsRejected > options.maxErrors {
                        throw ImportError.tooManyRejects(limit: options.maxErrors, line: line, rejectsPath: rejects.path)
                    }
                }
                if counts.rowsRead & 1023 == 0 { try reportIfDue(.loading) }
            }
            try rejects.finish()
            let (runs, duplicatesInRuns) = try sorter.finish(last: arena)
            counts.duplicates = duplicatesInRuns
            if isCancelled() { throw ImportError.cancelled }
            report(.writing)

            // 2. Merge the runs in productId order on the second core; insert them on this one.
            let stream = RowBatchStream(runs: runs, policy: options.onDuplicate)
            stopStages = stream.abandon
            var rowsInTransaction = 0
            try checker.priceSlots.withUnsafeBufferPointer { kinds in
                while let batch = try stream.next() {
                    try build.insert(batch, kinds: kinds)
                    counts.rowsInserted += batch.count
                    rowsInTransaction += batch.count
                    stream.recycle(batch)
                    if rowsInTransaction >= options.batchSize {
                        rowsInTransaction = 0
                        try build.commitBatch()
                    }
                    try reportIfDue(.writing)
                }
            }
            counts.duplicates += try stream.finish()
            stopStages = nil
            report(.finishing)

            // 3. Make the new file durable and swap it in.
            let stored = try build.finish()
            try build.install()
            let summary = ImportSummary(
                rowsRead: counts.rowsRead, rowsInserted: stored, rowsRejected: counts.rowsRejected,
                duplicates: counts.duplicates, bytesRead: source.bytesRead, elapsed: clock.now - start,
                databasePath: options.databasePath, rejectsPath: counts.rowsRejected > 0 ? rejects.path : nil)
            progress(summary.progress)
            return summary
        } catch {
            stopStages?()
            build.abandon()
            try? rejects.finish()
            throw error
        }
    }

    private func readNext(_ reader: CSVReader, into record: inout CSVRecord) throws -> Bool {
        do {
            return try reader.readRecord(into: &record)
        } catch let error as ByteSourceError {
            throw ImportError.source(error)
        }
    }
}
