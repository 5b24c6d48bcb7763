import Benchmark
import BenchmarkSupport
import ProductCatalog

/// Products in the catalog searched.
let catalogRows = 1_000_000
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

    // Only for contrast: the same page by OFFSET, which steps over 900,000 rows to reach it.
    // ProductSearch never does this.
    Benchmark(
        "OFFSET 90% (contrast, not used by ProductSearch)",
        configuration: .init(
            metrics: CatalogMetrics.metrics(),
            warmupIterations: 2,
            maxDuration: .seconds(5),
            maxIterations: 100,
            thresholds: CatalogMetrics.thresholds(mallocs: CatalogMetrics.relative(5))
        )
    ) { benchmark in
        let rows = try offsetPage.using {
            var rows = 0
            while try offsetPage.step() {
                rows += 1
                blackHole(offsetPage.text(at: 0))
            }
            return rows
        }
        guard rows == 20 else { throw BenchmarkSetupError("got \(rows) rows") }
    }
}
