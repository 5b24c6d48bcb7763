import Foundation
import InProcessTiming
import ProductCatalog

// Times browsing collections side by side with the searches they stand beside, in-process, as
// `catalog serve` asks them: a manual collection of --members products drawn at random (and one
// of 100), first page of 20 with its count, a page deep in, with a word, sorted by price, and
// their facet counts; a smart collection's saved search; and, as the peers, a word search and the
// whole catalog's first page. Writes the collections into CATALOG (give it a copy).
//
//   swift run -c release CollectionBrowsing CATALOG [--members 100000] [--runs 21]

let arguments = TimingArguments(CommandLine.arguments, usage: "CollectionBrowsing CATALOG [--members N] [--runs N]")
let options = (catalog: arguments.catalog, members: arguments.int("members", default: 100_000), runs: arguments.int("runs", default: 21))
let clock = ContinuousClock()

@MainActor func time(_ label: String, _ body: () throws -> Void) throws {
    say("| \(label) \(Percentiles(try timings(runs: options.runs, body)).cells)")
}

// Every productId, to draw the members from.
var all: [String] = []
do {
    let search = try ProductSearch(databasePath: options.catalog)
    var cursor: KeysetCursor?
    repeat {
        let page = try search.page(prefix: "", after: cursor, limit: 10_000)
        all += page.products.map(\.productId)
        cursor = page.nextCursor
    } while cursor != nil
}
var random = SystemRandomNumberGenerator()
let editor = try CatalogEditor(databasePath: options.catalog)
for name in ["Bench members", "Bench hundred", "Bench smart"] where try ProductSearch(databasePath: options.catalog).collection(named: name) != nil {
    try editor.deleteCollection(name)
}
let filling = try clock.measure {
    try editor.createCollection("Bench members")
    let members = all.shuffled(using: &random).prefix(options.members)
    for start in stride(from: 0, to: members.count, by: 1_000) {
        try editor.changeCollection("Bench members", adding: Array(members.dropFirst(start).prefix(1_000)))
    }
}
try editor.createCollection("Bench hundred")
try editor.changeCollection("Bench hundred", adding: Array(all.shuffled(using: &random).prefix(100)))
let search = try ProductSearch(databasePath: options.catalog)
let words = try search.facets(query: "", top: 1)
let word = (words[.productType]?.values.first?.value ?? "shirt").lowercased()
var smartFilters = SearchFilters()
smartFilters.maxPrice = Price("30")
try editor.createCollection("Bench smart", search: SavedSearch(text: word, filters: smartFilters, sort: .price))
say("\(all.count) products; a collection of \(options.members) filled by `CatalogEditor.changeCollection` 1,000 at a time in \(String(format: "%.2f", milliseconds(filling) / 1000)) s; \(options.runs) runs each; \"\(word)\" is the commonest type")
say("")
say("| what (first page of 20 and its count, as /api/products answers) | p50 (ms) | p99 (ms) | worst (ms) |")
say("|---|---:|---:|---:|")

func inCollection(_ name: String) -> SearchFilters {
    var filters = SearchFilters()
    filters.collection = name
    return filters
}
let members = inCollection("Bench members")
let hundred = inCollection("Bench hundred")

try time("peer: the whole catalog") {
    _ = try search.page(query: "")
    _ = try search.countMatches(query: "", filters: SearchFilters())
}
try time("peer: \"\(word)\"") {
    _ = try search.page(query: word)
    _ = try search.countMatches(query: word, filters: SearchFilters(), upTo: ProductSearch.queryCountCap + 1)
}
try time("collection of \(options.members)") {
    _ = try search.page(query: "", filters: members)
    _ = try search.countMatches(query: "", filters: members)
}
try time("collection of 100") {
    _ = try search.page(query: "", filters: hundred)
    _ = try search.countMatches(query: "", filters: hundred)
}
// Page 1,000 of the big collection: the cursor after its 20,000th member.
var cursor: KeysetCursor?
for _ in 0..<min(1_000, options.members / 20 - 1) { cursor = try search.page(query: "", filters: members, after: cursor, limit: 20).nextCursor }
try time("collection of \(options.members), page 1,000 (page alone)") { _ = try search.page(query: "", filters: members, after: cursor) }
try time("peer: the whole catalog, page 1,000 (page alone)") {
    _ = try search.page(prefix: "", after: KeysetCursor(after: all[min(all.count - 1, 20_000 * all.count / max(options.members, 1))]))
}
try time("\"\(word)\" in the collection of \(options.members)") {
    _ = try search.page(query: word, filters: members)
    _ = try search.countMatches(query: word, filters: members, upTo: ProductSearch.queryCountCap + 1)
}
var navy = SearchFilters()
navy.colors = ["Navy"]
try time("peer: \"\(word)\", color Navy") {
    _ = try search.page(query: word, filters: navy)
    _ = try search.countMatches(query: word, filters: navy, upTo: ProductSearch.queryCountCap + 1)
}
try time("\"\(word)\" in the collection of \(options.members) (page alone)") { _ = try search.page(query: word, filters: members) }
try time("collection of \(options.members) by price") {
    _ = try search.page(query: "", filters: members, sort: .price)
    _ = try search.countMatches(query: "", filters: members)
}
try time("collection of 100 by price") {
    _ = try search.page(query: "", filters: hundred, sort: .price)
    _ = try search.countMatches(query: "", filters: hundred)
}
var navyMembers = members
navyMembers.colors = ["Navy"]
try time("collection of \(options.members), color Navy") {
    _ = try search.page(query: "", filters: navyMembers)
    _ = try search.countMatches(query: "", filters: navyMembers)
}
try time("peer: color Navy") {
    _ = try search.page(query: "", filters: navy)
    _ = try search.countMatches(query: "", filters: navy)
}
try time("smart: \"\(word)\" up to 30.00 by price") {
    _ = try search.page(query: word, filters: smartFilters, sort: .price)
    _ = try search.countMatches(query: word, filters: smartFilters, upTo: ProductSearch.queryCountCap + 1)
}
say("")
say("| facet counts, as /api/facets answers | p50 (ms) | p99 (ms) | worst (ms) |")
say("|---|---:|---:|---:|")
try time("peer: \"\(word)\"") { _ = try search.facets(query: word) }
try time("collection of \(options.members) (first 10,000)") { _ = try search.facets(query: "", filters: members) }
