import Foundation
import ProductCatalog
@testable import ProductCatalogPostgres
import Testing

/// `catalog import`, `search` and a killed import with `--db postgres://…`, against the server
/// `PRODUCTCATALOG_TEST_POSTGRES` names (as `.ci/run` sets it); skipped without one.
/// The server `.ci/run` starts, if any.
private let testServer = ProcessInfo.processInfo.environment["PRODUCTCATALOG_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }

@Suite(.enabled(if: testServer != nil,
                "no PostgreSQL server: set PRODUCTCATALOG_TEST_POSTGRES=postgres://user@host:port/database (bash .ci/run starts one)"))
struct PostgresCommandTests {
    /// A `--db` URL for a schema of its own.
    static func freshCatalog() throws -> String {
        let server = try #require(testServer)
        let schema = "pc_cli_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16)
        return server + (server.contains("?") ? "&" : "?") + "schema=" + schema
    }

    static func products(in url: String) async throws -> Int {
        let search = try await PostgresProductSearch.open(try PostgresLocation(url: url))
        let count = try await search.productCount()
        await search.close()
        return count
    }

    static func drop(_ url: String) async throws {
        let location = try PostgresLocation(url: url)
        let session = try await PostgresSession.open(location)
        try await session.execute("DROP SCHEMA IF EXISTS \(PostgresSchema.quote(location.schema)) CASCADE", doing: "drop the test schema")
        await session.close()
    }

    @Test func importThenPageThroughEverySearchResult() async throws {
        let catalog = try CommandRunner()
        let db = try Self.freshCatalog()
        #expect(try catalog.run(["generate", "--rows", "3000", "--seed", "9", "--output", "feed.csv"]).status == 0)
        let imported = try catalog.run(["import", "feed.csv", "--db", db])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("Imported 3,000 products into postgres://"))

        var ids: [String] = []
        var arguments = ["search", "", "--db", db, "--limit", "250", "--json"]
        while true {
            let result = try catalog.run(arguments)
            #expect(result.status == 0, "\(result.standardError)")
            let page = try JSONDecoder().decode(SearchPage.self, from: Data(result.standardOutput.utf8))
            ids += page.products.map(\.productId)
            guard let next = page.nextCursor else { break }
            arguments = ["search", "", "--db", db, "--limit", "250", "--json", "--after", next.description]
        }
        #expect(ids.count == 3000)
        #expect(ids == ids.sorted { $0.lowercased().utf8.lexicographicallyPrecedes($1.lowercased().utf8) })

        let table = try catalog.run(["search", "a", "--db", db, "--limit", "5"])
        #expect(table.standardOutput.contains("Next page: catalog search a --db"))
        let missing = try catalog.run(["search", "x", "--db", "postgres://nobody@127.0.0.1:1/none"])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("cannot connect"))
        let wrong = try catalog.run(["search", "x", "--db", "postgres://h/db?colour=blue"])
        #expect(wrong.status == 2)
        // Collections are kept on PostgreSQL as in a file: made, filled from a file, searched, exported.
        let unknown = try catalog.run(["search", "a", "--collection", "Summer", "--db", db])
        #expect(unknown.status == 1 && unknown.standardError.contains("no collection is named"), "\(unknown.standardError)")
        try "collection,productId\nSummer,\(ids[0])\nSummer,\(ids[1])\nSummer,NOPE\n".write(toFile: catalog.directory + "/members.csv", atomically: true, encoding: .utf8)
        #expect(try catalog.run(["collections", "create", "Summer", "--db", db]).status == 0)
        let filled = try catalog.run(["collections", "import", "members.csv", "--rejects", "members-rejects.csv", "--db", db])
        #expect(filled.status == 0 && filled.standardOutput.contains("2 products put in"), "\(filled.standardOutput) \(filled.standardError)")
        #expect(try String(contentsOfFile: catalog.directory + "/members-rejects.csv", encoding: .utf8).contains("NOPE"))
        let listed = try catalog.run(["collections", "list", "--db", db])
        #expect(listed.status == 0 && listed.standardOutput.contains("Summer"), "\(listed.standardOutput)")
        let searched = try catalog.run(["search", "", "--collection", "summer", "--db", db, "--json"])
        #expect(try JSONDecoder().decode(SearchPage.self, from: Data(searched.standardOutput.utf8)).products.map(\.productId).sorted() == [ids[0], ids[1]].sorted())
        let exported = try catalog.run(["collections", "export", "--db", db])
        #expect(exported.standardOutput.contains("Summer,\(ids[0])"), "\(exported.standardOutput)")
        // Sorted as a catalog file sorts: the same file imported into one lists the same products.
        #expect(try catalog.run(["import", "feed.csv", "--db", "catalog.sqlite"]).status == 0)
        // Stock by store is kept on PostgreSQL as in a file: imported, searched by store, exported.
        let stock = "productId,store,quantity\n\(ids[0]),Berlin,3\n\(ids[1]),berlin,0\n\(ids[1]),Paris,2\n\(ids[2]),Paris,x\nNOPE,Paris,1\n"
        try stock.write(toFile: catalog.directory + "/stock.csv", atomically: true, encoding: .utf8)
        for database in [db, "catalog.sqlite"] {
            let imported = try catalog.run(["import-stock", "stock.csv", "--db", database])
            #expect(imported.status == 0 && imported.standardOutput.contains("written: 3, rejected: 2"), "\(imported.standardOutput) \(imported.standardError)")
            #expect(imported.standardOutput.contains(".stock-rejects.csv"), "\(imported.standardOutput)")
        }
        for arguments in [["search", "a", "--sort", "price", "--json"], ["search", "jacket", "--sort=-price", "--json", "--limit", "7"],
                          ["export", "a", "--sort", "title"], ["export", "", "--sort", "newest"],
                          ["search", "", "--store", "paris", "--json"], ["search", "", "--in-stock", "--json", "--limit", "30"],
                          ["export", "", "--stock", "--sort", "title"], ["export", "", "--store", "Berlin"]] {
            let onServer = try catalog.run(arguments + ["--db", db])
            let inFile = try catalog.run(arguments + ["--db", "catalog.sqlite"])
            #expect(onServer.status == 0 && !onServer.standardOutput.isEmpty, "\(arguments): \(onServer.standardError)")
            #expect(onServer.standardOutput == inFile.standardOutput, "\(arguments)")
        }
        try await Self.drop(db)
    }

    @Test(arguments: InterruptedImportTests.moments)
    func aKilledImportLeavesTheOldCatalogOrTheNewOne(moment: InterruptedImportTests.Moment) async throws {
        let catalog = try CommandRunner()
        let db = try Self.freshCatalog()
        #expect(try catalog.run(["generate", "--rows", "500", "--seed", "6", "--output", "old.csv"]).status == 0)
        #expect(try catalog.run(["generate", "--rows", "120000", "--seed", "5", "--output", "new.csv"]).status == 0)
        #expect(try catalog.run(["import", "old.csv", "--db", db]).status == 0)

        let (process, killed) = try InterruptedImportTests.runAndKill(
            ["import", "new.csv", "--db", db, "--json", "--sort-memory", "2"], in: catalog.directory, at: moment)
        if killed { #expect(process.terminationReason == .uncaughtSignal) }
        let count = try await Self.products(in: db)
        #expect(count == 500 || count == 120_000)

        // The server drops the killed import's lock with its connection; the next import needs no cleanup.
        let again = try catalog.run(["import", "new.csv", "--db", db])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(try await Self.products(in: db) == 120_000)
        try await Self.drop(db)
    }

    /// An upsert killed while its `INSERT … ON CONFLICT` runs on the server: the server ends that
    /// statement when it finds the client gone, so the next import gets the lock without waiting it out.
    @Test func anUpsertWithDeleteMissingLeavesTheFilesProducts() async throws {
        let catalog = try CommandRunner()
        let db = try Self.freshCatalog()
        try Data("productId,title,listPrice\nA-1,Mug,5.00\nA-2,Cup,4.00\nA-3,Plate,9.00\n".utf8)
            .write(to: URL(fileURLWithPath: catalog.directory + "/old.csv"))
        try Data("productId,title,listPrice\na-2,Cup,4.50\nA-4,Bowl,7.00\n".utf8)
            .write(to: URL(fileURLWithPath: catalog.directory + "/delta.csv"))
        #expect(try catalog.run(["import", "old.csv", "--db", db]).status == 0)
        let limited = try catalog.run(["import", "delta.csv", "--db", db, "--mode", "upsert", "--delete-missing"])
        #expect(limited.status == 1 && limited.standardError.contains("--max-deletes 2"), "\(limited.standardError)")
        let upsert = try catalog.run(["import", "delta.csv", "--db", db, "--mode", "upsert", "--delete-missing", "--max-deletes", "2"])
        #expect(upsert.status == 0, "\(upsert.standardError)")
        #expect(upsert.standardOutput.contains("Added: 1, updated: 1, deleted (not in the file): 2; the catalog now holds 2 products."),
                "\(upsert.standardOutput)")
        let listed = try catalog.run(["search", "", "--db", db, "--json"])
        #expect(listed.standardOutput.contains("\"A-2\"") && listed.standardOutput.contains("\"A-4\"") && !listed.standardOutput.contains("\"A-3\""))
        try await Self.drop(db)
    }

    @Test func aKilledUpsertLetsTheNextImportIn() async throws {
        let catalog = try CommandRunner()
        let db = try Self.freshCatalog()
        #expect(try catalog.run(["generate", "--rows", "120000", "--seed", "6", "--output", "old.csv"]).status == 0)
        #expect(try catalog.run(["generate", "--rows", "120000", "--seed", "5", "--output", "new.csv"]).status == 0)
        #expect(try catalog.run(["import", "old.csv", "--db", db]).status == 0)

        let (process, killed) = try InterruptedImportTests.runAndKill(
            ["import", "new.csv", "--db", db, "--mode", "upsert", "--json"], in: catalog.directory,
            at: InterruptedImportTests.Moment(phase: "finishing", count: 1))
        if killed { #expect(process.terminationReason == .uncaughtSignal) }
        let again = try catalog.run(["import", "old.csv", "--db", db, "--mode", "upsert"])
        #expect(again.status == 0, "\(again.standardError)")
        try await Self.drop(db)
    }
}
