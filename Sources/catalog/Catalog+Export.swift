import ArgumentParser
import Foundation
import ProductCatalog
import SystemPackage

extension ExportFormat: ExpressibleByArgument {}

extension Catalog {
    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write every product a search finds as CSV or JSON.",
            discussion: """
                catalog export QUERY writes the products catalog search QUERY lists, with the \
                same filters and --sort, all of them rather than a page: an empty query ("") \
                writes the whole catalog, as it was when the export began (an import that \
                finishes meanwhile is not mixed in). The CSV has the columns an import reads (the known \
                fields by name, then the extra columns), prices as exact decimals, so \
                catalog import reads it back into the same products. --format json writes \
                {"products":[…]} as catalog search --json does. The products are read and \
                written 500 at a time, in constant memory. --stock writes the found products' \
                stock by store instead (productId,store,quantity), which catalog import-stock \
                reads back.

                Examples:
                  catalog export "" --output catalog.csv
                  catalog export linen --color navy --format json > linen.json
                  catalog export --prefix AB --output ab.csv
                  catalog export "" --stock --output stock.csv
                  catalog export --collection Summer --output summer.csv
                """)

        @Argument(help: "The start of a productId, or words of a title, brand or type; \"\" for every product.")
        var query = ""

        @Option(help: "Only the products whose productId starts with this, and no word matches.")
        var prefix: String?

        @OptionGroup(title: "Filters") var filter: FilterOptions

        @Flag(help: "Match words as typed: no typo tolerance.")
        var exact = false

        @Option(help: ArgumentHelp(SearchSort.help))
        var sort: SearchSort = .relevance

        @Option(help: "csv (the default) or json.")
        var format: ExportFormat = .csv

        @Option(help: "The file to write (replaced if it exists); standard output without it.")
        var output: String?

        @Flag(help: "Write the stock by store of the products found instead, as productId,store,quantity rows that catalog import-stock reads back.")
        var stock = false

        @Flag(help: "For a file to open in a spreadsheet: a text that starts with =, +, - or @ is written after an apostrophe, so the spreadsheet shows it instead of running it as a formula. catalog import takes the apostrophe off again.")
        var spreadsheetSafe = false

        @OptionGroup var database: DatabaseOptions

        /// Products read and written at a time.
        static let batchSize = 500

        func validate() throws {
            if prefix != nil, !query.isEmpty { throw ValidationError("Give either a query or --prefix, not both.") }
            if stock, format != .csv { throw ValidationError("--stock writes CSV, as catalog import-stock reads it; leave out --format json.") }
            if spreadsheetSafe, format != .csv || stock { throw ValidationError("--spreadsheet-safe is for a CSV of products; leave out --format json and --stock.") }
        }

        func run() async throws {
            let text = ProductRules.trimmed(prefix ?? query)
            try database.check(output: output)
            let destination = try openOutput()
            defer { if output != nil { try? destination.close() } }
            var export = ProductExport(format: format, spreadsheetSafe: spreadsheetSafe)
            var stockExport = StockExport()
            try await database.withCatalog { catalog in
                // A smart collection exports what its saved search finds.
                let search = try await catalog.resolvingCollection(SavedSearch(text: text, byPrefix: prefix != nil, filters: filter.filters, sort: sort))
                // One snapshot for the whole file: an import that swaps in meanwhile does not mix into it.
                // The stock by store is exported from a catalog whose engine keeps it; the others say so.
                if stock { _ = try catalog.keptStock() }
                let snapshot = try await catalog.snapshot()
                do {
                    try await snapshot.forEachBatch(of: search, typos: !exact, batchSize: Self.batchSize) { products in
                        if stock {
                            let kept = try await (snapshot as? any StockSnapshot)?.stock(of: products.map(\.productId)) ?? [:]
                            try write(stockExport.encode(products, stock: kept), to: destination)
                        } else {
                            try write(export.encode(products), to: destination)
                        }
                    }
                    await snapshot.close()
                } catch {
                    await snapshot.close()
                    throw error
                }
            }
            try write(stock ? stockExport.finish() : export.finish(), to: destination)
            if let output {
                let what = stock ? "\(stockExport.count.formatted()) product–store \(stockExport.count == 1 ? "quantity" : "quantities")"
                    : "\(export.count.formatted()) \(export.count == 1 ? "product" : "products")"
                Terminal.standardError.write("Exported \(what) to \(output).\n")
            }
        }

        private func openOutput() throws -> FileDescriptor {
            guard let output else { return FileDescriptor.standardOutput }
            do {
                return try FileDescriptor.open(FilePath(output), .writeOnly, options: [.create, .truncate], permissions: [.ownerReadWrite, .groupRead, .otherRead])
            } catch {
                throw ValidationError("Cannot write \(output): \(error). Choose a file in a folder you can write to.")
            }
        }

        private func write(_ bytes: [UInt8], to destination: FileDescriptor) throws {
            guard !bytes.isEmpty else { return }
            do {
                _ = try bytes.withUnsafeBytes { try destination.writeAll($0) }
            } catch {
                throw ExportStopped(destination: output ?? "standard output", reason: "\(error)")
            }
        }
    }
}

/// Writing an export failed (a full disk, a closed pipe): exit status 1 with what to do.
struct ExportStopped: Error, CustomStringConvertible {
    var destination: String
    var reason: String

    var description: String {
        "The export to \(destination) stopped: \(reason). What was written before is incomplete; free space or fix the destination and run the export again."
    }
}
