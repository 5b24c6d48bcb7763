import ArgumentParser
import ProductCatalog
import ProductCatalogHTTP

extension Catalog {
    struct Inspect: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show what an import of a file would do, without writing anything.",
            discussion: """
                Prints the format recognised from the header, the delimiter and encoding, how \
                each productId is made, where each field comes from, the extra columns kept, the \
                first products as the catalog would store them and the first rows that would be \
                rejected, with their reasons. The options are those of catalog import.
                """)

        @Argument(help: "The file to inspect: a path, - for standard input, or an http:// or https:// URL; gzip is decompressed.")
        var file: String

        @OptionGroup var reading: ReadingOptions

        @Option(help: "How many products (and rejects) to show.")
        var rows = 5

        @Flag(help: "Print the preview as JSON.")
        var json = false

        func validate() throws {
            guard (1...100).contains(rows) else { throw ValidationError("--rows must be between 1 and 100.") }
        }

        func run() async throws {
            let options = try reading.feedReading()
            FIFONotice.announce(file)
            let source = try InputSource(argument: file).open()
            let preview = try ImportPreview(source: source, reading: options, rows: rows)
            if json {
                Terminal.standardOutput.writeExactly(preview.jsonValue.serialized + "\n")
                return
            }
            var text = "\(file): \(preview.format.displayName)"
            text += preview.format == .generic ? "\n" : " (recognised from the header; --format \(preview.format.rawValue))\n"
            text += "Delimiter: \(preview.delimiter)   Encoding: \(preview.encoding.rawValue)\n"
            text += "Key (productId): \(preview.keyRule)\n\nFields:\n"
            let width = preview.fields.map(\.field.rawValue.count).max() ?? 0
            for source in preview.fields {
                text += "  \(source.field.rawValue.padding(toLength: width, withPad: " ", startingAt: 0))  ← \(source.source)\n"
            }
            if !preview.extraColumns.isEmpty {
                let shown = preview.extraColumns.prefix(12).joined(separator: ", ")
                let more = preview.extraColumns.count > 12 ? " and \(preview.extraColumns.count - 12) more" : ""
                text += "\nExtra columns kept (\(preview.extraColumns.count)): \(shown)\(more)\n"
            }
            text += "\nThe first \(preview.products.count) products as they would be stored:\n"
            text += ProductTable(products: preview.products).render()
            if preview.rejects.isEmpty {
                text += "\nNo row of the first \(preview.rowsRead) would be rejected.\n"
            } else {
                text += "\nRows that would be rejected:\n"
                for reject in preview.rejects { text += "  line \(reject.line): \(reject.reason)\n" }
            }
            text += "Nothing was written; run catalog import with the same options to import the file.\n"
            Terminal.standardOutput.write(text)
        }
    }
}
