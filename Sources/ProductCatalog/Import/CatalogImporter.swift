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
        let binder = ProductRowBinder(mapping: mapping)

        let build = try CatalogBuild(livePath: options.databasePath)
        let rejects = RejectsFile(path: options.resolvedRejectsPath, header: mapping.header)
        do {
            try build.createTable(
                extraColumns: mapping.extras.map(\.name), insertColumns: binder.columnNames,
                onDuplicate: options.onDuplicate)
            var counts = ImportProgress(totalBytes: source.expectedBytes)
            var nextReport = start + options.progressInterval
            let insert = build.insert!
            let policy = options.onDuplicate
            let batchSize = options.batchSize
            var rowsInBatch = 0

            func report(_ phase: ImportProgress.Phase) {
                counts.phase = phase
                counts.bytesRead = source.bytesRead
                counts.elapsed = clock.now - start
                progress(counts)
            }
            report(.loading)

            while try readNext(reader, into: &record) {
                counts.rowsRead += 1
                let line = record.position.line
                let rejection: String? = try record.withFields { fields in
                    if let reason = binder.bind(fields, malformation: record.malformation, to: insert) {
                        try rejects.write(line: line, reason: reason, fields: fields)
                        return reason
                    }
                    try build.database { try insert.step() }
                    insert.reset()
                    if policy != .last, build.lastInsertWasDuplicate {
                        counts.duplicates += 1
                        if policy == .fail {
                            let productId = String(decoding: fields[binder.slots[0].column], as: UTF8.self)
                            throw ImportError.duplicate(
                                productId: productId, firstLine: try build.firstLine(of: productId), line: line)
                        }
                    } else {
                        counts.rowsInserted += 1
                        if policy == .fail { try build.recordLine(line, productId: fields[binder.slots[0].column]) }
                    }
                    return nil
                }
                if rejection != nil {
                    counts.rowsRejected += 1
                    if counts.rowsRejected > options.maxErrors {
                        throw ImportError.tooManyRejects(limit: options.maxErrors, line: line, rejectsPath: rejects.path)
                    }
                }
                rowsInBatch += 1
                if rowsInBatch == batchSize {
                    rowsInBatch = 0
                    try build.commitBatch()
                }
                if counts.rowsRead & 1023 == 0, clock.now >= nextReport {
                    if isCancelled() { throw ImportError.cancelled }
                    report(.loading)
                    nextReport = clock.now + options.progressInterval
                }
            }
            if isCancelled() { throw ImportError.cancelled }
            counts.bytesRead = source.bytesRead
            report(.finishing)
            let stored = try build.finish()
            let accepted = counts.rowsRead - counts.rowsRejected
            try rejects.finish()
            try build.install()
            let summary = ImportSummary(
                rowsRead: counts.rowsRead, rowsInserted: stored, rowsRejected: counts.rowsRejected,
                duplicates: accepted - stored, bytesRead: source.bytesRead, elapsed: clock.now - start,
                databasePath: options.databasePath, rejectsPath: counts.rowsRejected > 0 ? rejects.path : nil)
            progress(summary.progress)
            return summary
        } catch {
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
