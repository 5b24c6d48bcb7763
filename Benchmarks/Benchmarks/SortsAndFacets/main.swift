import Foundation
import InProcessTiming
import ProductCatalog

// Times what a sort menu and facet chips ask of a catalog, in-process, as `catalog serve` asks it:
// the first page of 20 with its count (capped at 10,000 for words) in each sort order, page 1,000
// reached by its cursors, and the facet counts of the whole catalog, a common word and a color.
//
//   swift run -c release SortsAndFacets CATALOG [--runs 21] [--words 10]
//
// The words are the catalog's own, from the titles of its first 3,000 products, counted: the
// `--words` most common, as many rare ones (2 to 9 products), and as many just past the in-memory
// sort's limit (5,001 to 20,000 products: the slowest shape for a sort, which then walks the
// sort's list). Then the first page of the most and least common colors with no query. Each query
// is timed `--runs` times; the percentiles are over every run of every word of a kind.

let arguments = TimingArguments(CommandLine.arguments, usage: "SortsAndFacets CATALOG [--runs N] [--words N]")
let options = (catalog: arguments.catalog, runs: arguments.int("runs", default: 21), words: arguments.int("words", default: 10))

let connection = try Connection(path: options.catalog, mode: .readOnly)
let products = Int(try connection.scalarInt("SELECT count(*) FROM products") ?? 0)

let search = try ProductSearch(databasePath: options.catalog)

/// Words of letters alone (four or more) from the titles of the first 3,000 products, with how
/// many products each matches (up to 20,001), most first.
@MainActor func sampledWords() throws -> [(word: String, count: Int)] {
    let statement = try connection.prepare("SELECT title FROM products LIMIT 3000")
    var words = Set<String>()
    while try statement.step(), words.count < 1_500 {
        for word in (statement.text(at: 0) ?? "").lowercased().split(separator: " ")
        where word.count >= 4 && word.allSatisfy(\.isLetter) { words.insert(String(word)) }
    }
    return try words.sorted().map { ($0, try search.countMatches(query: $0, typos: false, upTo: 20_001).count) }
        .sorted { ($0.count, $1.word) > ($1.count, $0.word) }
}
let sampled = try sampledWords()
func terms(_ docs: ClosedRange<Int>, limit: Int) -> [String] {
    Array(sampled.filter { docs.contains($0.count) }.map(\.word).prefix(limit))
}

let kinds: [(name: String, queries: [String])] = [
    ("no query", [""]),
    ("common word", terms(10_001...Int.max, limit: options.words)),
    ("rare word", terms(2...9, limit: options.words)),
    // ProductSearch sorts up to 5,000 matches in memory; past that it walks the sort's lists.
    ("word past the in-memory sort", terms(5_001...20_000, limit: options.words)),
]
let clock = ContinuousClock()

/// p50, p99 and the worst of `timings`, in milliseconds.
func summary(_ timings: [Double]) -> String {
    timings.isEmpty ? "no runs" : Percentiles(timings).line
}

/// The first page in `sort`'s order with its count, as the API answers it.
@MainActor func firstPage(_ query: String, _ sort: SearchSort, filters: SearchFilters = SearchFilters()) throws {
    _ = try search.page(query: query, filters: filters, sort: sort)
    if ProductSearch.hasWords(query) {
        _ = try search.countMatches(query: query, filters: filters, upTo: 10_001)
    } else {
        _ = try search.countMatches(query: query, filters: filters)
    }
}

say("\(products) products in \(options.catalog); \(options.runs) runs of each query")
for (name, queries) in kinds {
    guard !queries.isEmpty else {
        say("\n## \(name): the catalog has no such word")
        continue
    }
    let matches = try queries.map { try search.countMatches(query: $0, upTo: 10_001) }
    let shown = zip(queries, matches).prefix(3).map { "\"\($0)\" \($1.count)\($1.isComplete ? "" : "+")" }
    say("\n## \(name): \(queries.count) queries, e.g. \(shown.joined(separator: ", "))")
    for sort in SearchSort.allCases {
        var timings: [Double] = []
        for query in queries {
            for _ in 0..<options.runs { timings.append(milliseconds(try clock.measure { try firstPage(query, sort) })) }
        }
        say("  first page, \(sort.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(summary(timings))")
    }
    // Page 1,000 (or the last page, for fewer matches), reached through the cursors.
    for sort in [SearchSort.relevance, .price, .newest] {
        var timings: [Double] = []
        var depth = 0
        for query in queries.prefix(1) {
            var cursor: KeysetCursor?
            var pages = 0
            repeat {
                let page = try search.page(query: query, sort: sort, after: cursor)
                pages += 1
                guard let next = page.nextCursor, pages < 999 else { break }
                cursor = next
            } while true
            depth = max(depth, pages + 1)
            for _ in 0..<options.runs {
                timings.append(milliseconds(try clock.measure { _ = try search.page(query: query, sort: sort, after: cursor) }))
            }
        }
        say("  page \(depth) at most, \(sort.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(summary(timings))")
    }
}

// A filter alone: the sort's walk reads and checks products until 20 pass.
let colors = try search.facets(query: "")[.color]?.values ?? []
for color in [colors.first, colors.last].compactMap({ $0 }) {
    var filters = SearchFilters()
    filters.colors = [color.value]
    say("\n## no query, color \(color.value) (\(color.count) products)")
    for sort in SearchSort.allCases {
        var timings: [Double] = []
        for _ in 0..<options.runs { timings.append(milliseconds(try clock.measure { try firstPage("", sort, filters: filters) })) }
        say("  first page, \(sort.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(summary(timings))")
    }
}

say("\n## Facet counts (type, color, size)")
var whole: [Double] = []
for _ in 0..<options.runs { whole.append(milliseconds(try clock.measure { _ = try search.facets(query: "") })) }
let counts = try search.facets(query: "")
say("  whole catalog (exact: \(counts.isComplete))    \(summary(whole))")
if let common = kinds[1].queries.first {
    var timings: [Double] = []
    for _ in 0..<options.runs { timings.append(milliseconds(try clock.measure { _ = try search.facets(query: common) })) }
    let facets = try search.facets(query: common)
    say("  \"\(common)\" (\(facets.counted) counted, complete: \(facets.isComplete))    \(summary(timings))")
}
if let color = counts[.color]?.values.first?.value {
    var filters = SearchFilters()
    filters.colors = [color]
    var timings: [Double] = []
    for _ in 0..<options.runs { timings.append(milliseconds(try clock.measure { _ = try search.facets(query: "", filters: filters) })) }
    let facets = try search.facets(query: "", filters: filters)
    say("  color \(color) (\(facets.counted) counted, complete: \(facets.isComplete))    \(summary(timings))")
}
