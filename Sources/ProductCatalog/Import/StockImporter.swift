/// Imports a local inventory file into a catalog's stock by store: bytes → records → stock rows →
/// the catalog's ``StockSink`` (a file's ``StockFileSink``, or another engine's), which stages
/// them and writes them in one transaction.
///
/// ```swift
/// let importer = StockImporter(databasePath: "catalog.sqlite")
/// let summary = try importer.run(source: try FileByteSource(path: "local-inventory.csv"))
/// ```
///
/// The file's format is recognised from its header (``StockFormat``). Each record becomes one
/// product's quantity at one store, is rejected with its line and reason (a product the catalog
/// does not hold, no store, a quantity that is not a whole number), or, naming a product and store
/// a later record names again, gives way to it. Memory stays constant whatever the file's size,
/// searches read the old stock until the commit, and a failed, cancelled or killed import leaves
/// the stock as it was. Replacing empties the stock first; upserting keeps the rows the file does
/// not name.
public struct StockImporter: Sendable {
    /// The catalog as messages and the summary name it.
    public let catalogName: String
    /// `.replace` makes the stock the file's; `.upsert` changes only the product–store pairs it names.
    public var mode: ImportMode = .replace
    /// How bytes become records: delimiter, encoding, chunk size (the format is recognised from the header).
    public var reading = FeedReading()
    /// Where rejected rows go; by default the sink's (a catalog file's path with `.stock-rejects.csv`).
    public var rejectsPath: String?
    /// The import fails once more rows than this were rejected, as a product import does.
    public var maxErrors = ImportOptions().maxErrors
    /// Lets a replacing import empty the stock: from a header-only file, or one whose rows were all rejected.
    public var allowEmpty = false
    /// How often `progress` is called.
    public var progressInterval: Duration = .milliseconds(200)
    /// Where rejected rows go when ``rejectsPath`` is nil.
    private let defaultRejectsPath: String
    /// Makes the sink each run writes into.
    private let makeSink: @Sendable () -> any StockSink

    /// An import into the stock of the catalog file at `databasePath`.
    public init(databasePath: String, mode: ImportMode = .replace) {
        self.init(mode: mode) { StockFileSink(databasePath: databasePath) }
    }

    /// An import into the stock `makeSink` writes, made once here for its names and once for each run.
    public init(mode: ImportMode = .replace, sink makeSink: @escaping @Sendable () -> any StockSink) {
        let sink = makeSink()
        catalogName = sink.catalogName
        defaultRejectsPath = sink.defaultRejectsPath
        self.makeSink = makeSink
        self.mode = mode
    }

    /// Where rejected rows go.
    public var resolvedRejectsPath: String { rejectsPath ?? defaultRejectsPath }

    /// Imports `source` on the calling thread, calling `progress` about every ``progressInterval``;
    /// when `isCancelled` turns true the import stops with ``ImportError/cancelled``.
    public func run(
        source: any ByteSource,
        progress: (ImportProgress) -> Void = { _ in },
        isCancelled: () -> Bool = { false }
    ) throws -> StockImportSummary {
        try withoutActuallyEscaping(progress) { progress in
            try withoutActuallyEscaping(isCancelled) { isCancelled in
                let source = reading.encoding == .utf8 ? source : TranscodingByteSource(source, encoding: reading.encoding)
                let reporter = ProgressReporter(source: source, interval: progressInterval, estimate: .stock,
                                                progress: progress, isCancelled: isCancelled)
                let sink = makeSink()
                defer { sink.release() }
                do {
                    return try run(source, into: sink, reporter: reporter)
                } catch let error as CatalogError {
                    throw ImportError.catalog(error)
                } catch let error as SQLiteError {
                    throw ImportError.catalog(.database(path: catalogName, error))
                }
            }
        }
    }

    private func run(_ source: any ByteSource, into sink: any StockSink, reporter: ProgressReporter) throws -> StockImportSummary {
        var reporter = reporter
        try sink.check(output: resolvedRejectsPath)
        try sink.claim(mode: mode)
        let reader = CSVReader(source: source, options: CSVReader.Options(
            delimiter: reading.delimiter, chunkSize: reading.chunkSize, maxFieldBytes: reading.maxFieldBytes))
        let header: [String]
        let layout: StockLayout
        do {
            header = try ImportReading.readHeader(reader, source: source, options: reading).strings.map(HeaderName.clean)
            do throws(StockLayoutError) {
                layout = try StockLayout(header: header)
            } catch {
                throw ImportError.stockHeader(source: source.name, error)
            }
        } catch {
            sink.abandon()
            throw error
        }
        reporter.report(.loading)

        let rejects = RejectsFile(path: resolvedRejectsPath, header: header)
        var invalidUTF8 = 0
        /// Writes a record the reading rejects, and stops the import past ``maxErrors``.
        func reject(_ rejection: StockRowRejection, line: Int, fields: CSVRecord.Fields) throws {
            if case .notText(_, .invalidUTF8) = rejection { invalidUTF8 += 1 }
            try rejects.write(line: line, reason: rejection.reason, fields: fields)
            reporter.counts.rowsRejected += 1
            if reporter.counts.rowsRejected > maxErrors {
                throw ImportError.tooManyRejects(limit: maxErrors, line: line, rejectsPath: rejects.path)
            }
        }
        do {
            // Reading: each record checked and staged with its line and fields.
            let columns = header.count
            var record = CSVRecord()
            while try ImportReading.readNext(reader, into: &record) {
                reporter.counts.rowsRead += 1
                let line = record.position.line
                if record.count < columns, record.malformation == nil, record.count > 0 { record.padFields(to: columns) }
                if let malformation = record.malformation {
                    try record.withFields { try reject(.malformed("the row is not valid CSV: \(malformation)"), line: line, fields: $0) }
                } else if record.count != columns {
                    try record.withFields { try reject(.malformed("the row has \(record.count) fields; the header has \(columns)"), line: line, fields: $0) }
                } else if let rejection = record.withFields(Self.textProblem) {
                    try record.withFields { try reject(rejection, line: line, fields: $0) }
                } else {
                    switch layout.row(record.strings) {
                    case .failure(let rejection):
                        try record.withFields { try reject(rejection, line: line, fields: $0) }
                    case .success(let row):
                        try sink.stage(StagedStockRow(productId: row.productId, store: row.store, quantity: row.quantity, line: line,
                                                      fields: record.withFields(StagedStockRow.packed)))
                    }
                }
                if reporter.counts.rowsRead & 1023 == 0 { try reporter.reportIfDue(.loading) }
            }
            try sink.endStaging()
            try reporter.stopIfCancelled()
            if mode == .replace, reporter.counts.rowsRead == 0, !allowEmpty { throw ImportError.noStockRows(source: source.name) }
            reporter.rowsToWrite = reporter.counts.rowsRead - reporter.counts.rowsRejected
            reporter.report(.writing)
            let rejectedBefore = reporter.counts.rowsRejected
            var unknownProducts = 0
            let progress = StockWriteProgress(reporter: reporter) { productId, line, fields in
                try rejects.write(line: line, reason: StockRowRejection.unknownProduct(productId).reason, fields: fields)
                unknownProducts += 1
                if rejectedBefore + unknownProducts > maxErrors {
                    throw ImportError.tooManyRejects(limit: maxErrors, line: line, rejectsPath: rejects.path)
                }
            }
            let written = try sink.write(progress)
            reporter = progress.reporter
            reporter.counts.rowsInserted = written
            reporter.counts.rowsRejected += unknownProducts
            try rejects.finish()
            // Every row rejected (unknown products, another encoding): replacing would empty the stock.
            if written == 0, reporter.counts.rowsRejected > 0, !allowEmpty {
                throw ImportError.nothingImported(rowsRead: reporter.counts.rowsRead, invalidUTF8: invalidUTF8, rejectsPath: rejects.path)
            }
            reporter.report(.finishing)
            let (rows, stores) = try sink.counts()
            try sink.commit()
            let counts = reporter.counts
            let summary = StockImportSummary(
                format: layout.format, rowsRead: counts.rowsRead, rowsWritten: written, rowsRejected: counts.rowsRejected,
                unknownProducts: unknownProducts, duplicates: counts.duplicates, stockRows: rows, stores: stores,
                bytesRead: source.bytesRead, elapsed: reporter.elapsed,
                databasePath: catalogName, rejectsPath: counts.rowsRejected > 0 ? rejects.path : nil)
            reporter.finish(progress: summary.progress)
            return summary
        } catch {
            sink.abandon()
            try? rejects.finish()
            throw error
        }
    }

    /// Why a record's fields are not text a catalog keeps (the rules of a product import: valid
    /// UTF-8, no NUL byte), or nil when they are.
    private static func textProblem(_ fields: CSVRecord.Fields) -> StockRowRejection? {
        for column in 0..<fields.count {
            if let problem = TextValidation.problem(in: fields[column]) { return .notText(column: column + 1, problem) }
        }
        return nil
    }
}
