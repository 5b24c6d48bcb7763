import Foundation
import ProductCatalog
import Testing

@Suite struct CatalogCommandTests {
    let directory: String
    let catalog: CommandRunner

    init() throws {
        catalog = try CommandRunner()
        directory = catalog.directory
    }

    func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func generatesImportsAndPagesThroughExactlyWhatSQLiteFinds() throws {
        let generated = try catalog.run(["generate", "--rows", "3000", "--seed", "9", "--output", "products.csv"])
        #expect(generated.status == 0, "\(generated.standardError)")

        let imported = try catalog.run(["import", "products.csv"])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("Imported 3,000 products into catalog.sqlite"))
        // Not a terminal: plain progress lines, no carriage returns.
        #expect(!imported.standardError.contains("\r"))

        let database = try Connection(path: directory + "/catalog.sqlite", mode: .readOnly)
        let firstId = try #require(try database.scalarText("SELECT productId FROM products LIMIT 1 OFFSET 1234"))
        for prefix in ["", String(firstId.prefix(1)).lowercased(), String(firstId.prefix(3))] {
            var expected: [String] = []
            let query = try database.prepare("SELECT productId FROM products WHERE productId LIKE ?1 ESCAPE '\\' ORDER BY productId")
            try query.bind(1, prefix + "%")
            while try query.step() { expected.append(query.text(at: 0)!) }

            var seen: [String] = []
            var arguments = ["search", "--prefix", prefix, "--json", "--limit", "500"]
            while true {
                let page = try catalog.run(arguments)
                #expect(page.status == 0, "\(page.standardError)")
                let object = try json(page.standardOutput)
                let products = try #require(object["products"] as? [[String: Any]])
                seen += products.compactMap { $0["productId"] as? String }
                guard let next = object["nextCursor"] as? String else { break }
                arguments = ["search", "--prefix", prefix, "--json", "--limit", "500", "--after", next]
            }
            #expect(seen == expected, "prefix \(prefix)")
        }
    }

    @Test func anExportImportsBackIntoTheSameCatalog() throws {
        #expect(try catalog.run(["generate", "--rows", "1200", "--seed", "4", "--output", "products.csv"]).status == 0)
        #expect(try catalog.run(["import", "products.csv"]).status == 0)
        // More than one batch of 500, written to a file, then read back by an import.
        let exported = try catalog.run(["export", "", "--output", "exported.csv"])
        #expect(exported.status == 0, "\(exported.standardError)")
        #expect(exported.standardError.contains("Exported 1,200 products to exported.csv."))
        #expect(try catalog.run(["import", "exported.csv", "--db", "copy.sqlite"]).status == 0)
        let again = try catalog.run(["export", "", "--db", "copy.sqlite"])
        #expect(again.status == 0)
        #expect(again.standardOutput == (try String(contentsOfFile: directory + "/exported.csv", encoding: .utf8)))
        // JSON, with a query and a sort: the products catalog search lists, all of them.
        let shirts = try catalog.run(["export", "shirt", "--sort", "price", "--format", "json"])
        let products = try #require(try json(shirts.standardOutput)["products"] as? [[String: Any]])
        let listed = try catalog.run(["search", "shirt", "--sort", "price", "--json", "--limit", "1000"])
        let page = try #require(try json(listed.standardOutput)["products"] as? [[String: Any]])
        #expect(!products.isEmpty)
        #expect(products.compactMap { $0["productId"] as? String } == page.compactMap { $0["productId"] as? String })
    }

    @Test func jsonImportPrintsProgressEventsThenTheFinishedCounts() throws {
        try Data("sku,name,price\nA1,one,1.50\nA2,two,x\nA1,again,2\n".utf8).write(to: URL(fileURLWithPath: directory + "/p.csv"))
        let result = try catalog.run(["import", "p.csv", "--json"])
        #expect(result.status == 0)
        let events = try result.standardOutput.split(separator: "\n").map { try json(String($0)) }
        #expect(events.dropLast().allSatisfy { $0["event"] as? String == "progress" })
        let finished = try #require(events.last)
        #expect(finished["event"] as? String == "finished")
        #expect(finished["rowsInserted"] as? Int == 1)
        #expect(finished["rowsRejected"] as? Int == 1)
        #expect(finished["duplicates"] as? Int == 1)
        #expect(finished["seconds"] is Double)
    }

    @Test func searchPrintsATableAndTheCommandForTheNextPage() throws {
        try Data("sku,name,price,sale_price\nAB1,One,12.50,9.99\nab2,Two,3,\nAB3,Three,4,\n".utf8).write(to: URL(fileURLWithPath: directory + "/p.csv"))
        #expect(try catalog.run(["import", "p.csv"]).status == 0)
        let result = try catalog.run(["search", "ab", "--limit", "2"])
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("productId"))
        #expect(lines[2].hasPrefix("AB1") && lines[2].contains("12.50") && lines[2].contains("9.99"))
        #expect(lines[3].hasPrefix("ab2"))
        let next = try #require(lines.last)
        #expect(next.hasPrefix("Next page: catalog search ab --limit 2 --after "))
        let cursor = String(next.split(separator: " ").last!)
        let second = try catalog.run(["search", "ab", "--limit", "2", "--after", cursor])
        #expect(second.standardOutput.contains("AB3") && second.standardOutput.contains("(end of results)"))
    }

    @Test func searchFiltersCarryOverToTheNextPageAndFacetsCountTheMatches() throws {
        let csv = """
            productId,title,listPrice,salesPrice,color,size
            P1,Linen Shirt,40,29.99,Navy,M
            P2,Linen Dress,80,,Black,S
            P3,Linen Cap,20,,navy,
            P4,Linen Towel,12,,Navy,M

            """
        try Data(csv.utf8).write(to: URL(fileURLWithPath: directory + "/f.csv"))
        #expect(try catalog.run(["import", "f.csv"]).status == 0)
        let first = try catalog.run(["search", "linen", "--color", "NAVY", "--max-price", "30", "--limit", "2", "--facets"])
        #expect(first.status == 0, "\(first.standardError)")
        let lines = first.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines[2].hasPrefix("P1") && lines[3].hasPrefix("P3"))
        let next = try #require(lines.first { $0.hasPrefix("Next page: ") })
        #expect(next.hasPrefix("Next page: catalog search linen --color NAVY --max-price 30 --facets --limit 2 --after "))
        #expect(lines.contains("Counts among all 3 matches:"))
        #expect(lines.contains { $0.hasPrefix("  color") && $0.hasSuffix("Navy 3") })
        #expect(lines.contains { $0.hasPrefix("  size") && $0.hasSuffix("M 2 · none 1") })
        let cursor = String(next.split(separator: " ").last!)
        let second = try catalog.run(["search", "linen", "--color", "NAVY", "--max-price", "30", "--limit", "2", "--after", cursor])
        #expect(second.standardOutput.split(separator: "\n")[2].hasPrefix("P4"))

        let json = try catalog.run(["search", "", "--on-sale", "--facets", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
        #expect((object?["products"] as? [[String: Any]])?.map { $0["productId"] as? String } == ["P1"])
        #expect((object?["facets"] as? [String: Any])?["counted"] as? Int == 1)

        let bad = try catalog.run(["search", "linen", "--min-price", "4,99"])
        #expect(bad.status == 2)
        #expect(bad.standardError.contains("--min-price 4,99 is not a price"))
    }

    @Test func failuresExitWithOneAndAMessageOnStandardError() throws {
        let missing = try catalog.run(["import", "nope.csv"])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("nope.csv: no such file"))

        let noCatalog = try catalog.run(["search", "a"])
        #expect(noCatalog.status == 1)
        #expect(noCatalog.standardError.contains("no catalog here yet"))

        try Data("name\nx\n".utf8).write(to: URL(fileURLWithPath: directory + "/nokey.csv"))
        let noKey = try catalog.run(["import", "nokey.csv"])
        #expect(noKey.status == 1)
        #expect(noKey.standardError.contains("no productId column"))
    }

    @Test(arguments: [
        ["import"], ["search", "--limit", "0"], ["search", "--after", "%%%"], ["import", "x.csv", "--column", "nonsense=X"],
        ["import", "x.csv", "--on-duplicate", "sometimes"], ["frobnicate"],
    ])
    func aWrongCommandLineExitsWithTwo(arguments: [String]) throws {
        let result = try catalog.run(arguments)
        #expect(result.status == 2, "\(arguments): \(result.standardError)")
        #expect(!result.standardError.isEmpty)
    }

    @Test func importReadsStandardInput() throws {
        let result = try catalog.run(["import", "-"], input: Data("sku,name\nS1,from a pipe\n".utf8))
        #expect(result.status == 0, "\(result.standardError)")
        let search = try catalog.run(["search", "s", "--json"])
        #expect(search.standardOutput.contains("\"title\":\"from a pipe\""))
    }

    @Test func helpExplainsEachCommand() throws {
        let root = try catalog.run(["--help"])
        #expect(root.status == 0)
        for command in ["import", "search", "generate"] { #expect(root.standardOutput.contains(command)) }
        let help = try catalog.run(["import", "--help"])
        #expect(help.standardOutput.contains("Import a product CSV file into the catalog."))
        #expect(help.standardOutput.contains("--column <field=header>"))
        #expect(help.standardOutput.contains("--on-duplicate"))
    }

    @Test func generateWritesTheSameBytesForTheSameSeed() throws {
        let first = try catalog.run(["generate", "--rows", "200", "--seed", "3"])
        let second = try catalog.run(["generate", "--rows", "200", "--seed", "3"])
        let other = try catalog.run(["generate", "--rows", "200", "--seed", "4"])
        #expect(first.status == 0)
        #expect(first.standardOutput == second.standardOutput)
        #expect(first.standardOutput != other.standardOutput)
        #expect(first.standardOutput.hasPrefix("productId,title,listPrice,salesPrice,color,size\n"))
    }
}
