import Benchmark
import BenchmarkSupport
import Foundation
import ProductCatalog

/// Products in the catalog searched: 1,000,000, or `SEARCH_ROWS` (such as 10000000).
let catalogRows = ProcessInfo.processInfo.environment["SEARCH_ROWS"].flatMap(Int.init) ?? 1_000_000
/// The catalog's size in benchmark names: `1M`, `10M`.
let rowsLabel = catalogRows % 1_000_000 == 0 ? "\(catalogRows / 1_000_000)M" : "\(catalogRows)"
/// A common word: "shirt" is in about 5.6% of generated titles (55,560 of a million).
let commonWord = "shirt"
/// The page of `commonWord` measured deep in its matches.
let deepWordPage = 1_000
/// The two-character prefix searched: about 190,000 generated productIds start with AB, ABC or ABX.
let searchPrefix = "ab"

/// Opened once per process by the setup hook: the catalog (built once and cached, see
/// ``BenchmarkFiles/cachedCatalog(rows:seed:)``), one ProductSearch, whose prepared statements
/// are reused from page to page, and the productId at 90% of the catalog's order.
nonisolated(unsafe) var search: ProductSearch!
nonisolated(unsafe) var connection: Connection!
nonisolated(unsafe) var deepCursor: KeysetCursor!
nonisolated(unsafe) var deepOffset = 0
nonisolated(unsafe) var offsetPage: Statement!
nonisolated(unsafe) var deepWordCursor: KeysetCursor!
nonisolated(unsafe) var offsetWordPage: Statement!

let benchmarks: @Sendable () -> Void = {
    let quick = Benchmark.Configuration(
        metrics: CatalogMetrics.metrics(),
        warmupIterations: 10,
        maxDuration: .seconds(3),
        maxIterations: 100_000,
        thresholds: CatalogMetrics.thresholds(mallocs: CatalogMetrics.relative(5))
    )

    Benchmark.setup = {
        let path = try BenchmarkFiles.cachedCatalog(rows: catalogRows)
        search = try ProductSearch(databasePath: path)
        connection = try Connection(path: path, mode: .readOnly)
        deepOffset = catalogRows / 10 * 9
        guard let id = try connection.scalarText(
            "SELECT productId FROM products ORDER BY productId LIMIT 1 OFFSET \(deepOffset)")
        else { throw BenchmarkSetupError("the catalog has fewer than \(deepOffset + 1) products") }
        deepCursor = KeysetCursor(after: id)
        offsetPage = try connection.prepare("SELECT * FROM products ORDER BY productId LIMIT 20 OFFSET \(deepOffset)")

        // The cursor after page 999 of the common word, found by paging there.
        var cursor: KeysetCursor?
        for _ in 1..<deepWordPage {
            let page = try search.page(query: commonWord, after: cursor, limit: 20)
            guard let next = page.nextCursor else { throw BenchmarkSetupError("\(commonWord) has fewer than \(deepWordPage) pages") }
            cursor = next
        }
        deepWordCursor = cursor
        offsetWordPage = try connection.prepare("""
            SELECT p.* FROM words JOIN word_products w ON w.wordRow = words.rowid JOIN products p ON p.productId = w.productId
            WHERE words MATCH '"\(commonWord)"*' ORDER BY words.rowid LIMIT 20 OFFSET \((deepWordPage - 1) * 20)
            """)
    }

    // The first page of 20 for a two-character prefix: one range scan of the primary key.
    Benchmark("page(prefix: \"ab\") first page of 20", configuration: quick) { benchmark in
        let page = try search.page(prefix: searchPrefix, limit: 20)
        guard page.products.count == 20 else { throw BenchmarkSetupError("got \(page.products.count) products") }
        blackHole(page)
    }

    // The page after a cursor 90% of the way through the whole catalog (empty prefix): keyset
    // pagination seeks to the cursor, so this should cost what the first page costs.
    Benchmark("page(prefix: \"\") after cursor at 90%", configuration: quick) { benchmark in
        let page = try search.page(prefix: "", after: deepCursor, limit: 20)
        guard page.products.count == 20 else { throw BenchmarkSetupError("got \(page.products.count) products") }
        blackHole(page)
    }

    // Word search, issue 14's targets: a page under 5 ms, facets under 50 ms at the median.
    Benchmark("page(query: \"\(commonWord)\") first page of 20, \(rowsLabel)", configuration: quick) { benchmark in
        let page = try search.page(query: commonWord, limit: 20)
        guard page.products.count == 20 else { throw BenchmarkSetupError("got \(page.products.count) products") }
        blackHole(page)
    }

    // Page 1,000 of the common word: one seek in the word index after the cursor.
    Benchmark("page(query: \"\(commonWord)\") page \(deepWordPage), \(rowsLabel)", configuration: quick) { benchmark in
        let page = try search.page(query: commonWord, after: deepWordCursor, limit: 20)
        guard page.products.count == 20 else { throw BenchmarkSetupError("got \(page.products.count) products") }
        blackHole(page)
    }

    // A one-letter query: productIds starting with s, then every word starting with s.
    Benchmark("page(query: \"s\") first page of 20, \(rowsLabel)", configuration: quick) { benchmark in
        let page = try search.page(query: "s", limit: 20)
        guard page.products.count == 20 else { throw BenchmarkSetupError("got \(page.products.count) products") }
        blackHole(page)
    }

    // A word and a filter that about one product in twenty passes.
    Benchmark("page(query: \"\(commonWord)\", color: Navy) first page of 20, \(rowsLabel)", configuration: quick) { benchmark in
        var filters = SearchFilters()
        filters.colors = ["Navy"]
        let page = try search.page(query: commonWord, filters: filters, limit: 20)
        guard page.products.count == 20 else { throw BenchmarkSetupError("got \(page.products.count) products") }
        blackHole(page)
    }

    for query in ["", "s", commonWord] {
        Benchmark("facets(query: \"\(query)\"), \(rowsLabel)", configuration: quick) { benchmark in
            let counts = try search.facets(query: query)
            guard counts.counted == ProductSearch.facetCap else { throw BenchmarkSetupError("counted \(counts.counted)") }
            blackHole(counts)
        }
    }

    // Only for contrast: page 1,000 of the common word by OFFSET, which reads the 19,980 before it.
    offsetContrast("word page \(deepWordPage) by OFFSET (contrast, not used by ProductSearch), \(rowsLabel)") { offsetWordPage }

    // Only for contrast: the same page as the cursor at 90% by OFFSET, which steps over 90% of
    // the rows to reach it. ProductSearch never does this.
    offsetContrast("OFFSET 90% (contrast, not used by ProductSearch)") { offsetPage }
}

/// A benchmark that steps through the 20 rows of a page read by OFFSET.
func offsetContrast(_ name: String, _ page: @escaping @Sendable () -> Statement) {
    Benchmark(
        name,
        configuration: .init(
            metrics: CatalogMetrics.metrics(),
            warmupIterations: 2,
            maxDuration: .seconds(5),
            maxIterations: 200,
            thresholds: CatalogMetrics.thresholds(mallocs: CatalogMetrics.relative(5))
        )
    ) { benchmark in
        let statement = page()
        let rows = try statement.using {
            var rows = 0
            while try statement.step() {
                rows += 1
                blackHole(statement.text(at: 0))
            }
            return rows
        }
        guard rows == 20 else { throw BenchmarkSetupError("got \(rows) rows") }
    }
}
