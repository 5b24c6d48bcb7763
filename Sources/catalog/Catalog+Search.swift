import ArgumentParser
import Foundation
import ProductCatalog

extension Catalog {
    struct Search: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Find products whose productId starts with a prefix.",
            discussion: """
                Matching ignores ASCII case (ab finds AB12); results come in productId order, a \
                page at a time. Each page ends with the command for the next one: pass its \
                --after cursor back unchanged. An empty prefix ("") lists every product. Spaces \
                around the prefix are ignored. A prefix that starts with - goes after --, as in \
                catalog search -- -F1.
                """)

        @Argument(help: "The start of the productIds to find.")
        var prefix = ""

        @OptionGroup var database: DatabaseOptions

        @Option(help: "Products per page (1 to 1000).")
        var limit = ProductSearch.defaultPageSize

        @Option(help: "Continue after this cursor, printed at the end of the previous page.")
        var after: String?

        @Flag(help: "Print the page as JSON.")
        var json = false

        func validate() throws {
            guard (1...1000).contains(limit) else { throw ValidationError("--limit must be between 1 and 1000.") }
            if let after, KeysetCursor(after) == nil {
                throw ValidationError("--after \(after) is not a cursor printed by catalog search; copy it unchanged.")
            }
        }

        func run() async throws {
            let prefix = ProductRules.trimmed(self.prefix)
            let search = try ProductSearch(databasePath: database.db)
            let page = try search.page(prefix: prefix, after: after.flatMap(KeysetCursor.init), limit: limit)
            if json {
                Terminal.standardOutput.write(page.jsonValue.serialized + "\n")
            } else {
                Terminal.standardOutput.write(ProductTable(products: page.products).render())
                if let next = page.nextCursor {
                    var command = "catalog search \(ShellQuoting.quote(prefix))"
                    if database.db != "catalog.sqlite" { command += " --db \(ShellQuoting.quote(database.db))" }
                    if limit != ProductSearch.defaultPageSize { command += " --limit \(limit)" }
                    command += " --after \(next)"
                    Terminal.standardOutput.write("\nNext page: \(command)\n")
                } else {
                    Terminal.standardOutput.write(page.products.isEmpty ? "No products start with \(ShellQuoting.quote(prefix)).\n" : "\n(end of results)\n")
                }
            }
        }
    }
}

/// Quoting for a word pasted into a POSIX shell.
enum ShellQuoting {
    static func quote(_ word: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:@%+=,")
        if !word.isEmpty, word.allSatisfy(safe.contains) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
