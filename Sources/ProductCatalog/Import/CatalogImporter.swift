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
        let destination = try ImportDestination(databasePath: options.databasePath, mode: options.mode)
        let lock = try ImportLock(importInto: destination.path)
        defer { withExtendedLifetime(lock) {} }

        let source = options.encoding == .utf8 ? source : TranscodingByteSource(source, encoding: options.encoding)
        let reading = try ImportReading(source: source, options: options)
        let (reader, header, format, mapping) = (reading.reader, reading.header, reading.format, reading.mapping)
        var (record, layout, checker) = (reading.record, reading.layout, reading.checker)
        let rejects = RejectsFile(path: options.resolvedRejectsPath, header: mapping.header)
        var counts = ImportProgress(totalBytes: source.expectedBytes)
        var nextReport = start + options.progressInterval
        var estimate = ProgressEstimate()
        var rowsToWrite: Int?
        func report(_ phase: ImportProgress.Phase) {
            counts.phase = phase
            counts.bytesRead = source.bytesRead
            counts.elapsed = clock.now - start
            estimate.update(&counts, rowsToWrite: rowsToWrite)
            progress(counts)
        }
        /// Reports when the interval has passed; called every 1,024 rows or so, to keep clock reads rare.
        func reportIfDue(_ phase: ImportProgress.Phase) throws {
            guard clock.now >= nextReport else { return }
            if isCancelled() { throw ImportError.cancelled }
            report(phase)
            nextReport = clock.now + options.progressInterval
        }
        report(.loading)

        // Stops whatever runs on the second core, and the writer, when this thread fails.
        var stopStages: (() -> Void)?
        var writer: CatalogBuild?
        do {
            // 1. Read and check every record; sort the good ones into runs, on a second core.
            let arenaCapacity = options.sortMemory / 2
            do {
                try FileSystem.removeLeftoverRuns(pathPrefix: destination.path + ".importing")
            } catch let error as ByteSourceError {
                throw ImportError.destination(error)
            }
            let sorter = RunSorter(
                arenaCapacity: arenaCapacity, policy: options.onDuplicate, pathPrefix: destination.path + ".importing")
            stopStages = sorter.abandon
            var arena = RowArena(capacity: arenaCapacity)
            /// Checks one row (a record, or a row a layout made) and sorts it in or rejects it.
            func accept(_ record: CSVRecord, line: Int) throws {
                let malformation = record.malformation
                var outcome = record.withFields { checker.encode($0, malformation: malformation, line: line, into: arena) }
                if case .arenaFull = outcome {
                    arena = try sorter.exchange(arena)
                    outcome = record.withFields { checker.encode($0, malformation: malformation, line: line, into: arena) }
                    if case .arenaFull = outcome { outcome = .rejected("the row is larger than the import's sort memory") }
                }
                if case .rejected(let reason) = outcome { try reject(record, line: line, reason: reason) }
            }
            func reject(_ record: CSVRecord, line: Int, reason: String) throws {
                try record.withFields { try rejects.write(line: line, reason: reason, fields: $0) }
                counts.rowsRejected += 1
                if counts.rowsRejected > options.maxErrors {
                    throw ImportError.tooManyRejects(limit: options.maxErrors, line: line, rejectsPath: rejects.path)
                }
            }
            while try readNext(reader, into: &record) {
                counts.rowsRead += 1
                let line = record.position.line
                // A row missing only its trailing fields (as spreadsheets write them) is read with them empty.
                if record.count < header.count, record.malformation == nil, record.count > 0 {
                    record.padFields(to: header.count)
                    counts.rowsPadded += 1
                }
                if var platform = layout {
                    if record.malformation != nil || record.count != header.count {
                        try accept(record, line: line)
                    } else {
                        try platform.take(record.strings, line: line) { try accept(CSVRecord($0.fields), line: $0.line) }
                    }
                    layout = platform
                } else {
                    try accept(record, line: line)
                }
                if counts.rowsRead & 1023 == 0 { try reportIfDue(.loading) }
            }
            if var platform = layout {
                try platform.finish { try accept(CSVRecord($0.fields), line: $0.line) }
                counts.rowsFolded = platform.foldedRecords
            }
            try rejects.finish()
            try checkSomethingKept(counts, checker: checker, rejectsPath: rejects.path, source: source.name)
            let (runs, duplicatesInRuns) = try sorter.finish(last: arena)
            counts.duplicates = duplicatesInRuns
            rowsToWrite = counts.rowsRead - counts.rowsRejected - counts.rowsFolded - duplicatesInRuns
            if isCancelled() { throw ImportError.cancelled }
            report(.writing)

            // 2. Merge the runs in productId order on the second core; write them on this one.
            let target = try makeBuild(at: destination.path, extraColumns: mapping.extras.map(\.name), insertColumns: checker.insertColumns)
            writer = target
            let stream = RowBatchStream(runs: runs, policy: options.onDuplicate)
            stopStages = stream.abandon
            var rowsInTransaction = 0
            try checker.parameters.withUnsafeBufferPointer { parameters in
                while let batch = try stream.next() {
                    try target.insert(batch, parameters: parameters)
                    counts.rowsInserted += batch.count
                    rowsInTransaction += batch.count
                    stream.recycle(batch)
                    if rowsInTransaction >= options.rowsPerTransaction {
                        rowsInTransaction = 0
                        try target.commitAndContinue()
                    }
                    try reportIfDue(.writing)
                }
            }
            counts.duplicates += try stream.finish()
            stopStages = nil
            if isCancelled() { throw ImportError.cancelled }
            report(.finishing)

            // 3. Commit, and for a replacement make the new file durable and swap it in.
            let stored = try target.finish()
            try target.install()
            let added = stored - target.productsBefore
            let summary = ImportSummary(
                rowsRead: counts.rowsRead, rowsInserted: counts.rowsInserted, rowsUpdated: counts.rowsInserted - added,
                rowsRejected: counts.rowsRejected, duplicates: counts.duplicates, rowsFolded: counts.rowsFolded,
                rowsPadded: counts.rowsPadded, format: format, productsInCatalog: stored,
                editsReplaced: target.editsReplaced, bytesRead: source.bytesRead, elapsed: clock.now - start,
                databasePath: options.databasePath, rejectsPath: counts.rowsRejected > 0 ? rejects.path : nil)
            progress(summary.progress)
            return summary
        } catch {
            stopStages?()
            writer?.abandon()
            try? rejects.finish()
            throw error
        }
    }

    /// Refuses an import that would keep nothing: every row rejected, or (replacing) no rows at all.
    private func checkSomethingKept(_ counts: ImportProgress, checker: ProductRowChecker, rejectsPath: String, source: String) throws {
        guard !options.allowEmpty, counts.rowsRejected + counts.rowsFolded == counts.rowsRead else { return }
        if counts.rowsRejected > 0 {
            throw ImportError.nothingImported(
                rowsRead: counts.rowsRead, invalidUTF8: checker.invalidUTF8Rows, rejectsPath: rejectsPath)
        }
        if options.mode == .replace { throw ImportError.noDataRows(source: source) }
    }

    /// The new catalog, empty for a replacement or a copy of the live one for an upsert.
    private func makeBuild(at path: String, extraColumns: [String], insertColumns: [String]) throws -> CatalogBuild {
        let build = try CatalogBuild(livePath: path, copyingLive: options.mode == .upsert, maxPages: options.maxDatabasePages)
        do {
            switch options.mode {
            case .replace: try build.createTable(extraColumns: extraColumns, insertColumns: insertColumns)
            case .upsert: try build.prepareUpsert(extraColumns: extraColumns, insertColumns: insertColumns)
            }
        } catch {
            build.abandon()
            throw error
        }
        return build
    }

    private func readNext(_ reader: CSVReader, into record: inout CSVRecord) throws -> Bool {
        try ImportReading.readNext(reader, into: &record)
    }
}
