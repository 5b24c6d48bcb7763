import ArgumentParser
import ProductCatalog
import ProductCatalogHTTP

extension Catalog {
    struct ImportStock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import-stock",
            abstract: "Import each product's quantity at each store from a local inventory file.",
            discussion: """
                The format is recognised from the header: Google Merchant Center's local inventory \
                feed (store_code, id, quantity), Shopify's inventory export (Handle, the option \
                values, Location, Available: a variant is found by the productId a Shopify product \
                import gives it, such as classic-tee/Red/M), or a plain productId,store,quantity \
                file (also accepted: sku, store_code or location, qty or available).

                Rows naming a product the catalog does not hold, no store, or a quantity that is \
                not a whole number, and rows that are not UTF-8 text (or hold a NUL byte), go to a \
                rejects file with their line and reason. A file with no rows, or whose rows are \
                all rejected, leaves the stock as it was unless --allow-empty says to empty it. A negative \
                quantity (oversold) counts as 0. When a product and store appear twice, the later \
                row wins.

                The stock is written in one transaction: searches see the old stock until it \
                commits, and an interrupted import leaves it as it was. Find products by store \
                with `catalog search --store NAME` or `--in-stock`; a product whose own quantity \
                is empty counts the sum over its stores. Catalog files and PostgreSQL catalogs \
                keep stock by store alike.
                """)

        @Argument(help: "The stock file to import: a path, - for standard input, or an http:// or https:// URL; gzip is decompressed.")
        var file: String

        @Option(help: "The catalog file, made by `catalog import`.")
        var db = "catalog.sqlite"

        @Option(help: "replace: the file's stock becomes the catalog's. upsert: change only the product and store pairs the file names.")
        var mode: ImportMode = .replace

        @Option(help: "The file's text encoding: utf8, latin1 or windows-1252.")
        var encoding: TextEncoding = .utf8

        @Option(help: "Where to write rejected rows (default: <db>.stock-rejects.csv; for PostgreSQL, <database>.stock-rejects.csv in this folder).")
        var rejects: String?

        @Option(help: "Stop, leaving the stock unchanged, after this many rejected rows.")
        var maxErrors = 1_000

        @Flag(help: "With --mode replace: empty the stock even when the file has no rows, or all of them were rejected.")
        var allowEmpty = false

        @Flag(help: "Print progress and the result as JSON lines on standard output.")
        var json = false

        @Flag(help: "Print no progress, only the summary (or the error).")
        var quiet = false

        @Option(help: "For a URL: give up after this many seconds without data.")
        var timeout: Double = 30

        func validate() throws {
            guard maxErrors >= 0 else { throw ValidationError("--max-errors must be 0 or more.") }
            guard timeout > 0 && timeout <= 86_400 else { throw ValidationError("--timeout must be more than 0 and at most 86400 (seconds).") }
        }

        func run() async throws {
            // Stock goes into catalogs whose engine keeps it; the others say so.
            var importer = try DatabaseOptions.engine(for: db).keptStock().stockImporter(mode: mode)
            importer.reading.encoding = encoding
            importer.rejectsPath = rejects
            importer.maxErrors = maxErrors
            importer.allowEmpty = allowEmpty
            FIFONotice.announce(file)
            let input = InputSource(argument: file, httpOptions: HTTPByteSource.Options(timeout: .milliseconds(Int64((timeout * 1000).rounded()))))
            let display = DisplayBox(ProgressDisplay(json: json), quiet: quiet)
            let summary: StockImportSummary
            do {
                summary = try await Task.detached { [importer] in
                    try importer.run(source: try input.open()) { display.show($0) }
                }.value
                display.finish()
            } catch {
                display.finish()
                if json { Terminal.standardOutput.writeExactly(ImportEvent.failed(commandMessage(for: error) ?? String(describing: error)).jsonValue.serialized + "\n") }
                throw error
            }
            report(summary)
        }

        private func report(_ summary: StockImportSummary) {
            if json {
                Terminal.standardOutput.writeExactly(summary.jsonValue.serialized + "\n")
                return
            }
            var text = "Imported the stock of \(summary.databasePath) from \(file) in \(Formatting.seconds(summary.elapsed)), read as: \(summary.format.displayName).\n"
            text += "Rows read: \(Formatting.count(summary.rowsRead)), written: \(Formatting.count(summary.rowsWritten)), "
                + "rejected: \(Formatting.count(summary.rowsRejected))"
            if summary.unknownProducts > 0 { text += " (\(Formatting.count(summary.unknownProducts)) naming a product the catalog does not hold)" }
            text += ", duplicates collapsed: \(Formatting.count(summary.duplicates)).\n"
            text += "The catalog now holds \(Formatting.count(summary.stockRows)) product–store quantities; \(Formatting.count(summary.stores)) "
                + "\(summary.stores == 1 ? "store has" : "stores have") products in stock.\n"
            if let rejectsPath = summary.rejectsPath {
                text += "Rejected rows, with line numbers and reasons: \(rejectsPath)\n"
            }
            Terminal.standardOutput.write(text)
        }
    }
}

/// The progress display, shared with the import's thread.
private final class DisplayBox: @unchecked Sendable {
    private var display: ProgressDisplay
    private let quiet: Bool

    init(_ display: ProgressDisplay, quiet: Bool) {
        self.display = display
        self.quiet = quiet
    }

    func show(_ progress: ImportProgress) {
        if !quiet && progress.phase != .finished { display.show(progress) }
    }

    func finish() {
        if !quiet { display.finish() }
    }
}
