import Foundation
import ProductCatalog
@testable import ProductCatalogPostgres
import Testing

/// An export on PostgreSQL reads one state of the catalog: an import's swap waits for it, and none
/// of the new catalog is mixed in.
@Suite(PostgresTestServer.required) struct PostgresSnapshotTests {
    @Test func anExportAcrossAReplacingImportHoldsTheOldCatalogOnly() async throws {
        let folder = try TemporaryFolder()
        let old = try folder.write("old.csv", "productId,title,listPrice\n" + (0..<120).map { "P-\($0),Old,\(($0 * 7) % 101).00\n" }.joined())
        let new = try folder.write("new.csv", "productId,title,listPrice\n" + (60..<180).map { "P-\($0),New,\(($0 * 13) % 101).00\n" }.joined())
        try await PostgresTestServer.withCatalog { location in
            _ = try await importCSV(old, into: location)
            let catalog = PostgresCatalog(location: location, imagesFolder: folder.path + "/images")
            let search = SavedSearch(text: "", byPrefix: false, filters: SearchFilters(), sort: .price)
            var expected: [String] = []
            let first = try await catalog.snapshot()
            try await first.forEachBatch(of: search, typos: true, batchSize: 500) { expected += $0.map(\.productId) }
            await first.close()

            let snapshot = try await catalog.snapshot()
            var seen: [String] = []
            var importing: Task<ImportSummary, any Error>?
            try await snapshot.forEachBatch(of: search, typos: true, batchSize: 10) { products in
                seen += products.map(\.productId)
                guard importing == nil else { return }
                importing = Task { try await importCSV(new, into: location) }
                // Go on once the import waits for the snapshot's lock to swap its table in.
                let deadline = ContinuousClock.now + .seconds(50)
                while try await PostgresTestServer.integer(
                    "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'ALTER TABLE%'", at: location) == 0 {
                    guard ContinuousClock.now < deadline else { Issue.record("the import never reached its swap"); return }
                    try await Task.sleep(for: .milliseconds(20))
                }
            }
            await snapshot.close()
            #expect(seen == expected && seen.count == 120)
            #expect(try await importing?.value.productsInCatalog == 120)
            let after = try await catalog.products(SearchRequest(""), after: nil, limit: 500)
            #expect(after.products.first?.productId == "P-100" && after.products.allSatisfy { $0.title == "New" })
            await catalog.close()
        }
    }
}
