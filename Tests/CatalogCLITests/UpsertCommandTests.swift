import Foundation
import TestSupport
import Testing

/// `catalog import --mode upsert` as a person runs it, with and without `--delete-missing`.
@Suite struct UpsertCommandTests {
    @Test func anUpsertSaysWhatItAddedUpdatedAndDeleted() throws {
        let catalog = try CommandRunner()
        let directory = catalog.directory
        try Data("productId,title,listPrice\nA-1,Mug,5.00\nA-2,Cup,4.00\nA-3,Plate,9.00\n".utf8)
            .write(to: URL(fileURLWithPath: directory + "/old.csv"))
        try Data("productId,title,listPrice\nA-2,Cup,4.50\nA-4,Bowl,7.00\n".utf8)
            .write(to: URL(fileURLWithPath: directory + "/delta.csv"))
        #expect(try catalog.run(["import", "old.csv"]).status == 0)

        let refused = try catalog.run(["import", "delta.csv", "--delete-missing"])
        #expect(refused.status == 2 && refused.standardError.contains("--delete-missing needs --mode upsert"), "\(refused.standardError)")

        // Two of three products would go: more than the tenth allowed without --max-deletes.
        let limited = try catalog.run(["import", "delta.csv", "--mode", "upsert", "--delete-missing"])
        #expect(limited.status == 1 && limited.standardError.contains("leaves out 2 of the catalog's 3 products")
                && limited.standardError.contains("--max-deletes 2"), "\(limited.standardError)")
        let headerOnly = directory + "/header.csv"
        try Data("productId,title\n".utf8).write(to: URL(fileURLWithPath: headerOnly))
        let empty = try catalog.run(["import", headerOnly, "--mode", "upsert", "--delete-missing"])
        #expect(empty.status == 1 && empty.standardError.contains("--allow-empty"), "\(empty.standardError)")
        #expect(try catalog.run(["import", "delta.csv", "--max-deletes", "5"]).status == 2)

        let upsert = try catalog.run(["import", "delta.csv", "--mode", "upsert", "--delete-missing", "--max-deletes", "67%", "--json"])
        #expect(upsert.status == 0, "\(upsert.standardError)")
        let finished = try #require(upsert.standardOutput.split(separator: "\n").last)
        let event = try #require(try JSONSerialization.jsonObject(with: Data(finished.utf8)) as? [String: Any])
        #expect(event["rowsDeleted"] as? Int == 2 && event["rowsUpdated"] as? Int == 1 && event["productsInCatalog"] as? Int == 2)

        let listed = try catalog.run(["search", "", "--json"])
        #expect(listed.standardOutput.contains("\"A-2\"") && listed.standardOutput.contains("\"A-4\"") && !listed.standardOutput.contains("\"A-1\""))

        let again = try catalog.run(["import", "old.csv", "--mode", "upsert"])
        #expect(again.standardOutput.contains("Added: 2, updated: 1; the catalog now holds 4 products."), "\(again.standardOutput)")
    }
}
