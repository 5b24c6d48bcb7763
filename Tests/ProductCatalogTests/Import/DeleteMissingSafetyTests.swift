import Foundation
import Testing
@testable import ProductCatalog
import TestSupport

/// An upsert with `deleteMissing` deletes only what its file truly omits: never a product whose
/// row was rejected, never everything for an empty file, never more than its limit.
@Suite struct DeleteMissingSafetyTests {
    /// `count` products `P-0000`… with a list price and a sale price below it.
    static func catalog(_ count: Int) -> String {
        "productId,title,listPrice,salesPrice\n" + (0..<count).map { String(format: "P-%04d,Old %d,20.00,10.00\n", $0, $0) }.joined()
    }

    func upsertOptions(_ fixture: CatalogFixture) -> ImportOptions {
        var options = fixture.options
        options.mode = .upsert
        options.deleteMissing = true
        return options
    }

    func titles(_ fixture: CatalogFixture) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try fixture.allProducts(pageSize: 500).map { ($0.productId, $0.title ?? "") })
    }

    @Test func aHeaderOnlyFileDeletesNothingUnlessEmptyIsAllowedAndTheLimitLifted() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.catalog(50))
        var options = upsertOptions(fixture)
        #expect {
            try CatalogImporter(options: options).run(source: MemoryByteSource("productId,title\n"))
        } throws: { error in
            if case ImportError.noDataRows = error { return true }
            return false
        }
        #expect(try fixture.allProducts().count == 50)
        // Allowed empty, the limit still holds: 50 of 50 is more than a tenth.
        options.allowEmpty = true
        #expect(throws: ImportError.self) { try CatalogImporter(options: options).run(source: MemoryByteSource("productId,title\n")) }
        #expect(try fixture.allProducts().count == 50)
        options.maxDeletes = .none
        let summary = try CatalogImporter(options: options).run(source: MemoryByteSource("productId,title\n"))
        #expect(summary.rowsDeleted == 50 && summary.productsInCatalog == 0)
    }

    @Test(arguments: [false, true]) func productsWhoseRowsWereRejectedAreKept(large: Bool) throws {
        // 2,000 products; the full feed again, a tenth of its sale prices now above the list
        // price. With `large` the feed also adds 12,000 products, so it is upserted into a copy.
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.catalog(2_000))
        var feed = "productId,title,listPrice,salesPrice\n"
        for index in 0..<2_000 {
            let id = String(format: index % 7 == 0 ? "p-%04d" : "P-%04d", index)
            feed += index % 10 == 3 ? "\(id),New \(index),20.00,30.00\n" : "\(id),New \(index),20.00,10.00\n"
        }
        if large { feed += (2_000..<14_000).map { String(format: "P-%05d,Added,5.00,\n", $0) }.joined() }
        let summary = try CatalogImporter(options: upsertOptions(fixture)).run(source: MemoryByteSource(feed))
        #expect(summary.rowsRejected == 200 && summary.rowsDeleted == 0)
        let titles = try titles(fixture)
        #expect(titles.count == (large ? 14_000 : 2_000))
        for index in 0..<2_000 {
            #expect(titles[String(format: "P-%04d", index)] == (index % 10 == 3 ? "Old \(index)" : "New \(index)"))
        }
    }

    @Test func aLatin1FeedReadAsUTF8DeletesNothing() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.catalog(30))
        // A third of the titles hold é as Latin-1's single byte.
        var feed = Array("productId,title,listPrice\n".utf8)
        for index in 0..<30 {
            feed += Array(String(format: "P-%04d,Caf", index).utf8) + (index % 3 == 0 ? [0xE9] : Array("e".utf8)) + Array(",3.00\n".utf8)
        }
        let summary = try CatalogImporter(options: upsertOptions(fixture)).run(source: MemoryByteSource(feed))
        #expect(summary.rowsRejected == 10 && summary.rowsDeleted == 0 && summary.productsInCatalog == 30)
    }

    @Test func aTruncatedFeedStopsAtTheLimitWithTheCatalogUnchanged() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.catalog(1_000))
        let full = Self.catalog(1_000).split(separator: "\n").map(String.init)
        // Cut after 850 products: 150 would go, more than a tenth.
        let cut = full.prefix(851).joined(separator: "\n") + "\n"
        var options = upsertOptions(fixture)
        #expect {
            try CatalogImporter(options: options).run(source: MemoryByteSource(cut.replacingOccurrences(of: "Old", with: "Cut")))
        } throws: { error in
            guard case ImportError.tooManyDeletes(150, 1_000, .percent(10)) = error else { return false }
            return String(describing: error).contains("150 of the catalog's 1000 products")
        }
        let titles = try titles(fixture)
        #expect(titles.count == 1_000 && !titles.values.contains { $0.hasPrefix("Cut") })
        // Exactly at the limit, or told a larger one, it goes through.
        options.maxDeletes = .products(150)
        #expect(try CatalogImporter(options: options).run(source: MemoryByteSource(cut)).rowsDeleted == 150)
        // A tenth of the 850 left may go by default.
        let tenth = full.prefix(1 + 765).joined(separator: "\n") + "\n"
        options.maxDeletes = .default
        #expect(try CatalogImporter(options: options).run(source: MemoryByteSource(tenth)).rowsDeleted == 85)
    }

    /// Random catalogs and feeds against a model: the catalog after the upsert holds the feed's
    /// good rows, and of the products it held before, those a rejected row names.
    @Test func randomFeedsAgainstAModel() throws {
        var random = SeededRandomGenerator(seed: 43)
        for round in 0..<12 {
            let fixture = try CatalogFixture()
            let before = (0..<Int.random(in: 20...300, using: &random)).map { _ in "K\(Int.random(in: 0..<400, using: &random))" }
            let catalog = Set(before.map { $0.uppercased() })
            try fixture.importCSV("productId,title,listPrice\n" + catalog.map { "\($0),Old,2.00\n" }.joined())
            var feed = "productId,title,listPrice\n"
            var good = Set<String>(), rejected = Set<String>()
            for _ in 0..<Int.random(in: 0...300, using: &random) {
                let id = "K\(Int.random(in: 0..<400, using: &random))"
                let spelled = Bool.random(using: &random) ? id.lowercased() : id
                if Int.random(in: 0..<5, using: &random) == 0 {
                    feed += "\(spelled),Bad,not a price\n"
                    rejected.insert(id)
                } else {
                    feed += "\(spelled),New,1.00\n"
                    good.insert(id)
                }
            }
            var options = upsertOptions(fixture)
            options.maxDeletes = .none
            options.allowEmpty = true
            options.maxErrors = .max
            let summary = try CatalogImporter(options: options).run(source: MemoryByteSource(feed))
            let expected = good.union(rejected.intersection(catalog))
            let after = Set(try fixture.allProducts(pageSize: 100).map { $0.productId.uppercased() })
            #expect(after == expected, "round \(round)")
            #expect(summary.rowsDeleted == catalog.subtracting(expected).count, "round \(round)")
        }
    }
}
