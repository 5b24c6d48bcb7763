import Foundation
import InProcessTiming
import ProductCatalog

// Times what the store filters and stock ask of a catalog with stock by store, in-process, as
// `catalog serve` asks it: the first page of 20 with its count for one store, for two, in stock
// anywhere, a store with a word, the next page, the facet counts with stores, and one product's stock.
//
//   swift run -c release StoreFilters CATALOG [--runs 21]
//
// The stores are the catalog's own: the one with the most products in stock, the one with the
// fewest, and the word the catalog's most common term.

let arguments = TimingArguments(CommandLine.arguments, usage: "StoreFilters CATALOG [--runs N]")
let options = (catalog: arguments.catalog, runs: arguments.int("runs", default: 21))
let search = try ProductSearch(databasePath: options.catalog)

@MainActor func time(_ label: String, _ body: () throws -> Void) throws {
    say("  \(label.padding(toLength: 44, withPad: " ", startingAt: 0)) \(Percentiles(try timings(runs: options.runs, body)).line)")
}

let whole = try search.facets(query: "", top: 1_000)
guard let stores = whole.stores, let most = stores.values.first, let fewest = stores.values.last else {
    FileHandle.standardError.write(Data("\(options.catalog) has no stock by store: run catalog import-stock first\n".utf8))
    exit(2)
}
let products = try search.countMatches(query: "", filters: SearchFilters()).count
let word = whole[.productType]?.values.first?.value ?? "shirt"
say("\(products) products, \(stores.values.count) stores (\(most.value): \(most.count) in stock; \(fewest.value): \(fewest.count)); \(options.runs) runs each")

func filters(_ stores: [String] = [], inStock: Bool = false) -> SearchFilters {
    var filters = SearchFilters()
    filters.stores = stores
    filters.inStock = inStock
    return filters
}

say("\n## First page of 20 and its count, as /api/products answers")
for (label, query, chosen) in [
    ("store with the most products", "", filters([most.value])),
    ("store with the fewest products", "", filters([fewest.value])),
    ("two stores", "", filters([most.value, fewest.value])),
    ("in stock anywhere", "", filters(inStock: true)),
    ("\"\(word.lowercased())\" at the store with the most", word.lowercased(), filters([most.value])),
] {
    try time(label) {
        _ = try search.page(query: query, filters: chosen)
        // As the API counts (SQLiteReader): a query with words, and stock anywhere or at several
        // stores, up to 10,001; one store from its kept count; everything else exactly.
        let capped = ProductSearch.hasWords(query) || chosen.inStock || chosen.stores.count > 1
        _ = try search.countMatches(query: query, filters: chosen, upTo: capped ? 10_001 : nil)
    }
    try time(label + ", page alone") { _ = try search.page(query: query, filters: chosen) }
}
let first = try search.page(query: "", filters: filters([most.value]))
if let cursor = first.nextCursor {
    try time("the next page at the store with the most") { _ = try search.page(query: "", filters: filters([most.value]), after: cursor) }
}

say("\n## Facet counts with stores, as /api/facets answers")
try time("whole catalog (kept counts)") { _ = try search.facets(query: "") }
try time("at the store with the most (first 10,000)") { _ = try search.facets(query: "", filters: filters([most.value])) }

say("\n## One product's stock, as its detail asks")
let productIds = first.products.map(\.productId)
try time("a page's 20 products, by productId") { _ = try search.stock(of: productIds) }
