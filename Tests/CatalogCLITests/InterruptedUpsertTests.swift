import Foundation
import ProductCatalog
import Testing

/// `kill -9` an upsert that writes into the live catalog, whose segment takes in what another
/// program changed (1,100 titles) and which then does its share of merging the index's segments:
/// the catalog must pass SQLite's integrity check and hold the products before the upsert or after
/// it, with a word index that finds exactly the products whose titles hold a word, and the next
/// upsert must work without anyone cleaning up.
@Suite struct InterruptedUpsertTests {
    static let moments = [
        InterruptedImportTests.Moment(phase: "loading", count: 1), InterruptedImportTests.Moment(phase: "writing", count: 1),
        InterruptedImportTests.Moment(phase: "finishing", count: 1),
    ]

    @Test(arguments: moments)
    func aKilledUpsertLeavesTheProductsBeforeOrAfterItWithTheirIndex(moment: InterruptedImportTests.Moment) throws {
        let catalog = try CommandRunner()
        let directory = catalog.directory
        let path = directory + "/catalog.sqlite"
        #expect(try catalog.run(["generate", "--rows", "20000", "--seed", "6", "--output", "base.csv"]).status == 0)
        #expect(try catalog.run(["import", "base.csv"]).status == 0)
        // Another program edits 1,100 titles: the next upsert's segment holds them, which takes a
        // share of the base large enough for merges to follow.
        do {
            let other = try Connection(path: path, mode: .readWrite)
            try other.execute("UPDATE products SET title = title || ' Edited' WHERE productId IN (SELECT productId FROM products ORDER BY productId LIMIT 1100)")
        }
        // 34 rows of the file, each given a new title word.
        let lines = try String(contentsOfFile: directory + "/base.csv", encoding: .utf8).split(separator: "\n").map(String.init)
        let header = lines[0].split(separator: ",").map(String.init)
        let title = try #require(header.firstIndex(of: "title"))
        var upsert = [lines[0]]
        for line in lines.dropFirst().enumerated().filter({ $0.offset % 600 == 0 }).map(\.element) {
            var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == header.count, !fields[title].contains("\"") else { continue }
            fields[title] += " Renewed"
            upsert.append(fields.joined(separator: ","))
        }
        try (upsert.joined(separator: "\n") + "\n").write(toFile: directory + "/up.csv", atomically: true, encoding: .utf8)
        let changed = upsert.count - 1
        #expect(changed > 20)

        let (process, killed) = try InterruptedImportTests.runAndKill(["import", "up.csv", "--mode", "upsert", "--json"], in: directory, at: moment)
        if killed { #expect(process.terminationReason == .uncaughtSignal || process.terminationStatus == 0) }
        #expect(try InterruptedImportTests.checkedCount(path) == 20_000)
        let renewed = try Self.titlesHolding("Renewed", path)
        #expect(renewed == 0 || renewed == changed, "the upsert's rows all or none: \(renewed)")
        try Self.expectTheIndexFinds(["Renewed", "Edited"], path)

        // The next upsert needs no cleanup.
        let again = try catalog.run(["import", "up.csv", "--mode", "upsert"])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(try InterruptedImportTests.checkedCount(path) == 20_000)
        #expect(try Self.titlesHolding("Renewed", path) == changed)
        try Self.expectTheIndexFinds(["Renewed", "Edited"], path)
    }

    /// How many products' titles hold `word` as a word of their own.
    static func titlesHolding(_ word: String, _ path: String) throws -> Int {
        let database = try Connection.reading(path)
        return Int(try database.scalarInt("SELECT count(*) FROM products WHERE ' ' || title || ' ' LIKE '% \(word) %'") ?? -1)
    }

    /// A search for each of `words` (as typed, no typos) finds as many products as hold it.
    static func expectTheIndexFinds(_ words: [String], _ path: String) throws {
        let search = try ProductSearch(databasePath: path)
        for word in words {
            #expect(try search.count(query: word, typos: false) == titlesHolding(word, path), "\(word)")
        }
    }
}
