import Foundation
import Testing
@testable import ProductCatalog
import TestSupport

/// The sort lists (``SortLists``) against a naive model: keys in the sort's order, blocks read
/// back from any position, and sorted pages through changes, a rebuild and an old layout.
@Suite struct SortListsTests {
    struct Item {
        var productId: String
        var price: Int64?
        var title: String?
    }

    /// Products with distinct productIds (ignoring ASCII case) in productId order, prices that tie
    /// and titles that tie, differ only by case or are prefixes of one another.
    static func randomItems(_ count: Int, _ random: inout SeededRandomGenerator) -> [Item] {
        let letters = Array("aAbBcC zZé1")
        func text(_ length: Int) -> String { String((0..<length).map { _ in letters.randomElement(using: &random)! }) }
        var seen = Set<[UInt8]>()
        var items: [Item] = []
        while items.count < count {
            let id = text(Int.random(in: 1...5, using: &random)).replacingOccurrences(of: " ", with: "-")
            guard seen.insert(SortedSearchTests.folded(id)).inserted else { continue }
            let price: Int64? = Bool.random(using: &random) && Int.random(in: 0..<4, using: &random) == 0 ? nil : Int64.random(in: -3...30, using: &random) * 500
            let title: String? = switch Int.random(in: 0..<8, using: &random) {
            case 0: nil
            case 1: ""
            default: text(Int.random(in: 1...4, using: &random))
            }
            items.append(Item(productId: id, price: price, title: title))
        }
        return items.sorted { SortedSearchTests.folded($0.productId).lexicographicallyPrecedes(SortedSearchTests.folded($1.productId)) }
    }

    /// The keys of `list` as the model orders the items: by value as ``ProductSearch/SortKey`` orders
    /// them, or by productId; each ending with its item's place, its number from 1 in `items`.
    static func model(_ items: [Item], _ list: SortLists.List) -> [[UInt8]] {
        let places = Dictionary(uniqueKeysWithValues: items.enumerated().map { (SortedSearchTests.folded($0.element.productId), Int64($0.offset + 1)) })
        func bytes(_ text: String, _ body: (UnsafeRawBufferPointer) -> [UInt8]) -> [UInt8] {
            Array(text.utf8).withUnsafeBytes(body)
        }
        func placed(_ key: [UInt8], _ productId: String) -> [UInt8] {
            var key = key
            SortLists.appendPlace(places[SortedSearchTests.folded(productId)]!, to: &key)
            return key
        }
        switch list {
        case .price, .title:
            let sort: SearchSort = list == .price ? .price : .title
            let valued = items.compactMap { item -> ProductSearch.SortKey? in
                if list == .price { return item.price.map { .init(value: .number($0), productId: item.productId) } }
                guard let title = item.title, !title.isEmpty else { return nil }
                return .init(value: .text(title), productId: item.productId)
            }
            return valued.sorted { ProductSearch.SortKey.before($0, $1, sort) }.map { key in
                placed(bytes(key.productId) { id in
                    switch key.value {
                    case .number(let price)?: SortLists.priceKey(price, productId: id)
                    case .text(let title)?: bytes(title) { SortLists.titleKey($0, productId: id) }
                    case nil: []
                    }
                }, key.productId)
            }
        case .priceMissing, .titleMissing:
            let missing = items.filter { list == .priceMissing ? $0.price == nil : ($0.title ?? "").isEmpty }
            return missing.map { item in placed(bytes(item.productId) { SortLists.missingKey(productId: $0) }, item.productId) }
        }
    }

    @Test(arguments: [1, 2, 3])
    func theListsReadBackAsTheModelFromAnyPosition(seed: UInt64) throws {
        var random = SeededRandomGenerator(seed: seed)
        let items = Self.randomItems(400, &random)
        let directory = try TemporaryDirectory()
        let connection = try Connection(path: directory.file("lists.sqlite"), mode: .create)
        try connection.execute(SortLists.createStatement)
        // Blocks of a few keys and runs of a few hundred bytes: many of both.
        var writer = try SortListsWriter(connection: connection, capacity: 48, spillPath: directory.file("spill"), budget: 300)
        for item in items {
            try Array(item.productId.utf8).withUnsafeBytes { id in
                if let title = item.title {
                    try Array(title.utf8).withUnsafeBytes { try writer.add(productId: id, price: item.price, title: $0) }
                } else {
                    try writer.add(productId: id, price: item.price, title: nil)
                }
            }
        }
        try writer.finish()
        let reader = try SortLists.Reader(prepare: connection.prepare)
        for list in SortLists.List.allCases {
            let expected = Self.model(items, list)
            #expect(try reader.blockCount(list) > (expected.isEmpty ? -1 : 1), "\(list) fills several blocks")
            func read(forward: Bool, after: [UInt8]?) throws -> [[UInt8]] {
                var cursor = try SortLists.Cursor(list, reader: reader, forward: forward, after: after)
                var keys: [[UInt8]] = []
                while let key = try cursor.next() { keys.append(key) }
                return keys
            }
            #expect(try read(forward: true, after: nil) == expected, "\(list)")
            #expect(try read(forward: false, after: nil) == expected.reversed(), "\(list) backwards")
            // From each key, from keys between them and from keys past either end.
            var positions = expected + [[], [0xFF, 0xFF]]
            for _ in 0..<40 { positions.append((0..<Int.random(in: 1...12, using: &random)).map { _ in UInt8.random(in: 0...0x7F, using: &random) }) }
            for after in positions {
                #expect(try read(forward: true, after: after) == expected.filter { after.lexicographicallyPrecedes($0) }, "\(list) after \(after)")
                #expect(try read(forward: false, after: after) == expected.filter { $0.lexicographicallyPrecedes(after) }.reversed(), "\(list) before \(after)")
            }
            for key in expected {
                let id = SortLists.productId(in: key, of: list)
                let item = items.first { SortedSearchTests.folded($0.productId) == Array(id) }
                #expect(item != nil, "\(list): \(key) ends with a productId")
                #expect(item.map { SortedSearchTests.folded($0.productId) }.flatMap { id in items.firstIndex { SortedSearchTests.folded($0.productId) == id } }
                        .map { Int64($0 + 1) } == SortLists.place(in: key), "\(list): \(key) ends with its place")
            }
        }
    }

    @Test func sortedKeysSpillAndMergeInByteOrder() throws {
        var random = SeededRandomGenerator(seed: 9)
        let directory = try TemporaryDirectory()
        let keys = SortedKeys(pathPrefix: directory.file("keys"), budget: 256)
        var model: [[UInt8]] = []
        for _ in 0..<2_000 {
            let key = (0..<Int.random(in: 0...6, using: &random)).map { _ in UInt8.random(in: 0...3, using: &random) }
            model.append(key)
            try keys.add(key)
        }
        #expect(keys.spilledRuns > 10)
        var sorted: [[UInt8]] = []
        try keys.forEachSorted { sorted.append(Array($0)) }
        #expect(sorted == model.sorted { $0.lexicographicallyPrecedes($1) })
    }

    /// Every page of every sort, walked (not sorted in memory), against the model of the products
    /// as they are: after the import, after edits the lists note, after a rebuild, and for a
    /// catalog of layout 6 (its indexes, no lists) before and after its first write.
    @Test func sortedPagesFollowTheProductsThroughChangesARebuildAndLayoutSix() throws {
        var random = SeededRandomGenerator(seed: 4)
        let items = Self.randomItems(300, &random).filter { ($0.price ?? 0) >= 0 }
        var csv = "productId,title,listPrice\n"
        for item in items {
            csv += "\(item.productId),\(item.title ?? ""),\(item.price.map { String(format: "%.2f", Double($0) / 1000) } ?? "")\n"
        }
        let fixture = try CatalogFixture()
        try fixture.importCSV(csv)
        func check(_ stage: String) throws {
            let search = try ProductSearch(databasePath: fixture.databasePath)
            search.sortedInMemory = 0
            let everything = try fixture.allProducts(pageSize: 100)
            var cheap = SearchFilters()
            cheap.maxPrice = Price("6")
            for filters in [SearchFilters(), cheap] {
                let kept = try search.allPages(query: "", filters: filters, pageSize: 100)
                let found = everything.filter { kept.contains($0.productId) }
                for sort in [SearchSort.price, .priceDescending, .title] {
                    let expected = SortedSearchTests.model(found, sort, places: [:])
                    for pageSize in [1, 6] {
                        #expect(try SortedSearchTests().pages(search, "", sort, filters: filters, pageSize: pageSize) == expected,
                                "\(stage) \(sort) \(filters) \(pageSize)")
                    }
                }
            }
        }
        try check("imported")
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        var current = try fixture.allProducts(pageSize: 100)
        for step in 0..<60 {
            let index = Int.random(in: 0..<current.count, using: &random)
            var product = current[index]
            switch step % 4 {
            case 0:
                product.listPrice = Price(thousandths: Int64.random(in: 0...20, using: &random) * 500)
                product.salesPrice = nil
                current[index] = try editor.replace(productId: product.productId, with: product)
            case 1:
                product.title = ["Zed", "alpha", "ALPHA", "", "beta lamp"].randomElement(using: &random)!
                current[index] = try editor.replace(productId: product.productId, with: product)
            case 2:
                try editor.delete(productId: product.productId)
                current.remove(at: index)
            default:
                let added = Product(productId: "new-\(step)", title: step % 3 == 0 ? nil : "Alpha \(step)",
                                    listPrice: step % 5 == 0 ? nil : Price(thousandths: Int64(step) * 250))
                current.append(try editor.add(added))
            }
        }
        let connection = try Connection(path: fixture.databasePath, mode: .readWrite)
        #expect(try SegmentManifest.entries(connection).count > 1, "each edit wrote a segment of the index")
        try check("edited")
        try connection.transaction(.immediate) { try WordListsWriter.rebuild(connection, spillPath: fixture.databasePath + ".words", budget: 512) }
        #expect(try SegmentManifest.entries(connection).count == 1)
        try check("rebuilt")
        // Layout 6: the indexes, no lists.
        try connection.execute("""
            DROP TABLE \(SortLists.table);
            CREATE INDEX products_price ON products (ifnull(salesPriceMilli, listPriceMilli), productId);
            CREATE INDEX products_title ON products (nullif(title, '') COLLATE NOCASE, productId);
            PRAGMA user_version = 6;
            """)
        try check("layout 6")
        try CatalogEditor(databasePath: fixture.databasePath).delete(productId: current[0].productId)
        #expect(try SortLists.exists(connection))
        #expect(try connection.scalarInt("SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name IN ('products_price', 'products_title')") == 0)
        #expect(try connection.scalarInt("PRAGMA user_version") == Int64(CatalogSchema.version))
        try check("layout 6, written")
    }
}
