import Foundation
import TestSupport
import ProductCatalog
import Testing

/// `catalog import-stock` and the store filters of `catalog search`, as a person runs them.
@Suite struct StockCommandTests {
    @Test func aLocalInventoryFeedIsImportedAndSearchedByStore() throws {
        let catalog = try CommandRunner()
        let directory = catalog.directory
        try Data("productId,title,quantity\nA-1,Mug,\nA-2,Cup,\nA-3,Plate,6\n".utf8).write(to: URL(fileURLWithPath: directory + "/products.csv"))
        try Data("store_code,id,quantity,availability\nBERLIN,A-1,4,in_stock\nPARIS,A-1,0,out_of_stock\nPARIS,A-2,2,in_stock\nPARIS,B-9,1,in_stock\nPARIS,A-3,many,in_stock\n".utf8)
            .write(to: URL(fileURLWithPath: directory + "/local.csv"))
        #expect(try catalog.run(["import", "products.csv"]).status == 0)

        let imported = try catalog.run(["import-stock", "local.csv"])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("read as: Google local inventory"), "\(imported.standardOutput)")
        #expect(imported.standardOutput.contains("Rows read: 5, written: 3, rejected: 2 (1 naming a product the catalog does not hold)"), "\(imported.standardOutput)")
        #expect(imported.standardOutput.contains("2 stores have products in stock"), "\(imported.standardOutput)")
        let rejects = try String(contentsOfFile: directory + "/catalog.sqlite.stock-rejects.csv", encoding: .utf8)
        #expect(rejects.contains("5,\"the catalog has no product \"\"B-9\"\"\",PARIS,B-9,1,in_stock"), "\(rejects)")
        #expect(rejects.contains("6,\"the quantity \"\"many\"\" is not a whole number\""), "\(rejects)")

        let paris = try catalog.run(["search", "", "--store", "paris", "--json"])
        let page = try #require(try JSONSerialization.jsonObject(with: Data(paris.standardOutput.utf8)) as? [String: Any])
        #expect((page["products"] as? [[String: Any]])?.map { $0["productId"] as? String } == ["A-2"])
        let stock = try #require(page["stock"] as? [String: [[String: Any]]])
        #expect(stock["A-2"]?.first?["store"] as? String == "PARIS" && stock["A-2"]?.first?["quantity"] as? Int == 2, "\(stock)")

        // In stock anywhere: A-3's own 6, A-1's stores' 4, A-2's 2.
        let anywhere = try catalog.run(["search", "", "--in-stock"])
        #expect(["A-1", "A-2", "A-3"].allSatisfy(anywhere.standardOutput.contains), "\(anywhere.standardOutput)")
        let both = try catalog.run(["search", "", "--store", "berlin", "--store", "PARIS"])
        #expect(both.standardOutput.contains("A-1") && both.standardOutput.contains("A-2") && !both.standardOutput.contains("A-3"), "\(both.standardOutput)")

        // The stock exports as the file import-stock reads, and imports back into the same stock.
        let exported = try catalog.run(["export", "", "--stock", "--output", "stock.csv"])
        #expect(exported.status == 0 && exported.standardError.contains("Exported 3 product–store quantities"), "\(exported.standardError)")
        let csv = try String(contentsOfFile: directory + "/stock.csv", encoding: .utf8)
        #expect(csv.split(whereSeparator: \.isNewline) == ["productId,store,quantity", "A-1,BERLIN,4", "A-1,PARIS,0", "A-2,PARIS,2"], "\(csv)")
        let before = try catalog.run(["search", "", "--json"]).standardOutput
        #expect(try catalog.run(["import-stock", "stock.csv"]).status == 0)
        #expect(try catalog.run(["search", "", "--json"]).standardOutput == before)
        let parisOnly = try catalog.run(["export", "", "--stock", "--store", "paris"])
        #expect(parisOnly.standardOutput.split(whereSeparator: \.isNewline) == ["productId,store,quantity", "A-2,PARIS,2"], "\(parisOnly.standardOutput)")

        try Data("productId,quantity\nA-1,3\n".utf8).write(to: URL(fileURLWithPath: directory + "/bad.csv"))
        let refused = try catalog.run(["import-stock", "bad.csv"])
        #expect(refused.status != 0 && refused.standardError.contains("the header has no column for store"), "\(refused.standardError)")
        #expect(refused.standardError.contains("The stock was not changed"), "\(refused.standardError)")

        // A file whose every row names an unknown product would empty the stock: refused unless asked.
        try Data("productId,store,quantity\nNO-SUCH-1,Berlin,3\n".utf8).write(to: URL(fileURLWithPath: directory + "/unknown.csv"))
        let unknown = try catalog.run(["import-stock", "unknown.csv"])
        #expect(unknown.status == 1 && unknown.standardError.contains("--allow-empty"), "\(unknown.standardError)")
        #expect(try catalog.run(["search", "", "--store", "paris"]).standardOutput.contains("A-2"))
        #expect(try catalog.run(["import-stock", "unknown.csv", "--allow-empty"]).status == 0)
        #expect(!(try catalog.run(["search", "", "--store", "paris"]).standardOutput.contains("A-2")))
    }
}

/// `kill -9` a stock import at different moments: the catalog passes SQLite's integrity check,
/// holds exactly the old stock or the new, answers a search by store, and the next stock import
/// works without anyone cleaning up.
@Suite struct InterruptedStockImportTests {
    static let moments = [
        InterruptedImportTests.Moment(phase: "loading", count: 1), InterruptedImportTests.Moment(phase: "writing", count: 1),
        InterruptedImportTests.Moment(phase: "writing", count: 2), InterruptedImportTests.Moment(phase: "finishing", count: 1),
    ]

    /// The stock rows and their quantities' sum, of a catalog that passes `PRAGMA integrity_check`
    /// (opened for writing first, as the next command does, which rolls back a hot journal).
    static func checkedStock(_ path: String) throws -> [Int64] {
        _ = try Connection(path: path, mode: .readWrite).scalarInt("SELECT count(*) FROM sqlite_master")
        let database = try Connection(path: path, mode: .readOnly)
        #expect(try database.scalarText("PRAGMA integrity_check") == "ok")
        return [try database.scalarInt("SELECT count(*) FROM stock") ?? -1, try database.scalarInt("SELECT total(quantity) FROM stock") ?? -1]
    }

    @Test(arguments: moments)
    func aKilledStockImportLeavesTheOldStockOrTheNew(moment: InterruptedImportTests.Moment) throws {
        let catalog = try CommandRunner()
        let directory = catalog.directory
        let products = (0..<3_000).map { "P-\($0)" }
        func write(_ name: String, stores: Int, quantity: (Int, Int) -> Int) throws {
            var text = "productId,store,quantity\n"
            for store in 0..<stores { for (index, product) in products.enumerated() { text += "\(product),S\(store),\(quantity(store, index))\n" } }
            try Data(text.utf8).write(to: URL(fileURLWithPath: directory + "/" + name))
        }
        try Data(("productId,title\n" + products.map { "\($0),Mug \($0)\n" }.joined()).utf8).write(to: URL(fileURLWithPath: directory + "/products.csv"))
        try write("old.csv", stores: 2) { _, _ in 1 }
        try write("new.csv", stores: 100) { store, index in (store + index) % 4 }
        #expect(try catalog.run(["import", "products.csv"]).status == 0)
        #expect(try catalog.run(["import-stock", "old.csv"]).status == 0)
        let old = try Self.checkedStock(directory + "/catalog.sqlite")
        #expect(old == [6_000, 6_000])

        let (process, killed) = try InterruptedImportTests.runAndKill(["import-stock", "new.csv", "--json"], in: directory, at: moment)
        if killed { #expect(process.terminationReason == .uncaughtSignal) }
        let search = try catalog.run(["search", "", "--store", "S1", "--json"])
        #expect(search.status == 0, "\(search.standardError)")
        let after = try Self.checkedStock(directory + "/catalog.sqlite")
        var sum: Int64 = 0
        for store in 0..<100 { for index in 0..<3_000 { sum += Int64((store + index) % 4) } }
        let new: [Int64] = [300_000, sum]
        #expect(after == old || after == new, "\(after)")

        let again = try catalog.run(["import-stock", "new.csv"])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(try Self.checkedStock(directory + "/catalog.sqlite") == new)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.contains(".importing") || $0.hasSuffix("-journal") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }
}
