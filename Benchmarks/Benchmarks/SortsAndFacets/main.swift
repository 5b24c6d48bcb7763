import Foundation
import InProcessTiming
import ProductCatalog

// Times what a sort menu and facet chips ask of a catalog, in-process, as `catalog serve` asks it:
// the first page of 20 with its count (capped at 10,000 for words) in each sort order, page 1,000
// reached by its cursors, and the facet counts of the whole catalog, a common word and a color.
//
//   swift run -c release SortsAndFacets CATALOG [--runs 21] [--words 10]
//
// The words are the catalog's own, from its word index: the `--words` most common terms, as many
// rare ones (2 to 9 products), and as many just past the in-memory sort's limit (5,001 to 20,000
// products: the slowest shape for a sort, which then walks the sort's index). Each query is timed
// `--runs` times; the percentiles are over every run of every word of a kind.

let arguments = TimingArguments(CommandLine.arguments, usage: "SortsAndFacets CATALOG [--runs N] [--words N]")
let options = (catalog: arguments.catalog, runs: arguments.int("runs", default: 21), words: arguments.int("words", default: 10))

let connection = try Connection(path: options.catalog, mode: .readOnly)
let products = Int(try connection.scalarInt("SELECT count(*) FROM products") ?? 0)

/// Terms of letters alone (no digits) whose number of products is in `docs`, most products first.
@MainActor func terms(_ docs: ClosedRange<Int>, limit: Int) throws -> [String] {
    let statement = try connection.prepare("""
        SELECT term FROM word_terms WHERE docs BETWEEN \(docs.lowerBound) AND \(docs.upperBound)
        AND length(term) >= 4 AND term NOT GLOB '*[0-9]*' ORDER BY docs DESC, term LIMIT \(limit)
        """)
    var found: [String] = []
    while try statement.step() { if let term = statement.text(at: 0) { found.append(term) } }
    return found
}

let kinds: [(name: String, queries: [String])] = [
    ("no query", [""]),
    ("common word", try terms(10_001...Int.max, limit: options.words)),
    ("rare word", try terms(2...9, limit: options.words)),
    // ProductSearch sorts up to 5,000 matches in memory; past that it walks the sort's index.
    ("word past the in-memory sort", try terms(5_001...20_000, limit: options.words)),
]

let search = try ProductSearch(databasePath: options.catalog)
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
