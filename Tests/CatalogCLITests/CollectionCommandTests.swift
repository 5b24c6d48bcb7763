import Foundation
import TestSupport
import ProductCatalog
import Testing

/// `catalog collections` and `--collection`, as a person runs them: make, fill, list, browse,
/// export and import back, delete; and the errors that say what to do.
@Suite struct CollectionCommandTests {
    @Test func collectionsAreMadeFilledBrowsedExportedAndImportedBack() throws {
        let catalog = try CommandRunner()
        let directory = catalog.directory
        try Data("productId,title,listPrice,color\nA-1,Linen Shirt,12.00,Navy\nA-2,Linen Dress,40.00,Sand\nA-3,Wool Scarf,15.00,Navy\nA-4,Linen Tote,9.00,Navy\n".utf8)
            .write(to: URL(fileURLWithPath: directory + "/products.csv"))
        #expect(try catalog.run(["import", "products.csv"]).status == 0)

        let made = try catalog.run(["collections", "create", "Summer"])
        #expect(made.status == 0 && made.standardOutput.contains("Made Summer, a manual collection"), "\(made.standardOutput)\(made.standardError)")
        let added = try catalog.run(["collections", "add", "summer", "a-1", "A-3", "NOPE"])
        #expect(added.status == 0 && added.standardOutput.contains("Put 2 in summer"), "\(added.standardOutput)")
        #expect(added.standardError.contains("No product has productId \"NOPE\"; they were left out."), "\(added.standardError)")
        let smart = try catalog.run(["collections", "create", "Cheap linen", "linen", "--max-price", "20", "--sort", "price"])
        #expect(smart.standardOutput.contains("a smart collection: q=linen&maxPrice=20.00&sort=price"), "\(smart.standardOutput)")

        let listed = try catalog.run(["collections", "list"])
        #expect(listed.standardOutput == "Cheap linen: smart: q=linen&maxPrice=20.00&sort=price\nSummer: 2 products\n", "\(listed.standardOutput)")
        let json = try catalog.run(["collections", "list", "--json"])
        let collections = try #require((try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])?["collections"] as? [[String: Any]])
        #expect(collections.map { $0["kind"] as? String } == ["smart", "manual"] && collections[1]["products"] as? Int == 2)

        let summer = try catalog.run(["search", "--collection", "SUMMER", "--json"])
        #expect(Self.ids(summer.standardOutput) == ["A-1", "A-3"], "\(summer.standardOutput)")
        let navyLinen = try catalog.run(["search", "linen", "--collection", "Summer", "--json"])
        #expect(Self.ids(navyLinen.standardOutput) == ["A-1"])
        // A smart collection lists what its search finds, in its order, and follows the catalog.
        #expect(Self.ids(try catalog.run(["search", "--collection", "cheap linen", "--json"]).standardOutput) == ["A-4", "A-1"])
        let mixed = try catalog.run(["search", "wool", "--collection", "Cheap linen"])
        #expect(mixed.status == 1 && mixed.standardError.contains("is a smart collection, which brings its own search"), "\(mixed.standardError)")

        // The members export as the file collections import reads; the products as catalog import reads.
        let exported = try catalog.run(["collections", "export", "--output", "members.csv"])
        #expect(exported.status == 0 && exported.standardError.contains("Exported 2 collection members"), "\(exported.standardError)")
        let members = try String(contentsOfFile: directory + "/members.csv", encoding: .utf8)
        #expect(members.split(whereSeparator: \.isNewline) == ["collection,productId", "Summer,A-1", "Summer,A-3"], "\(members)")
        let products = try catalog.run(["export", "--collection", "Cheap linen"])
        #expect(products.standardOutput.split(whereSeparator: \.isNewline).map { $0.prefix(4) } == ["prod", "A-4,", "A-1,"], "\(products.standardOutput)")

        #expect(try catalog.run(["collections", "delete", "summer"]).status == 0)
        #expect(try catalog.run(["collections", "list"]).standardOutput == "Cheap linen: smart: q=linen&maxPrice=20.00&sort=price\n")
        try Data((members + "Summer,B-9\nCheap linen,A-2\n").utf8).write(to: URL(fileURLWithPath: directory + "/back.csv"))
        let imported = try catalog.run(["collections", "import", "back.csv"])
        #expect(imported.standardOutput.contains("Read 4 rows naming 2 collections (1 new): 2 products put in, 0 already there, 2 rejected (1 naming a product the catalog does not hold)."),
                "\(imported.standardOutput)")
        #expect(imported.standardOutput.contains("  line 4: no product has productId \"B-9\" in the catalog\n"), "\(imported.standardOutput)")
        let rejects = try String(contentsOfFile: directory + "/catalog.sqlite.collection-rejects.csv", encoding: .utf8)
        #expect(rejects.contains("4,\"no product has productId \"\"B-9\"\" in the catalog\",Summer,B-9"), "\(rejects)")
        #expect(rejects.contains("5,\"\"\"Cheap linen\"\" is a smart collection"), "\(rejects)")
        #expect(Self.ids(try catalog.run(["search", "--collection", "Summer", "--json"]).standardOutput) == ["A-1", "A-3"])

        // Errors that say what to do.
        let missing = try catalog.run(["collections", "add", "Winter", "A-1"])
        #expect(missing.status == 1 && missing.standardError.contains("no collection is named \"Winter\"; `catalog collections list` shows their names"), "\(missing.standardError)")
        let twice = try catalog.run(["collections", "create", "CHEAP LINEN"])
        #expect(twice.status == 1 && twice.standardError.contains("a collection named \"Cheap linen\" exists already"), "\(twice.standardError)")
        let intoSmart = try catalog.run(["collections", "add", "Cheap linen", "A-2"])
        #expect(intoSmart.status == 1 && intoSmart.standardError.contains("is a smart collection"), "\(intoSmart.standardError)")
        let header = try catalog.run(["collections", "import", "products.csv"])
        #expect(header.status == 1 && header.standardError.contains("a collection file needs the columns collection and productId"), "\(header.standardError)")
    }

    @Test func aFeedsTagsBecomeCollections() throws {
        let catalog = try CommandRunner()
        try Data("Handle,Title,Tags,Variant Price\nlinen-shirt,Linen Shirt,\"summer, linen\",12.00\nwool-scarf,Wool Scarf,winter,15.00\n".utf8)
            .write(to: URL(fileURLWithPath: catalog.directory + "/shopify.csv"))
        #expect(try catalog.run(["import", "shopify.csv"]).status == 0)
        let made = try catalog.run(["collections", "from-column", "tags"])
        #expect(made.standardOutput == "Put 3 products into 3 collections (3 new) from the column tags.\n", "\(made.standardOutput)\(made.standardError)")
        #expect(try catalog.run(["collections", "list"]).standardOutput == "linen: 1 product\nsummer: 1 product\nwinter: 1 product\n")
        #expect(Self.ids(try catalog.run(["search", "--collection", "winter", "--json"]).standardOutput) == ["wool-scarf"])
        let missing = try catalog.run(["collections", "from-column", "Labels"])
        #expect(missing.status == 1 && missing.standardError.contains("the catalog has no column \"Labels\"; its columns are title, listPrice"), "\(missing.standardError)")
    }

    static func ids(_ json: String) -> [String] {
        let page = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any]
        return (page?["products"] as? [[String: Any]] ?? []).compactMap { $0["productId"] as? String }
    }
}
