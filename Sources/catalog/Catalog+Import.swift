import ArgumentParser
import ProductCatalog
import ProductCatalogHTTP

extension Catalog {
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import a product CSV file into the catalog.",
            discussion: """
                The file needs a header line with a productId column (also accepted: product_id, \
                id, sku). Known columns are title (name), listPrice (price, regular_price), \
                salesPrice (sale_price, special_price), color, size, productType (type, category), \
                taxRate (tax) and imageURL (image); any other column is kept under its own name.

                The new catalog replaces the old one only when the import succeeds, and never \
                with an empty one unless --allow-empty says so. Rows that cannot be imported go to \
                a rejects file with their line number and the reason. --db must be a regular file \
                (or a new path) that you can write; a symbolic link is followed.
                """)

        @Argument(help: "The CSV file to import: a path, - for standard input, or an http:// or https:// URL; gzip is decompressed.")
        var file: String

        @OptionGroup var database: DatabaseOptions

        @OptionGroup var reading: ReadingOptions

        @Option(help: "replace: the file becomes the catalog, swapped in when complete. upsert: add the file's products and update those already there, in one transaction.")
        var mode: ImportMode = .replace

        @Flag(help: "With --mode upsert: delete the products the file does not list, so the catalog ends up equal to the file while only the difference is written. A product whose row was rejected is kept.")
        var deleteMissing = false

        @Option(help: ArgumentHelp("With --delete-missing: the most products it may delete, as a number (250) or a share of the catalog (25%); past it the import stops with the catalog unchanged.", valueName: "N|N%"))
        var maxDeletes: DeleteLimit = .default

        @Option(help: "What to do when a productId appears again: last (the later row wins), first, or fail.")
        var onDuplicate: DuplicatePolicy = .last

        @Option(help: "Where to write rejected rows (default: <db>.rejects.csv).")
        var rejects: String?

        @Option(help: "Stop, leaving the catalog unchanged, after this many rejected rows.")
        var maxErrors = 1_000

        @Option(help: "Memory for sorting rows by productId, in MiB; larger files are sorted in runs on disk.")
        var sortMemory = ImportOptions().sortMemory >> 20

        @Flag(help: "Replace the catalog even when the result is empty: a header-only file, or one whose rows were all rejected.")
        var allowEmpty = false

        @Flag(help: "Print progress and the result as JSON lines on standard output.")
        var json = false

        @Flag(help: "Print no progress, only the summary (or the error).")
        var quiet = false

        @Option(help: "For a URL: give up after this many seconds without data.")
        var timeout: Double = 30

        func validate() throws {
            guard maxErrors >= 0 else { throw ValidationError("--max-errors must be 0 or more.") }
            if maxDeletes != .default, !deleteMissing {
                throw ValidationError("--max-deletes limits --delete-missing; add --delete-missing, or leave --max-deletes out.")
            }
            if deleteMissing, mode != .upsert {
                throw ValidationError("--delete-missing needs --mode upsert: a replacing import already makes the catalog equal to the file.")
            }
            guard (2...4096).contains(sortMemory) else { throw ValidationError("--sort-memory must be between 2 and 4096 (MiB).") }
            guard timeout > 0 && timeout <= 86_400 else { throw ValidationError("--timeout must be more than 0 and at most 86400 (seconds).") }
        }

        func run() async throws {
            var options = ImportOptions(databasePath: database.db, reading: try reading.feedReading())
            options.onDuplicate = onDuplicate
            options.rejectsPath = rejects
            options.maxErrors = maxErrors
            options.mode = mode
            options.sortMemory = sortMemory << 20
            options.allowEmpty = allowEmpty
            options.deleteMissing = deleteMissing
            options.maxDeletes = maxDeletes

            FIFONotice.announce(file)
            let input = InputSource(argument: file, httpOptions: HTTPByteSource.Options(timeout: .milliseconds(Int64((timeout * 1000).rounded()))))
            let catalog = try database.catalog()
            let importer = CatalogImporter(options: options)
            let job = importer.start(input: input, into: { [options] in catalog.makeSink(for: options) })
            var display = ProgressDisplay(json: json)
            for await snapshot in job.progress where snapshot.phase != .finished && !quiet {
                display.show(snapshot)
            }
            if !quiet { display.finish() }
            do {
                let summary = try await job.summary
                report(summary)
            } catch {
                if json { Terminal.standardOutput.writeExactly(ImportEvent.failed(commandMessage(for: error) ?? String(describing: error)).jsonValue.serialized + "\n") }
                throw error
            }
        }

        private func report(_ summary: ImportSummary) {
            if json {
                Terminal.standardOutput.writeExactly(ImportEvent.finished(summary).jsonValue.serialized + "\n")
                return
            }
            let rate = summary.elapsed.seconds > 0 ? Int(Double(summary.rowsRead) / summary.elapsed.seconds) : 0
            var text = "Imported \(Formatting.count(summary.rowsInserted)) products into \(summary.databasePath) "
                + "in \(Formatting.seconds(summary.elapsed)) (\(Formatting.count(rate)) rows/s).\n"
            if mode == .upsert {
                text += "Added: \(Formatting.count(summary.rowsInserted - summary.rowsUpdated)), updated: \(Formatting.count(summary.rowsUpdated))"
                    + (deleteMissing ? ", deleted (not in the file): \(Formatting.count(summary.rowsDeleted))" : "")
                    + "; the catalog now holds \(Formatting.count(summary.productsInCatalog)) products.\n"
            }
            text += "Read as: \(summary.format.displayName)\(summary.format == .generic ? "" : " (--format \(summary.format.rawValue))").\n"
            text += "Rows read: \(Formatting.count(summary.rowsRead)), rejected: \(Formatting.count(summary.rowsRejected)), "
                + "duplicates collapsed: \(Formatting.count(summary.duplicates))"
            if summary.rowsFolded > 0 { text += ", folded into their product: \(Formatting.count(summary.rowsFolded))" }
            text += ".\n"
            if summary.rowsPadded > 0 {
                text += "\(Formatting.count(summary.rowsPadded)) rows lacked trailing fields and were read with them empty.\n"
            }
            if summary.editsReplaced > 0 {
                text += "\(Formatting.count(summary.editsReplaced)) \(summary.editsReplaced == 1 ? "product" : "products") added, edited or deleted in catalog serve since the previous import \(summary.editsReplaced == 1 ? "was" : "were") replaced by the file's version.\n"
            }
            if let rejectsPath = summary.rejectsPath {
                text += "Rejected rows, with line numbers and reasons: \(rejectsPath)\n"
            }
            Terminal.standardOutput.write(text)
        }
    }
}

extension DuplicatePolicy: ExpressibleByArgument {}
extension DeleteLimit: ExpressibleByArgument {
    public init?(argument: String) { self.init(argument) }
    public var defaultValueDescription: String { argument }
}
extension FeedFormat: ExpressibleByArgument {}
extension ImportMode: ExpressibleByArgument {}
extension SearchSort: ExpressibleByArgument {
    /// The sorts `--sort` takes, each with its label, from ``SearchSort``.
    static var help: String {
        let named = allCases.map { "\($0.rawValue) (\($0.label))" }
        return named.dropLast().joined(separator: ", ") + " or " + named.last! + "."
    }
}
extension TextEncoding: ExpressibleByArgument {}
