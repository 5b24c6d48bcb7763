import ArgumentParser
import Foundation
import ProductCatalog
import ProductCatalogHTTP
import SystemPackage

extension Catalog {
    struct Collections: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List, make, fill, delete, import and export collections of products.",
            discussion: """
                A manual collection holds the products put in it: by productId (collections add), \
                or from a file of collection,productId rows (collections import). A smart \
                collection keeps a search (a query, filters and a sort) and lists what it finds \
                when browsed, so it follows the catalog's changes. Both stay with their products \
                through imports, edits and renames; a deleted product leaves its collections.

                Browse or export one with --collection on catalog search and catalog export.

                Examples:
                  catalog collections create Summer
                  catalog collections add Summer AB-1 AB-2
                  catalog collections create "Cheap linen" linen --max-price 20 --sort price
                  catalog search --collection Summer
                  catalog collections import collections.csv
                  catalog collections from-column Tags
                  catalog collections export --output collections.csv
                  catalog export --collection "Cheap linen" --output cheap-linen.csv
                """,
            subcommands: [List.self, Create.self, Add.self, Remove.self, Delete.self, Import.self, FromColumn.self, Export.self])
    }
}

extension Catalog.Collections {
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the collections: manual ones with their counts, smart ones with their search.")

        @Flag(help: "Print {\"collections\":[…]} as JSON.")
        var json = false

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let collections = try await database.withCollections { try await $0.collections() }
            if json {
                Terminal.standardOutput.writeExactly(JSONValue.object(["collections": .array(collections.map(\.jsonValue))]).serialized + "\n")
                return
            }
            guard !collections.isEmpty else {
                Terminal.standardOutput.write("No collections yet; make one with `catalog collections create NAME`.\n")
                return
            }
            for collection in collections {
                let detail = collection.products.map { "\(Formatting.count($0)) \($0 == 1 ? "product" : "products")" }
                    ?? "smart: " + (collection.search.map { $0.isEmpty ? "every product" : $0.parameters } ?? "")
                Terminal.standardOutput.write("\(collection.name.visibleOnTerminal): \(detail.visibleOnTerminal)\n")
            }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a collection: manual and empty, or smart with a query, filters or --sort.",
            discussion: "With nothing but a name the collection is manual; add products with `catalog collections add`. With --smart, or any query, filter or --sort, it keeps that search.")

        @Argument(help: "The collection's name.")
        var name: String

        @Argument(help: "For a smart collection: the start of a productId, or words of a title, brand or type.")
        var query = ""

        @Option(help: "For a smart collection: productIds starting with this, and no word matches.")
        var prefix: String?

        @OptionGroup(title: "Filters") var filter: FilterOptions

        @Option(help: ArgumentHelp("For a smart collection: " + SearchSort.help))
        var sort: SearchSort = .relevance

        @Flag(help: "Make a smart collection even with no query, filter or sort (every product).")
        var smart = false

        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            if prefix != nil, !query.isEmpty { throw ValidationError("Give either a query or --prefix, not both.") }
            if filter.collection != nil { throw ValidationError("A smart collection cannot search another collection; leave out --collection.") }
        }

        func run() async throws {
            let search = SavedSearch(text: ProductRules.trimmed(prefix ?? query), byPrefix: prefix != nil, filters: filter.filters, sort: sort)
            let made = try await database.withCollections { try await $0.createCollection(name, search: smart || !search.isEmpty ? search : nil) }
            let kind = made.isManual ? "manual collection; add products with `catalog collections add \(ShellQuoting.quote(made.name)) PRODUCTID…`"
                : "smart collection: " + (made.search!.isEmpty ? "every product" : made.search!.parameters)
            Terminal.standardOutput.write("Made \(made.name.visibleOnTerminal), a \(kind.visibleOnTerminal).\n")
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Put products in a manual collection, by productId.")

        @OptionGroup var members: MembersArguments
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await change(members, removing: false, database)
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take products out of a manual collection (they stay in the catalog).")

        @OptionGroup var members: MembersArguments
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await change(members, removing: true, database)
        }
    }

    /// The collection and the products `add` and `remove` name.
    struct MembersArguments: ParsableArguments {
        @Argument(help: "The collection's name.")
        var name: String

        @Argument(help: "The productIds.")
        var productIds: [String]
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a collection; its products stay in the catalog.")

        @Argument(help: "The collection's name.")
        var name: String

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await database.withCollections { try await $0.deleteCollection(name) }
            Terminal.standardOutput.write("Deleted the collection \(ProductRules.trimmed(name).visibleOnTerminal).\n")
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Put products in manual collections from a file of collection,productId rows.",
            discussion: """
                The header needs a collection column and a productId column (id, sku and offer_id \
                are read as productId too, and a Shopify Handle names the product and all its \
                variants); other columns are ignored. Collections the catalog \
                lacks are made. Rows naming a product the catalog does not hold, or a smart \
                collection, are rejected into the rejects file with their line and reason. \
                --replace empties each collection the file names first. One transaction: a \
                failed or stopped import changes nothing.
                """)

        @Argument(help: "The file to read: a path or - for standard input.")
        var file: String

        @Flag(help: "Make each collection the file names hold exactly the file's products.")
        var replace = false

        @Option(help: "Where to write rejected rows (default: <db>.collection-rejects.csv, or for a PostgreSQL catalog <file>.collection-rejects.csv).")
        var rejects: String?

        @Flag(help: "Print the result as JSON.")
        var json = false

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            FIFONotice.announce(file)
            let input = InputSource(argument: file, httpOptions: HTTPByteSource.Options())
            // Collections go into catalogs whose engine keeps them; the others say so.
            let (mode, rejects) = (replace ? ImportMode.replace : .upsert, rejects)
            let summary = try await database.withCollections { try await $0.importCollections(from: input, mode: mode, rejectsPath: rejects) }
            if json {
                Terminal.standardOutput.writeExactly(summary.jsonValue.serialized + "\n")
                return
            }
            var text = "Read \(Formatting.count(summary.rowsRead)) rows naming \(Formatting.count(summary.collections)) "
                + "\(summary.collections == 1 ? "collection" : "collections") (\(Formatting.count(summary.collectionsCreated)) new): "
                + "\(Formatting.count(summary.added)) \(summary.added == 1 ? "product" : "products") put in, \(Formatting.count(summary.alreadyThere)) already there"
            if summary.removed > 0 { text += ", \(Formatting.count(summary.removed)) taken out first (--replace)" }
            text += ", \(Formatting.count(summary.rowsRejected)) rejected"
            if summary.unknownProducts > 0 { text += " (\(Formatting.count(summary.unknownProducts)) naming a product the catalog does not hold)" }
            text += ".\n"
            for reject in summary.firstRejects.prefix(3) { text += "  line \(reject.line): \(reject.reason)\n".visibleOnTerminal }
            if let rejectsPath = summary.rejectsPath { text += "Rejected rows, with line numbers and reasons: \(rejectsPath)\n" }
            Terminal.standardOutput.write(text)
        }
    }

    struct FromColumn: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "from-column",
            abstract: "Put each product in the manual collections a column of its names, such as a feed's Tags.",
            discussion: """
                For each product, the column's value is split at --separator (a comma: Shopify's \
                and WooCommerce's Tags read "summer, linen") and the product goes into a manual \
                collection of each name, made when the catalog lacks it. The column is a field \
                (productType, brand, color…) or one of the feed's extra columns, ASCII case \
                ignored. Run it again after an import to take in new products; it adds, never removes.
                """)

        @Argument(help: "The column: Tags, productType, brand, or any column the catalog kept.")
        var column: String

        @Option(help: "What separates the names in a value.")
        var separator = ","

        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            guard separator.count == 1 else { throw ValidationError("--separator is one character, such as , or ; or |.") }
        }

        func run() async throws {
            let (column, separator) = (column, Character(separator))
            let made = try await database.withCollections { try await $0.collectionsFromColumn(column, separator: separator) }
            Terminal.standardOutput.write("Put \(Formatting.count(made.added)) \(made.added == 1 ? "product" : "products") into \(Formatting.count(made.collections)) "
                + "\(made.collections == 1 ? "collection" : "collections") (\(Formatting.count(made.created)) new) from the column \(column.visibleOnTerminal).\n")
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write manual collections as collection,productId rows, which collections import reads back.",
            discussion: "For the products themselves, use catalog export --collection NAME.")

        @Argument(help: "The collections to write; every manual one without a name.")
        var names: [String] = []

        @Option(help: "The file to write (replaced if it exists); standard output without it.")
        var output: String?

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            var export = MembersExport()
            var bytes: [UInt8] = []
            try await database.withCollections { catalog in
                var chosen: [ProductCollection] = []
                if names.isEmpty {
                    chosen = try await catalog.collections().filter(\.isManual)
                } else {
                    for name in names {
                        guard let collection = try await catalog.collection(named: name) else { throw CollectionError.notFound(name: ProductRules.trimmed(name)) }
                        guard collection.isManual else { throw CollectionError.smart(name: collection.name) }
                        chosen.append(collection)
                    }
                }
                // A catalog that keeps collections gives snapshots that do.
                guard let snapshot = try await catalog.snapshot() as? any CollectionSnapshot else { throw EngineError.notKept(catalog: catalog.name, what: .collections) }
                do {
                    for collection in chosen {
                        var after: String?
                        while true {
                            let ids = try await snapshot.members(of: collection.name, after: after, limit: 1_000)
                            bytes += export.encode(collection.name, ids)
                            guard ids.count == 1_000 else { break }
                            after = ids.last
                        }
                    }
                    await snapshot.close()
                } catch {
                    await snapshot.close()
                    throw error
                }
            }
            bytes += export.finish()
            try database.check(output: output)
            if let output {
                do {
                    try Data(bytes).write(to: URL(fileURLWithPath: output))
                } catch {
                    throw ValidationError("Cannot write \(output): \(error.localizedDescription). Choose a file in a folder you can write to.")
                }
                Terminal.standardError.write("Exported \(Formatting.count(export.count)) collection members to \(output).\n")
            } else {
                Terminal.standardOutput.writeExactly(String(decoding: bytes, as: UTF8.self))
            }
        }
    }

    /// Puts the products `members` names in its collection or takes them out, and says what happened.
    static func change(_ members: MembersArguments, removing: Bool, _ database: DatabaseOptions) async throws {
        let (name, productIds) = (members.name, members.productIds)
        let change = try await database.withCollections { try await $0.changeCollection(name, adding: productIds, removing: removing) }
        let verb = removing ? "Took \(Formatting.count(change.changed)) out of" : "Put \(Formatting.count(change.changed)) in"
        Terminal.standardOutput.write("\(verb) \(ProductRules.trimmed(name).visibleOnTerminal).\n")
        if !change.unknown.isEmpty {
            Terminal.standardError.write("No product has productId " + change.unknown.prefix(5).map { "\"\($0.visibleOnTerminal)\"" }.joined(separator: ", ")
                + (change.unknown.count > 5 ? " and \(change.unknown.count - 5) more" : "") + "; they were left out.\n")
        }
    }
}
