import Foundation
import ProductCatalog
@testable import ProductCatalogPostgres
import Testing
import TestSupport

/// Stock by store on PostgreSQL gives the answers a catalog file gives: the same script of stock
/// imports (random rows with unknown products, repeats, stores differing in case, quantities that
/// are not numbers), product edits and imports, run through ``StockKeeping`` on both engines,
/// reads back the same summaries, rejected lines, stock, stores, filtered pages and store counts.
@Suite(PostgresTestServer.required)
struct PostgresStockTests {
    /// 60 products: some with a quantity of their own (0 or 3), the others counted by their stores.
    static let products: String = {
        var lines = ["productId,title,listPrice,color,quantity"]
        for index in 0..<60 {
            let id = index % 7 == 0 ? "p\(index)" : "P\(index)"
            let word = ["linen", "wool", "cotton"][index % 3]
            let quantity = ["", "0", "3", ""][index % 4]
            lines.append("\(id),Item \(index) \(word),\(10 + index).00,\(["Navy", "Black", ""][index % 3]),\(quantity)")
        }
        return lines.joined(separator: "\n") + "\n"
    }()

    static let productIds = (0..<60).map { $0 % 7 == 0 ? "p\($0)" : "P\($0)" }

    /// Random stock rows: unknown products, no store, quantities that are not whole numbers, the
    /// same product in another case, stores in another case, and repeats.
    static func stockFile(stores: [String], count: Int, seed: UInt64) -> String {
        var random = SeededRandomGenerator(seed: seed)
        let quantities = ["0", "3", "12", "7.0", "-2", "", "x"]
        var lines = ["productId,store,quantity"]
        for _ in 0..<count {
            let roll = random.next() % 100
            var productId = productIds.randomElement(using: &random)!
            if roll < 5 { productId = "NOPE-\(random.next() % 20)" }
            if roll == 6 { productId = productId.lowercased() }
            var store = stores.randomElement(using: &random)!
            if roll == 7 { store = "" }
            if roll == 8 { store = store.uppercased() }
            lines.append("\(productId),\(store),\(quantities.randomElement(using: &random)!)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What `catalog` answers to one script of stock imports and product changes, one line per
    /// answer; `imports` replaces or upserts the catalog's products with a file's rows.
    static func transcript(of catalog: any StockKeeping, in folder: TemporaryFolder,
                           imports: (String, ImportOptions) async throws -> Void) async throws -> [String] {
        var lines: [String] = []
        func note(_ label: String, _ value: Any) { lines.append("\(label): \(value)") }
        var round = 0
        func importStock(_ csv: String, mode: ImportMode, allowEmpty: Bool = false) async {
            round += 1
            var importer = catalog.stockImporter(mode: mode)
            importer.rejectsPath = folder.path + "/stock-rejects-\(round).csv"
            importer.allowEmpty = allowEmpty
            let path: String
            do {
                path = try folder.write("stock-\(round).csv", csv)
            } catch {
                note("write", error)
                return
            }
            let job = importer.start(input: .file(path: path))
            for await _ in job.progress {}
            do {
                let summary = try await job.summary
                note("stock \(round)", [summary.rowsRead, summary.rowsWritten, summary.rowsRejected, summary.unknownProducts,
                                        summary.duplicates, summary.stockRows, summary.stores])
                note("rejects \(round)", (try? String(contentsOfFile: importer.resolvedRejectsPath, encoding: .utf8)) ?? "none")
            } catch ImportError.nothingImported(let rowsRead, _, _) {
                // The rejects file's path differs between the engines' runs: what failed is the answer.
                note("stock \(round) failed", "nothing imported of \(rowsRead)")
            } catch ImportError.noStockRows {
                note("stock \(round) failed", "no rows")
            } catch {
                note("stock \(round) failed", error)
            }
        }
        func state(_ label: String) async throws {
            note("\(label) stores", try await catalog.stores())
            let stock = try await catalog.stock(of: productIds + ["NOPE-1", "p7".uppercased(), "p14"])
            note("\(label) stock", stock.keys.sorted().map { id in "\(id) " + stock[id]!.map { "\($0.store)=\($0.quantity)" }.joined(separator: ",") })
            for parameters in ["store=Berlin%20Mitte", "store=k%C3%B6ln&store=PARIS%2011", "inStock=true", "inStock=true&q=linen",
                               "store=paris%2011&color=Navy", "store=nowhere", "q=wool&store=Lyon", ""] {
                var request = SearchRequest(SavedSearch(parameters: parameters), typos: true, listing: .variants)
                request.sort = .title
                let page = try await catalog.page(request, after: nil, limit: 100)
                note("\(label) \(parameters)", page.page.products.map(\.productId) + ["\(page.count)"])
                let facets = try await catalog.facets(request)
                note("\(label) \(parameters) stores", facets?.stores.map { "\($0.values.map { "\($0.value)=\($0.count)" }) +\($0.other)" } ?? "none")
            }
        }

        try await imports(try folder.write("products.csv", products), ImportOptions())
        try await state("before")
        await importStock(stockFile(stores: ["Berlin Mitte", "Paris 11", "Köln", "berlin mitte"], count: 400, seed: 3), mode: .replace)
        try await state("replaced")
        await importStock(stockFile(stores: ["Paris 11", "Lyon"], count: 120, seed: 4), mode: .upsert)
        try await state("upserted")

        // The stock follows its products: a rename, a delete, a replacing import without one, an
        // upsert that deletes what its file does not list.
        let renamed = try #require(try await catalog.product(id: "P1"))
        var product = renamed
        product.productId = "P1-new"
        _ = try await catalog.replace(productId: "P1", with: product)
        try await catalog.delete(productId: "p2")
        try await state("edited")
        try await imports(try folder.write("without-p3.csv", products.replacingOccurrences(of: "\nP3,", with: "\nP3-gone,")), ImportOptions())
        try await state("reimported")
        var upsert = ImportOptions(mode: .upsert)
        upsert.deleteMissing = true
        upsert.maxDeletes = .none
        let kept = products.split(separator: "\n").enumerated().filter { $0.offset == 0 || $0.offset % 2 == 1 }.map(\.element)
        try await imports(try folder.write("half.csv", kept.joined(separator: "\n") + "\n"), upsert)
        try await state("halved")

        // Refused: every row names an unknown product; then emptied on purpose.
        await importStock("productId,store,quantity\nNOPE,Lyon,3\n", mode: .replace)
        await importStock("productId,store,quantity\n", mode: .replace)
        try await state("refused")
        await importStock("productId,store,quantity\n", mode: .replace, allowEmpty: true)
        try await state("emptied")
        return lines
    }

    @Test func stockOnPostgreSQLAnswersAsInACatalogFile() async throws {
        let folder = try TemporaryFolder()
        let inFile = try await agreeingTranscript(in: folder) { try await Self.transcript(of: $0, in: folder, imports: $1) }
        // And the file's answers are the ones the rules state.
        #expect(inFile.contains("before stores: []"), "\(inFile)")
        #expect(inFile.contains { $0.hasPrefix("before  stores: none") }, "\(inFile)")
        #expect(inFile.contains { $0.hasPrefix("stock 1: [400, ") }, "\(inFile)")
        #expect(inFile.contains { $0 == "stock 3 failed: nothing imported of 1" }, "\(inFile)")
        #expect(inFile.contains { $0 == "stock 4 failed: no rows" }, "\(inFile)")
        #expect(inFile.contains("emptied stores: []"), "\(inFile)")
        #expect(inFile.contains("emptied stock: []"), "\(inFile)")
    }
}
