import ArgumentParser
import Foundation
import ProductCatalog

extension Catalog {
    struct Search: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Find products by the start of their productId or by words of their title, with filters and counts.",
            discussion: """
                catalog search QUERY lists first the products whose productId starts with QUERY \
                (ASCII case ignored: ab finds AB12), in productId order; then those whose title, \
                brand or type hold QUERY's words (case and accents ignored: lin shi finds Linen \
                Shirt, cafe finds Café; the last word may be unfinished), best first: the title \
                exactly QUERY; every word in the title; every word starting a word of the title; \
                every word starting a word of the title, brand or type; within each, shorter \
                titles first. Then, unless --exact, the products matched with typos (a word of 5 \
                or more letters, without digits, one letter off, two from 9 letters: shrit finds \
                shirt), fewest first. No product is listed twice, and the variants of a product \
                (rows sharing a groupId: Shopify's handle, Google's item_group_id) are one \
                result, the first of them found, with their count and options; --variants lists \
                each. --prefix P lists only the \
                productIds starting with P. --sort price, -price, title or newest lists the same \
                products in that order instead. On a terminal, the words that matched are bold.

                Filters narrow either: --type, --color, --size and --brand (each repeatable, any \
                of its values), --min-price and --max-price (what the product sells for, or with \
                --list-price its list price) and --on-sale. --facets adds how many matches have \
                each type, color and size: the 10 most common and the rest. Those of the whole \
                catalog are exact; with a query or a filter they count every match up to \
                10,000, then say there are more.

                Results come a page at a time. Each page ends with the command for the next one: \
                pass its --after cursor back unchanged. An empty query ("") lists every product. \
                A query that starts with - goes after --, as in catalog search -- -F1.

                Examples:
                  catalog search "linen shirt"
                  catalog search shirt --color navy --color black --max-price 50
                  catalog search "" --type Blazer --on-sale --facets
                  catalog search shrit --sort price
                """)

        @Argument(help: "The start of a productId, or words of a title, brand or type.")
        var query = ""

        @Option(help: "Only the products whose productId starts with this, and no word matches.")
        var prefix: String?

        @OptionGroup(title: "Filters") var filter: FilterOptions

        @Flag(help: "After the page, count the matches' types, colors and sizes.")
        var facets = false

        @Flag(help: "Match words as typed: no typo tolerance.")
        var exact = false

        @Flag(help: "List every variant on its own. By default the variants of a product (sharing a groupId) are one result: the first of them the search finds, with how many there are and their options.")
        var variants = false

        @Option(help: ArgumentHelp(SearchSort.help))
        var sort: SearchSort = .relevance

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
            if prefix != nil, !query.isEmpty {
                throw ValidationError("Give either a query or --prefix, not both.")
            }
        }

        func run() async throws {
            let text = ProductRules.trimmed(prefix ?? query)
            let cursor = after.flatMap(KeysetCursor.init)
            let filters = filter.filters
            let (page, counts, stock) = try await database.withCatalog { catalog in
                // A smart collection searches as it was saved.
                let search = try await catalog.resolvingCollection(SavedSearch(text: text, byPrefix: prefix != nil, filters: filters, sort: sort))
                let request = SearchRequest(search, typos: !exact, listing: variants ? .variants : .families)
                let page = try await catalog.products(request, after: cursor, limit: limit)
                let counts = facets ? try await catalog.facets(request) : nil
                let stock = json ? try await catalog.stockKeeping?.stock(of: page.products.map(\.productId)) ?? [:] : [:]
                if prefix == nil, !text.isEmpty, try await !catalog.indexesWords() {
                    Terminal.standardError.write("Note: this catalog was made by an earlier version, so only productIds starting with \(ShellQuoting.quote(text)) were searched. Import the file again, or add or edit a product, to index its words.\n")
                }
                return (page, counts, stock)
            }
            let truncated = prefix == nil && WordQuery(text).isTruncated
            if json {
                var value = page.jsonValue
                if case .object(var members) = value {
                    if let counts { members.append(.init("facets", counts.jsonValue)) }
                    if !stock.isEmpty { members.append(.init("stock", StoreQuantity.jsonValue(stock))) }
                    if truncated { members.append(.init("queryTruncated", .bool(true))) }
                    value = .object(members)
                }
                Terminal.standardOutput.writeExactly(value.serialized + "\n")
            } else {
                if truncated {
                    Terminal.standardError.write("Note: the query has more than \(WordQuery.maxWords) words; only the first \(WordQuery.maxWords) were searched for.\n")
                }
                // The table's cells are already made visible; its only control codes are its own bold ones.
                Terminal.standardOutput.writeExactly(ProductTable(products: page.products, highlights: Terminal.standardOutput.isInteractive ? page.highlights : nil,
                                                                  families: page.family(of:)).render())
                if let next = page.nextCursor {
                    var command = "catalog search " + (prefix != nil ? "--prefix " : "") + ShellQuoting.quote(text)
                    command += filter.arguments.map { " " + $0 }.joined()
                    if facets { command += " --facets" }
                    if exact { command += " --exact" }
                    if variants { command += " --variants" }
                    if sort != .relevance { command += " --sort \(sort.rawValue)" }
                    if database.db != "catalog.sqlite" { command += " --db \(ShellQuoting.quote(database.db))" }
                    if limit != ProductSearch.defaultPageSize { command += " --limit \(limit)" }
                    command += " --after \(next)"
                    Terminal.standardOutput.write("\nNext page: \(command)\n")
                } else if page.products.isEmpty {
                    let what = prefix != nil ? "start with" : "match"
                    let filtered = filters.isEmpty ? "" : " and pass the filters"
                    Terminal.standardOutput.write("No products \(what) \(ShellQuoting.quote(text))\(filtered).\n")
                } else {
                    Terminal.standardOutput.write("\n(end of results)\n")
                }
                if let counts { Terminal.standardOutput.write("\n" + FacetSummary(counts: counts).render()) }
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
