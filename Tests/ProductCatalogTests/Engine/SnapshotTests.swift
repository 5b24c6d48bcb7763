import Foundation
import Testing
@testable import ProductCatalog

/// An export reads one state of the catalog: a replacing import that swaps in while it reads is
/// not mixed in, whatever the sort.
@Suite struct SnapshotTests {
    /// `count` products whose prices and titles depend on `generation`, so that the sort orders of two generations differ.
    static func csv(_ count: Int, generation: Int) -> String {
        "productId,title,listPrice\n" + (0..<count).map { index in
            let price = (index * (generation == 0 ? 7 : 13)) % 101
            return String(format: "P-%04d,Item %d gen %d,%d.00\n", index + generation * 50, (index * 31) % 97, generation, price)
        }.joined()
    }

    @Test(arguments: [SearchSort.price, .relevance, .title, .newest])
    func anExportAcrossAReplacingImportHoldsTheOldCatalogOnly(sort: SearchSort) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("catalog.sqlite")
        let catalog = SQLiteCatalog(databasePath: path)
        try CatalogImporter(options: ImportOptions(databasePath: path)).run(source: MemoryByteSource(Self.csv(300, generation: 0)))
        let search = SavedSearch(text: "", byPrefix: false, filters: SearchFilters(), sort: sort)
        var expected: [String] = []
        try await catalog.snapshot().forEachBatch(of: search, typos: true, batchSize: 1_000) { expected += $0.map(\.productId) }
        #expect(expected.count == 300)

        let snapshot = try await catalog.snapshot()
        var seen: [String] = []
        var swapped = false
        try await snapshot.forEachBatch(of: search, typos: true, batchSize: 25) { products in
            seen += products.map(\.productId)
            // After the first batch, a new catalog with half the products renamed and every price changed.
            if !swapped {
                swapped = true
                let summary = try CatalogImporter(options: ImportOptions(databasePath: path)).run(source: MemoryByteSource(Self.csv(300, generation: 1)))
                #expect(summary.productsInCatalog == 300)
                await catalog.catalogReplaced()
            }
        }
        await snapshot.close()
        #expect(seen == expected)
        // The next export reads the new catalog.
        var after: [String] = []
        let next = try await catalog.snapshot()
        try await next.forEachBatch(of: search, typos: true, batchSize: 100) { after += $0.map(\.productId) }
        await next.close()
        #expect(after.count == 300 && after.contains("P-0349") && !after.contains("P-0000"))
    }

    @Test func aSnapshotOfNoCatalogIsEmptyAndAnEditWaitsForNoClosedOne() async throws {
        let directory = try TemporaryDirectory()
        let catalog = SQLiteCatalog(databasePath: directory.file("catalog.sqlite"))
        let empty = try await catalog.snapshot()
        #expect(try await empty.products(SearchRequest(""), after: nil, limit: 5).products.isEmpty)
        await empty.close()
        _ = try await catalog.add(Product(productId: "A-1", title: "Mug"))
        let snapshot = try await catalog.snapshot()
        #expect(try await snapshot.products(SearchRequest(""), after: nil, limit: 5)
            .products.map(\.productId) == ["A-1"])
        await snapshot.close()
        // Closed, it holds no lock: an edit commits at once.
        _ = try await catalog.add(Product(productId: "A-2", title: "Cup"))
        #expect(try await catalog.productCount() == 2)
    }
}
