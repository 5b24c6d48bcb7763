import Foundation
import Testing
@testable import ProductCatalog
import TestSupport

/// Stock by store: each format read against a plain model of its documented rules, rejects with
/// their lines, replace and upsert, the stock following its products, and the filters against a model.
@Suite struct StockImportTests {
    /// A quantity as files write it, and what the model reads: nil for a rejected one.
    static let quantities: [(text: String, value: Int64?)] = [
        ("0", 0), ("3", 3), ("12", 12), ("7.0", 7), ("-2", 0), ("", nil), ("x", nil), ("2.5", nil),
    ]

    /// What the stock should be after importing `rows` (productId, store, quantity text, line) into a
    /// catalog holding `known`, over `before`: the kept pairs by folded product and store, and the rejected lines.
    static func model(_ rows: [(productId: String, store: String, quantity: String, line: Int)], known: Set<String>,
                      before: [String: Int64] = [:]) -> (stock: [String: Int64], rejected: [Int: String], duplicates: Int) {
        var stock = before
        var written = Set<String>()
        var rejected: [Int: String] = [:]
        var duplicates = 0
        for row in rows {
            guard !row.productId.isEmpty else { rejected[row.line] = "the row names no product"; continue }
            guard !row.store.isEmpty else { rejected[row.line] = "the row names no store"; continue }
            guard let quantity = quantities.first(where: { $0.text == row.quantity })!.value else {
                rejected[row.line] = row.quantity.isEmpty ? "the quantity is empty" : "the quantity \"\(row.quantity)\" is not a whole number"
                continue
            }
            guard known.contains(fold(row.productId)) else { rejected[row.line] = "the catalog has no product \"\(row.productId)\""; continue }
            let key = fold(row.productId) + "\u{0}" + fold(row.store)
            if !written.insert(key).inserted { duplicates += 1 }
            stock[key] = quantity
        }
        return (stock, rejected, duplicates)
    }

    static func fold(_ text: String) -> String {
        FilterAndFacetTests.asciiLower(text)
    }

    /// The catalog's stock, by folded product and store.
    static func stock(_ path: String) throws -> [String: Int64] {
        let connection = try Connection.reading(path)
        guard try connection.hasTable(StockTable.table) else { return [:] }
        let statement = try connection.prepare("SELECT productId, store, quantity FROM stock")
        var stock: [String: Int64] = [:]
        while try statement.step() {
            stock[fold(statement.text(at: 0)!) + "\u{0}" + fold(statement.text(at: 1)!)] = statement.int64(at: 2)
        }
        return stock
    }

    /// The rejects file's lines and reasons.
    static func rejects(_ path: String) throws -> [Int: String] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [:] }
        var rejected: [Int: String] = [:]
        for record in try readRecords(from: MemoryByteSource(text)).dropFirst() { rejected[Int(record.fields[0])!] = record.fields[1] }
        return rejected
    }

    static func run(_ path: String, _ csv: String, mode: ImportMode = .replace, maxErrors: Int = .max) throws -> StockImportSummary {
        var importer = StockImporter(databasePath: path, mode: mode)
        importer.reading.chunkSize = 64
        importer.maxErrors = maxErrors
        return try importer.run(source: MemoryByteSource(csv))
    }

    /// Random stock rows for `products`, with unknown products, bad quantities, missing stores and repeats.
    static func randomRows(_ products: [String], stores: [String], count: Int, seed: UInt64)
        -> [(productId: String, store: String, quantity: String, line: Int)] {
        var random = SeededRandomGenerator(seed: seed)
        return (0..<count).map { index in
            let roll = random.next() % 100
            var productId = products.randomElement(using: &random)!
            if roll < 5 { productId = "NOPE-\(random.next() % 50)" }
            if roll == 5 { productId = "" }
            if roll == 6, productId.contains(where: \.isLetter) { productId = productId.lowercased() }  // the same product, ASCII case aside
            var store = stores.randomElement(using: &random)!
            if roll == 7 { store = "" }
            if roll == 8 { store = store.uppercased() }
            return (productId, store, quantities.randomElement(using: &random)!.text, index + 2)
        }
    }

    @Test("a Google local inventory feed and a productId,store,quantity file, against the model", arguments: [
        "store_code,id,quantity,price,availability", "productId,store,quantity", "SKU;Location;Qty",
    ])
    func plainFormats(header: String) throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(FilterAndFacetTests.csv(rows: 300, seed: 7))
        let products = try fixture.allProducts(pageSize: 100).map(\.productId)
        let rows = Self.randomRows(products, stores: ["Berlin Mitte", "Paris 11", "Köln", "berlin mitte"], count: 900, seed: 3)
        let delimiter = header.contains(";") ? ";" : ","
        let names = header.split(separator: Character(delimiter)).map(String.init)
        let csv = header + "\n" + rows.map { row in
            var fields = [String](repeating: "", count: names.count)
            let isGoogle = names[0] == "store_code"
            fields[isGoogle ? 1 : 0] = row.productId
            fields[isGoogle ? 0 : 1] = row.store
            fields[2] = row.quantity
            if isGoogle { fields[3] = "9.99 EUR"; fields[4] = "in_stock" }
            return fields.joined(separator: delimiter)
        }.joined(separator: "\n") + "\n"
        let summary = try Self.run(fixture.databasePath, csv)
        let expected = Self.model(rows, known: Set(products.map(Self.fold)))
        #expect(summary.format == (names[0] == "store_code" ? .googleLocalInventory : .generic))
        #expect(try Self.stock(fixture.databasePath) == expected.stock)
        #expect(try Self.rejects(fixture.databasePath + ".stock-rejects.csv") == expected.rejected)
        #expect(summary.rowsRead == rows.count)
        #expect(summary.rowsRejected == expected.rejected.count)
        #expect(summary.unknownProducts == expected.rejected.values.filter { $0.hasPrefix("the catalog has no product") }.count)
        #expect(summary.duplicates == expected.duplicates)
        #expect(summary.rowsWritten + summary.duplicates + summary.rowsRejected == summary.rowsRead)
        #expect(summary.stockRows == expected.stock.count)
        #expect(summary.stores == Set(expected.stock.filter { $0.value > 0 }.keys.map { $0.split(separator: "\u{0}")[1] }).count)
    }

    @Test("Shopify's inventory export: a row per variant and location, found by the key a Shopify product import gives it")
    func shopifyInventory() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV("""
            Handle,Title,Option1 Name,Option1 Value,Option2 Name,Option2 Value,Variant SKU,Variant Price
            classic-tee,Classic Tee,Color,Red,Size,M,CT-RM,20.00
            classic-tee,,,Red,,L,CT-RL,20.00
            classic-tee,,,Blue,,M,,20.00
            mug,Mug,Title,Default Title,,,MUG-1,9.00

            """)
        let summary = try Self.run(fixture.databasePath, """
            Handle,Title,Option1 Name,Option1 Value,Option2 Name,Option2 Value,Option3 Name,Option3 Value,SKU,HS Code,COO,Location,Incoming (not editable),Unavailable (not editable),Committed (not editable),Available (not editable),On hand (current),On hand (new)
            classic-tee,Classic Tee,Color,Red,Size,M,,,CT-RM,,,Shop location,0,0,1,4,5,
            classic-tee,Classic Tee,Color,Red,Size,M,,,CT-RM,,,Warehouse,0,0,0,10,10,
            classic-tee,Classic Tee,Color,Red,Size,L,,,CT-RL,,,Shop location,0,0,0,-1,0,
            classic-tee,Classic Tee,Color,Blue,Size,M,,,,,,Warehouse,0,0,0,2,2,
            classic-tee,Classic Tee,Color,Green,Size,S,,,,,,Warehouse,0,0,0,2,2,
            mug,Mug,Title,Default Title,,,,,MUG-1,,,Shop location,0,0,0,7,7,

            """)
        #expect(summary.format == .shopifyInventory)
        #expect(try Self.stock(fixture.databasePath) == [
            "classic-tee/red/m\u{0}shop location": 4, "classic-tee/red/m\u{0}warehouse": 10, "classic-tee/red/l\u{0}shop location": 0,
            "classic-tee/blue/m\u{0}warehouse": 2, "mug\u{0}shop location": 7,
        ])
        #expect(try Self.rejects(fixture.databasePath + ".stock-rejects.csv") == [6: "the catalog has no product \"classic-tee/Green/S\""])
        #expect(summary.unknownProducts == 1)
        let search = try ProductSearch(databasePath: fixture.databasePath)
        #expect(try search.stock(of: "CLASSIC-TEE/Red/M") == [StoreQuantity(store: "Shop location", quantity: 4), StoreQuantity(store: "Warehouse", quantity: 10)])
        #expect(try search.stores() == ["Shop location", "Warehouse"])
    }

    @Test("replace makes the stock the file's; upsert changes only the pairs the file names")
    func replaceAndUpsert() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(FilterAndFacetTests.csv(rows: 120, seed: 9))
        let products = try fixture.allProducts(pageSize: 100).map(\.productId)
        let known = Set(products.map(Self.fold))
        func csv(_ rows: [(productId: String, store: String, quantity: String, line: Int)]) -> String {
            "productId,store,quantity\n" + rows.map { "\($0.productId),\($0.store),\($0.quantity)" }.joined(separator: "\n") + "\n"
        }
        let first = Self.randomRows(products, stores: ["A", "B", "C"], count: 200, seed: 1)
        _ = try Self.run(fixture.databasePath, csv(first))
        var expected = Self.model(first, known: known).stock
        #expect(try Self.stock(fixture.databasePath) == expected)
        let second = Self.randomRows(products, stores: ["B", "D"], count: 80, seed: 2)
        _ = try Self.run(fixture.databasePath, csv(second), mode: .upsert)
        expected = Self.model(second, known: known, before: expected).stock
        #expect(try Self.stock(fixture.databasePath) == expected)
        let third = Self.randomRows(products, stores: ["E"], count: 30, seed: 3)
        _ = try Self.run(fixture.databasePath, csv(third))
        #expect(try Self.stock(fixture.databasePath) == Self.model(third, known: known).stock)
    }

    @Test("a stock import that fails leaves the stock as it was, and says what the header lacks")
    func failures() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV("productId,title\nA1,Mug\nA2,Bowl\n")
        _ = try Self.run(fixture.databasePath, "productId,store,quantity\nA1,S1,3\nA2,S1,4\n")
        let before = try Self.stock(fixture.databasePath)
        func failure(_ body: () throws -> Any) -> ImportError? {
            #expect(throws: ImportError.self) { _ = try body() }
        }
        let tooMany = failure { try Self.run(fixture.databasePath, "productId,store,quantity\nA1,S2,1\nA3,S2,1\nA2,S2,1\n", maxErrors: 0) }
        guard case .tooManyRejects(0, 3, _)? = tooMany else { Issue.record("not stopped at line 3: \(String(describing: tooMany))"); return }
        #expect(try Self.stock(fixture.databasePath) == before)
        let noStore = failure { try Self.run(fixture.databasePath, "productId,quantity\nA1,3\n") }
        guard case .stockHeader(_, .missing(["store"], .generic))? = noStore else { Issue.record("\(String(describing: noStore))"); return }
        #expect(noStore?.description.contains("store (or store_code, location)") == true)
        let noQuantity = failure { try Self.run(fixture.databasePath, "store_code,id,availability\nS1,A1,in_stock\n") }
        guard case .stockHeader(_, .missing(["quantity"], .googleLocalInventory))? = noQuantity else { Issue.record("\(String(describing: noQuantity))"); return }
        var importer = StockImporter(databasePath: fixture.databasePath)
        let cancelled = failure { try importer.run(source: MemoryByteSource("productId,store,quantity\nA1,S9,9\n"), isCancelled: { true }) }
        guard case .cancelled? = cancelled else { Issue.record("\(String(describing: cancelled))"); return }
        #expect(try Self.stock(fixture.databasePath) == before)
        importer = StockImporter(databasePath: fixture.directory.file("none.sqlite"))
        let missing = failure { try importer.run(source: MemoryByteSource("productId,store,quantity\nA1,S9,9\n")) }
        guard case .catalog(.noCatalog)? = missing else { Issue.record("\(String(describing: missing))"); return }
        #expect(!FileManager.default.fileExists(atPath: fixture.databasePath + ".importing-stock"))
    }

    @Test("the stock follows its products: a delete takes it, a rename keeps it, an upsert keeps it, a replacing import carries the kept products'")
    func stockFollowsProducts() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV("productId,title\nA1,Mug\nA2,Bowl\nA3,Cup\nA4,Plate\n")
        _ = try Self.run(fixture.databasePath, "productId,store,quantity\nA1,S1,1\nA2,S1,2\nA2,S2,3\nA3,S2,4\nA4,S1,5\n")
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        try editor.delete(productId: "A3")
        _ = try editor.replace(productId: "A4", with: Product(productId: "B4", title: "Plate"))
        #expect(try Self.stock(fixture.databasePath) == ["a1\u{0}s1": 1, "a2\u{0}s1": 2, "a2\u{0}s2": 3, "b4\u{0}s1": 5])
        var options = fixture.options
        options.mode = .upsert
        _ = try CatalogImporter(options: options).run(source: MemoryByteSource("productId,title\nA1,Blue Mug\nA5,Jug\n"))
        #expect(try Self.stock(fixture.databasePath) == ["a1\u{0}s1": 1, "a2\u{0}s1": 2, "a2\u{0}s2": 3, "b4\u{0}s1": 5])
        options.deleteMissing = true
        options.maxDeletes = .none
        _ = try CatalogImporter(options: options).run(source: MemoryByteSource("productId,title\nA1,Blue Mug\nA2,Bowl\nA5,Jug\n"))
        #expect(try Self.stock(fixture.databasePath) == ["a1\u{0}s1": 1, "a2\u{0}s1": 2, "a2\u{0}s2": 3])
        try fixture.importCSV("productId,title\nA2,Bowl\nA5,Jug\nA6,Tray\n")
        #expect(try Self.stock(fixture.databasePath) == ["a2\u{0}s1": 2, "a2\u{0}s2": 3])
        try CatalogEditor(databasePath: fixture.databasePath).delete(productId: "A2")
        #expect(try Self.stock(fixture.databasePath).isEmpty)
    }

    @Test("in stock at stores, and in stock anywhere (a product's own quantity, else its stores' sum), against the model")
    func storeFilters() throws {
        let fixture = try CatalogFixture()
        var random = SeededRandomGenerator(seed: 11)
        var lines = ["productId,title,color,quantity"]
        for index in 0..<400 {
            let quantity = random.next() % 3 == 0 ? "" : String(random.next() % 3)
            lines.append("P-\(index),Shirt \(index),\(["Navy", "Black"][Int(random.next() % 2)]),\(quantity)")
        }
        try fixture.importCSV(lines.joined(separator: "\n") + "\n")
        let all = try fixture.allProducts(pageSize: 100)
        let rows = Self.randomRows(all.map(\.productId), stores: ["North", "South", "East"], count: 700, seed: 5)
        _ = try Self.run(fixture.databasePath, "productId,store,quantity\n" + rows.map { "\($0.productId),\($0.store),\($0.quantity)" }.joined(separator: "\n") + "\n")
        let stock = try Self.stock(fixture.databasePath)
        func stores(_ product: Product) -> [String: Int64] {
            Dictionary(uniqueKeysWithValues: stock.compactMap { key, quantity -> (String, Int64)? in
                let parts = key.split(separator: "\u{0}", omittingEmptySubsequences: false).map(String.init)
                return parts[0] == Self.fold(product.productId) ? (parts[1], quantity) : nil
            })
        }
        let search = try ProductSearch(databasePath: fixture.databasePath)
        var cases: [SearchFilters] = []
        for (wanted, inStock, colors) in [(["north"], false, []), (["NORTH", "east"], false, ["navy"]), ([], true, []), (["South"], true, ["Black"]), (["Nowhere"], false, [])] as [([String], Bool, [String])] {
            var filters = SearchFilters()
            filters.stores = wanted
            filters.inStock = inStock
            filters.colors = colors
            cases.append(filters)
        }
        for filters in cases {
            let expected = all.filter { product in
                guard FilterAndFacetTests.passes(product, filters) else { return false }
                let held = stores(product)
                if !filters.stores.isEmpty, !filters.stores.contains(where: { (held[Self.fold($0)] ?? 0) > 0 }) { return false }
                if filters.inStock {
                    let total = product.quantity ?? (held.isEmpty ? nil : held.values.reduce(0, +))
                    guard (total ?? 0) > 0 else { return false }
                }
                return true
            }.map(\.productId)
            var found: [String] = []
            var cursor: KeysetCursor?
            repeat {
                let page = try search.page(prefix: "", filters: filters, after: cursor, limit: 37)
                found += page.products.map(\.productId)
                cursor = page.nextCursor
            } while cursor != nil
            #expect(found == expected, "\(filters)")
            #expect(try search.count(query: "", filters: filters) == expected.count, "the count of \(filters)")
            #expect(!expected.isEmpty || filters.stores == ["Nowhere"], "a case that finds nothing proves little: \(filters)")
        }
    }

    /// The products in stock at each store among those `filter` (SQL on `p`) keeps, as SQL's GROUP BY counts them.
    static func storeCounts(_ path: String, where filter: String = "1") throws -> [String: Int] {
        let connection = try Connection(path: path, mode: .readOnly)
        let statement = try connection.prepare("""
            SELECT s.store, count(*) FROM stock s JOIN products p ON p.productId = s.productId
            WHERE s.quantity > 0 AND \(filter) GROUP BY s.store COLLATE NOCASE
            """)
        var counts: [String: Int] = [:]
        while try statement.step() { counts[fold(statement.text(at: 0)!)] = Int(statement.int64(at: 1)) }
        return counts
    }

    static func counts(_ stores: FacetCounts.StoreCounts?) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: (stores?.values ?? []).map { (fold($0.value), $0.count) })
    }

    @Test("store facets: the whole catalog's kept counts and a search's tally agree with SQL through upserts, deletes and a replacing import")
    func storeFacets() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(FilterAndFacetTests.csv(rows: 500, seed: 21))
        let products = try fixture.allProducts(pageSize: 100).map(\.productId)
        func csv(_ rows: [(productId: String, store: String, quantity: String, line: Int)]) -> String {
            "productId,store,quantity\n" + rows.map { "\($0.productId),\($0.store),\($0.quantity)" }.joined(separator: "\n") + "\n"
        }
        let stores = ["North", "South", "East", "West", "Harbour", "Airport", "Mall", "Station", "Old Town", "Market", "Pier", "Campus"]
        _ = try Self.run(fixture.databasePath, csv(Self.randomRows(products, stores: stores, count: 2_000, seed: 4)))
        func check(_ moment: String) throws {
            let search = try ProductSearch(databasePath: fixture.databasePath)
            let whole = try search.facets(query: "", top: 20).stores
            let all = try Self.storeCounts(fixture.databasePath)
            #expect(Self.counts(whole) == all, "\(moment): whole catalog")
            var navy = SearchFilters()
            navy.colors = ["navy"]
            let filtered = try search.facets(query: "", filters: navy, top: 20).stores
            let navyCounts = try Self.storeCounts(fixture.databasePath, where: "p.color = 'navy' COLLATE NOCASE")
            #expect(Self.counts(filtered) == navyCounts, "\(moment): navy")
            let top3 = try search.facets(query: "", top: 3).stores
            #expect(top3?.values.count == 3 && top3!.values.map(\.count).reduce(0, +) + top3!.other == all.values.reduce(0, +))
        }
        try check("after a replacing stock import")
        _ = try Self.run(fixture.databasePath, csv(Self.randomRows(products, stores: stores + ["Depot"], count: 300, seed: 5)), mode: .upsert)
        try check("after a stock upsert")
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        for productId in products.prefix(40) { try editor.delete(productId: productId) }
        try check("after deletes")
        try fixture.importCSV(FilterAndFacetTests.csv(rows: 400, seed: 21))
        try check("after a replacing product import")
        let kept = try Self.storeCounts(fixture.databasePath)
        #expect(!kept.isEmpty)
    }

    @Test("the engine counts one store exactly from its kept count, and several stores or in stock anywhere up to the cap")
    func storeCounts() async throws {
        let fixture = try CatalogFixture()
        let rows = ProductSearch.queryCountCap + 50
        try fixture.importCSV("productId,title\n" + (0..<rows).map { "P-\($0),Mug\n" }.joined())
        _ = try Self.run(fixture.databasePath, "productId,store,quantity\n" + (0..<rows).map { "P-\($0),North,1\nP-\($0),South,\($0 % 2)\n" }.joined())
        let catalog = SQLiteCatalog(databasePath: fixture.databasePath)
        func counted(_ stores: [String], inStock: Bool = false) async throws -> String {
            var filters = SearchFilters()
            filters.stores = stores
            filters.inStock = inStock
            let (page, count, complete) = try await catalog.page(SearchRequest("", filters: filters), after: nil, limit: 20)
            return "\(page.products.count) \(count) \(complete)"
        }
        #expect(try await counted(["north"]) == "20 \(rows) true")
        #expect(try await counted(["SOUTH"]) == "20 \(rows / 2) true")
        #expect(try await counted(["North", "South"]) == "20 \(ProductSearch.queryCountCap) false")
        #expect(try await counted([], inStock: true) == "20 \(ProductSearch.queryCountCap) false")
        #expect(try await counted(["Nowhere", "Elsewhere"]) == "0 0 true")
        await catalog.close()
        // Past the exact count's limit, several stores are counted from the partial index up to the limit asked.
        let connection = try Connection(path: fixture.databasePath, mode: .readOnly)
        var both = SearchFilters()
        both.stores = ["North", "south"]
        #expect(try StockTable.productsInStock(at: both, connection) == rows)
        #expect(try StockTable.productsInStock(at: both, upTo: 10_001, connection, exactUpTo: 100) == 10_001)
        #expect(try StockTable.productsInStock(at: both, upTo: 20_000, connection, exactUpTo: 100) == rows)
        #expect(try StockTable.productsInStock(at: both, connection, exactUpTo: 100) == nil)
    }

    @Test("a replacing import of a catalog another program left open in WAL mode carries its stock, and the new file is in WAL mode with no log left over")
    func replacingACatalogLeftInWALMode() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV("productId,title\nA1,Mug\nA2,Bowl\n")
        _ = try Self.run(fixture.databasePath, "productId,store,quantity\nA1,S1,3\nA2,S1,4\n")
        do {
            let other = try Connection(path: fixture.databasePath, mode: .readWrite)
            #expect(try other.scalarText("PRAGMA journal_mode = WAL") == "wal")
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.databasePath + "-wal"))
        try fixture.importCSV("productId,title\nA1,Mug\nA3,Cup\n")
        #expect(try Self.stock(fixture.databasePath) == ["a1\u{0}s1": 3])
        for suffix in ["-wal", "-shm", "-journal"] {
            #expect(!FileManager.default.fileExists(atPath: fixture.databasePath + suffix), "\(suffix) left beside the new catalog")
        }
        #expect(try Connection.reading(fixture.databasePath).scalarText("PRAGMA journal_mode") == "wal")
    }

    @Test("a stock import reports its phases in order, a fraction that never goes back, and its counts at the end")
    func progress() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV("productId,title\n" + (0..<2_000).map { "P-\($0),Mug\n" }.joined())
        var importer = StockImporter(databasePath: fixture.databasePath)
        importer.progressInterval = .zero
        var reports: [ImportProgress] = []
        let csv = "productId,store,quantity\n" + (0..<3).flatMap { store in (0..<2_000).map { "P-\($0),S\(store),1\n" } }.joined() + "Q-1,S1,1\n"
        let summary = try importer.run(source: MemoryByteSource(csv)) { reports.append($0) }
        let phases = reports.map(\.phase)
        #expect(phases.first == .loading && phases.last == .finished && phases.contains(.writing) && phases.contains(.finishing))
        #expect(phases == phases.sorted { $0.order < $1.order }, "phases out of order: \(phases)")
        let fractions = reports.compactMap(\.fractionCompleted)
        #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $0 <= $1 }, "the fraction went back: \(fractions)")
        #expect(fractions.last == 1)
        #expect(reports.last?.rowsRead == 6_001 && reports.last?.rowsInserted == 6_000 && reports.last?.rowsRejected == 1)
        #expect(summary.rowsWritten == 6_000 && summary.unknownProducts == 1)
    }

    @Test("a stock import reports while it sorts, before its first row is written, and a cancel during the sort leaves the stock as it was")
    func progressWhileSorting() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV("productId,title\n" + (0..<2_000).map { "P-\($0),Mug\n" }.joined())
        var importer = StockImporter(databasePath: fixture.databasePath)
        importer.progressInterval = .zero
        let csv = "productId,store,quantity\n" + (0..<5).flatMap { store in (0..<2_000).map { "P-\($0),S\(store),1\n" } }.joined()
        var reports: [ImportProgress] = []
        _ = try importer.run(source: MemoryByteSource(csv)) { reports.append($0) }
        let sorting = reports.filter { $0.phase == .writing && $0.rowsInserted == 0 }
        #expect(sorting.count >= 2, "one report from the sort of 10,000 rows and none during it: \(sorting.count)")

        let before = try Self.stock(fixture.databasePath)
        reports = []
        do {
            _ = try importer.run(source: MemoryByteSource(csv.replacingOccurrences(of: ",1\n", with: ",2\n")),
                                 progress: { reports.append($0) }, isCancelled: { reports.last?.phase == .writing })
            Issue.record("the import was not cancelled")
        } catch ImportError.cancelled {
        }
        #expect(reports.last?.phase == .writing && reports.last?.rowsInserted == 0)
        #expect(try Self.stock(fixture.databasePath) == before)
    }
}

extension ImportProgress.Phase {
    /// The phases in the order an import goes through them.
    fileprivate var order: Int {
        switch self {
        case .loading: 0
        case .writing: 1
        case .finishing: 2
        case .finished: 3
        }
    }
}
