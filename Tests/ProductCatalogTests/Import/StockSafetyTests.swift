import Foundation
import Testing
@testable import ProductCatalog
import TestSupport

/// A stock file is read as a product file is: the same refusals of a file that keeps nothing, the
/// same limit on rejected rows, the same header, text and read-only rules.
@Suite struct StockSafetyTests {
    static func catalog() throws -> CatalogFixture {
        let fixture = try CatalogFixture()
        try fixture.importCSV("productId,title\nA1,Mug\nA2,Bowl\nA3,Cup\n")
        _ = try StockImportTests.run(fixture.databasePath, "productId,store,quantity\nA1,Berlin,3\nA2,Paris,4\n")
        return fixture
    }

    func failure(_ body: () throws -> Any) -> ImportError? {
        #expect(throws: ImportError.self) { _ = try body() }
    }

    @Test func aFileWhoseRowsAreAllRejectedOrThatHasNoneDoesNotEmptyTheStock() throws {
        let fixture = try Self.catalog()
        let before = try StockImportTests.stock(fixture.databasePath)
        let unknown = failure { try StockImportTests.run(fixture.databasePath, "productId,store,quantity\nNO-SUCH-1,Berlin,3\nNO-SUCH-2,Paris,1\n") }
        guard case .nothingImported(2, 0, _)? = unknown else { Issue.record("\(String(describing: unknown))"); return }
        let headerOnly = failure { try StockImportTests.run(fixture.databasePath, "productId,store,quantity\n") }
        guard case .noStockRows? = headerOnly else { Issue.record("\(String(describing: headerOnly))"); return }
        #expect(try StockImportTests.stock(fixture.databasePath) == before)
        // An upsert of a header-only file changes nothing; allowed empty, a replacement empties the stock.
        #expect(try StockImportTests.run(fixture.databasePath, "productId,store,quantity\n", mode: .upsert).rowsWritten == 0)
        var importer = StockImporter(databasePath: fixture.databasePath)
        importer.allowEmpty = true
        _ = try importer.run(source: MemoryByteSource("productId,store,quantity\nNO-SUCH-1,Berlin,3\n"))
        #expect(try StockImportTests.stock(fixture.databasePath).isEmpty)
    }

    @Test func rejectedRowsStopTheImportAtTheProductImportsDefaultLimit() throws {
        let fixture = try Self.catalog()
        let importer = StockImporter(databasePath: fixture.databasePath)
        #expect(importer.maxErrors == ImportOptions().maxErrors)
        let rows = (0..<1_500).map { "NO-SUCH-\($0),Berlin,1\n" }.joined()
        let stopped = failure { try importer.run(source: MemoryByteSource("productId,store,quantity\nA3,Berlin,1\n" + rows)) }
        guard case .tooManyRejects(1_000, _, _)? = stopped else { Issue.record("\(String(describing: stopped))"); return }
        #expect(try StockImportTests.stock(fixture.databasePath).count == 2)
    }

    @Test func twoColumnsThatCouldBeTheProductAreRefusedUnlessOneIsNamedSo() throws {
        let fixture = try Self.catalog()
        let ambiguous = failure { try StockImportTests.run(fixture.databasePath, "id,sku,store,quantity\nA1,X,Berlin,9\n") }
        guard case .stockHeader(_, .ambiguous("productId", ["id", "sku"]))? = ambiguous else {
            Issue.record("\(String(describing: ambiguous))")
            return
        }
        #expect(ambiguous?.description.contains("\"id\", \"sku\"") == true)
        // Named productId, that column is the product; the others are left alone.
        let summary = try StockImportTests.run(fixture.databasePath, "sku,productId,store,quantity,location\nX,A3,Berlin,9,Y\n")
        #expect(summary.rowsWritten == 1)
        #expect(try StockImportTests.stock(fixture.databasePath) == ["a3\u{0}berlin": 9])
    }

    @Test func storesAndProductsAreTextAsAProductImportReadsIt() throws {
        let fixture = try Self.catalog()
        var file = Array("productId,store,quantity\n".utf8)
        file += Array("A1,S".utf8) + [0] + Array("X,4\n".utf8)           // a NUL inside the store's name
        file += Array("A2,Caf".utf8) + [0xE9] + Array(",5\n".utf8)      // Latin-1 é read as UTF-8
        file += Array("A3,\"Line\nbreak\",6\n".utf8)                     // a control character in the store
        file += Array("A3,Berlin,7\n".utf8)
        var importer = StockImporter(databasePath: fixture.databasePath)
        importer.rejectsPath = fixture.directory.file("stock-rejects.csv")
        let summary = try importer.run(source: MemoryByteSource(file))
        #expect(summary.rowsWritten == 1 && summary.rowsRejected == 3)
        #expect(try StockImportTests.stock(fixture.databasePath) == ["a3\u{0}berlin": 7])
        // The rejects file keeps the rows' own bytes, which are not all UTF-8.
        let records = try readRecords(from: MemoryByteSource(Array(try Data(contentsOf: URL(fileURLWithPath: importer.resolvedRejectsPath)))))
        let rejects = Dictionary(uniqueKeysWithValues: records.dropFirst().map { (Int($0.fields[0])!, $0.fields[1]) })
        #expect(rejects[2] == "column 2 contains a NUL byte")
        #expect(rejects[3]?.hasPrefix("column 2 is not valid UTF-8") == true)
        #expect(rejects[4] == "the store's name contains a control character (a line break, tab or escape)")
    }

    @Test func aReadOnlyCatalogIsRefusedAndLeftAsItWas() throws {
        let fixture = try Self.catalog()
        let before = try Data(contentsOf: URL(fileURLWithPath: fixture.databasePath))
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: fixture.databasePath)
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: fixture.databasePath) }
        let refused = failure { try StockImportTests.run(fixture.databasePath, "productId,store,quantity\nA3,Berlin,1\n") }
        guard case .catalog(.readOnly)? = refused else { Issue.record("\(String(describing: refused))"); return }
        #expect(try Data(contentsOf: URL(fileURLWithPath: fixture.databasePath)) == before)
    }

    /// The kept count of products in stock at each store agrees with the stock itself after
    /// replacing files where a later row for a product and store changes its quantity from 0 to
    /// some, or back.
    @Test func storeCountsFollowTheLastRowOfEachPair() throws {
        let fixture = try Self.catalog()
        _ = try StockImportTests.run(fixture.databasePath, "productId,store,quantity\nA1,StoreX,0\nA1,StoreX,3\nA2,StoreY,2\nA2,StoreY,0\n")
        let search = try ProductSearch(databasePath: fixture.databasePath)
        #expect(StockImportTests.counts(try search.facets(query: "", top: 20).stores) == ["storex": 1])
        var random = SeededRandomGenerator(seed: 9)
        let products = ["A1", "A2", "A3"], stores = ["S1", "S2", "s1", "S3"]
        for round in 0..<30 {
            let rows = (0..<Int.random(in: 1...25, using: &random)).map { _ in
                "\(products.randomElement(using: &random)!),\(stores.randomElement(using: &random)!),\(Int.random(in: 0...2, using: &random))\n"
            }
            _ = try StockImportTests.run(fixture.databasePath, "productId,store,quantity\n" + rows.joined())
            let kept = StockImportTests.counts(try ProductSearch(databasePath: fixture.databasePath).facets(query: "", top: 20).stores)
            #expect(kept == (try StockImportTests.storeCounts(fixture.databasePath)), "round \(round)")
        }
    }
}
