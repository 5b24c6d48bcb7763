import Foundation
import TestSupport
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

        try Data("productId,quantity\nA-1,3\n".utf8).write(to: URL(fileURLWithPath: directory + "/bad.csv"))
        let refused = try catalog.run(["import-stock", "bad.csv"])
        #expect(refused.status != 0 && refused.standardError.contains("the header has no column for store"), "\(refused.standardError)")
        #expect(refused.standardError.contains("The stock was not changed"), "\(refused.standardError)")
    }
}
