import Foundation
import Testing
import TestSupport
@testable import ProductCatalog

/// An upsert small beside the catalog is written into the live file (``CatalogUpdate``): the
/// file is the same file afterwards, nothing is copied, and every search structure is what a
/// fresh import of the same products builds.
@Suite struct UpsertInPlaceTests {
    static let words = ["linen", "wool", "cotton", "shirt", "trousers", "jacket", "socks", "navy", "scarf", "boots"]
    static let colors = ["Navy", "Black", "Red", ""]

    /// `count` products from `first` on: words, a price and a color that depend on `variant`.
    static func rows(_ range: Range<Int>, variant: Int) -> [String] {
        range.map { index in
            let title = "\(words[(index + variant) % words.count]) \(words[(index * 7 + variant) % words.count]) \(index)"
            let price = String(format: "%d.%02d", 5 + (index + variant) % 90, (index * 13 + variant) % 100)
            return "P-\(String(format: "%05d", index)),\(title),\(price),\(colors[(index + variant) % colors.count])"
        }
    }

    static func csv(_ rows: [String]) -> String {
        "productId,title,listPrice,color\n" + rows.joined(separator: "\n") + "\n"
    }

    @Test func aSmallUpsertChangesTheLiveFileAndMatchesAFreshImport() throws {
        let live = try CatalogFixture()
        try live.importCSV(Self.csv(Self.rows(0..<3_000, variant: 0)))
        let before = try FileManager.default.attributesOfItem(atPath: live.databasePath)[.systemFileNumber] as? Int

        // 300 changed products and 100 new ones, in no order.
        let changes = Array((Self.rows(1_000..<1_300, variant: 5) + Self.rows(3_000..<3_100, variant: 5)).reversed())
        var upsert = live.options
        upsert.mode = .upsert
        let summary = try CatalogImporter(options: upsert).run(source: MemoryByteSource(Self.csv(changes)))
        #expect(summary.rowsInserted == 400 && summary.rowsUpdated == 300 && summary.productsInCatalog == 3_100)
        let after = try FileManager.default.attributesOfItem(atPath: live.databasePath)[.systemFileNumber] as? Int
        #expect(before == after, "the upsert swapped in another file instead of writing the live one")
        #expect(!FileManager.default.fileExists(atPath: live.databasePath + ".importing"))
        #expect(!FileManager.default.fileExists(atPath: live.databasePath + "-journal"))
        // The index's base as the import wrote it, and a segment of the 400 products the upsert changed.
        let connection = try Connection.reading(live.databasePath)
        let segments = try SegmentManifest.entries(connection)
        #expect(segments.map(\.segment) == [0, 1])
        let places = try SegmentPlaces(segment: 1, connection: connection)
        #expect(places.held.count == 400 && places.deleted.isEmpty && places.moved.count == 100)

        let fresh = try CatalogFixture()
        try fresh.importCSV(Self.csv(Self.rows(0..<1_000, variant: 0) + Self.rows(1_000..<1_300, variant: 5)
                                     + Self.rows(1_300..<3_000, variant: 0) + Self.rows(3_000..<3_100, variant: 5)))
        let updated = try ProductSearch(databasePath: live.databasePath)
        let rebuilt = try ProductSearch(databasePath: fresh.databasePath)
        #expect(try live.allProducts(pageSize: 500) == fresh.allProducts(pageSize: 500))
        var navy = SearchFilters()
        navy.colors = ["navy", ""]
        for query in Self.words + ["lin", "sc", "trousers 1", "jacket wool", "cotten", "P-010"] {
            for filters in [SearchFilters(), navy] {
                let one = try updated.allPages(query: query, filters: filters, pageSize: 100)
                let other = try rebuilt.allPages(query: query, filters: filters, pageSize: 100)
                // Changed products keep their places and new ones follow, as in the fresh import.
                #expect(one == other, "\(query)")
                #expect(try updated.countMatches(query: query, filters: filters).count == rebuilt.countMatches(query: query, filters: filters).count)
            }
            #expect(try updated.facets(query: query) == rebuilt.facets(query: query), "\(query)")
        }
        #expect(try updated.facets(query: "") == rebuilt.facets(query: ""))
        #expect(try updated.productTypes() == rebuilt.productTypes())
    }

    /// A product changed by an upsert counts once for each term it has, however often it has it.
    @Test func anUpsertCountsEachTermOncePerProduct() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv(Self.rows(0..<500, variant: 0)))
        func count(_ term: String) throws -> Int64 {
            Int64(try ProductSearch(databasePath: fixture.databasePath).count(query: term, typos: false))
        }
        let woolBefore = try count("wool")
        // 40 changed products whose titles gain "Renewed" (twice in some), and 10 new ones.
        let changed = (Self.rows(100..<140, variant: 0) + Self.rows(500..<510, variant: 0)).enumerated().map { offset, row in
            var fields = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            fields[1] += offset % 2 == 0 ? " Renewed" : " renewed RENEWED"
            return fields.joined(separator: ",")
        }
        var upsert = fixture.options
        upsert.mode = .upsert
        _ = try CatalogImporter(options: upsert).run(source: MemoryByteSource(Self.csv(changed)))
        #expect(try count("renewed") == 50)
        // The changed products that had wool still count once; the new ones with it add theirs.
        let newWool = changed.suffix(10).filter { $0.split(separator: ",")[1].split(separator: " ").contains("wool") }.count
        #expect(changed.prefix(40).contains { $0.split(separator: ",")[1].split(separator: " ").contains("wool") })
        #expect(try count("wool") == woolBefore + Int64(newWool))
    }

    @Test func aLargeUpsertIsWrittenInPlaceTooAndGivesTheSameCatalog() throws {
        let live = try CatalogFixture()
        try live.importCSV(Self.csv(Self.rows(0..<200, variant: 0)))
        let before = try FileManager.default.attributesOfItem(atPath: live.databasePath)[.systemFileNumber] as? Int
        var upsert = live.options
        upsert.mode = .upsert
        let summary = try CatalogImporter(options: upsert).run(source: MemoryByteSource(Self.csv(Self.rows(100..<10_500, variant: 3))))
        #expect(summary.rowsUpdated == 100 && summary.productsInCatalog == 10_500)
        let after = try FileManager.default.attributesOfItem(atPath: live.databasePath)[.systemFileNumber] as? Int
        #expect(before == after, "an upsert writes the live file, whatever its size")
        #expect(!FileManager.default.fileExists(atPath: live.databasePath + ".importing"))
        let fresh = try CatalogFixture()
        try fresh.importCSV(Self.csv(Self.rows(0..<100, variant: 0) + Self.rows(100..<10_500, variant: 3)))
        #expect(try live.allProducts(pageSize: 1_000) == fresh.allProducts(pageSize: 1_000))
        let updated = try ProductSearch(databasePath: live.databasePath)
        let rebuilt = try ProductSearch(databasePath: fresh.databasePath)
        for query in Self.words + ["P-0012", "navy shirt 3"] {
            #expect(try updated.allPages(query: query, pageSize: 500) == rebuilt.allPages(query: query, pageSize: 500), "\(query)")
        }
    }

    /// A new catalog gets small pages; a catalog made with other pages keeps them through upserts of either way.
    @Test func aNewCatalogHasSmallPagesAndAnOlderOneKeepsItsOwn() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv(Self.rows(0..<200, variant: 0)))
        func pageSize() throws -> Int64? {
            try Connection(path: fixture.databasePath, mode: .readOnly).scalarInt("PRAGMA page_size")
        }
        #expect(try pageSize() == 4096)
        // An older catalog: 16 KiB pages (which only a file out of WAL mode can change to).
        try Connection(path: fixture.databasePath, mode: .readWrite).execute("PRAGMA journal_mode = DELETE; PRAGMA page_size = 16384; VACUUM;")
        #expect(try pageSize() == 16_384)
        var upsert = fixture.options
        upsert.mode = .upsert
        // 50 rows, and 10,000 rows into 200 products.
        for rows in [Self.rows(0..<50, variant: 1), Self.rows(100..<10_100, variant: 2)] {
            _ = try CatalogImporter(options: upsert).run(source: MemoryByteSource(Self.csv(rows)))
            #expect(try pageSize() == 16_384)
        }
        #expect(try fixture.allProducts(pageSize: 1_000).count == 10_100)
    }

    /// A feed's descriptions run to a kilobyte or two; a page of 4 KiB keeps at most about 1,000
    /// bytes of a row of the (WITHOUT ROWID) products table and puts the rest on a page of its own,
    /// so such a catalog is made with larger pages.
    @Test func aProductWithAKilobyteAndAHalfOfDescriptionKeepsItInItsPage() throws {
        var fixture = try CatalogFixture()
        fixture.options.sortMemory = 1 << 20  // the fixture's 1 KiB holds no such row
        let description = String(repeating: "Soft brushed cotton, cut long. ", count: 50) + "Machine wash."
        #expect(description.utf8.count == 1_563)
        let rows = (0..<300).map { "D-\(String(format: "%04d", $0)),Shirt \($0),\"\(description)\",12.50" }
        try fixture.importCSV("productId,title,description,listPrice\n" + rows.joined(separator: "\n") + "\n")
        let connection = try Connection(path: fixture.databasePath, mode: .readOnly)
        #expect(try connection.scalarInt("PRAGMA page_size") == 8192)
        #expect(try connection.scalarInt("SELECT count(*) FROM dbstat WHERE name = '\(CatalogSchema.table)' AND pagetype = 'leaf'") ?? 0 > 1)
        #expect(try connection.scalarInt("SELECT count(*) FROM dbstat WHERE name = '\(CatalogSchema.table)' AND pagetype = 'overflow'") == 0)
        let products = try fixture.allProducts(pageSize: 100)
        #expect(products.count == 300 && products.allSatisfy { $0.description == description })
    }

    /// The smallest page that keeps all but one row in 100 whole: 4 KiB for short rows, 8 KiB once
    /// more than one row in 100 is past 4 KiB's quarter, 16 KiB past 8 KiB's.
    @Test func thePageSizeFollowsTheLongestRows() {
        func lengths(_ rows: [(length: Int, count: Int)]) -> RowLengths {
            var lengths = RowLengths()
            for (length, count) in rows { for _ in 0..<count { lengths.add(length) } }
            return lengths
        }
        #expect(CatalogSchema.pageSize(for: RowLengths()) == 4096)
        #expect(CatalogSchema.pageSize(for: lengths([(60, 1_000)])) == 4096)
        #expect(CatalogSchema.pageSize(for: lengths([(60, 990), (1_500, 10)])) == 4096)
        #expect(CatalogSchema.pageSize(for: lengths([(60, 989), (1_500, 11)])) == 8192)
        #expect(CatalogSchema.pageSize(for: lengths([(60, 989), (2_500, 11)])) == 16384)
        #expect(CatalogSchema.pageSize(for: lengths([(60, 500), (1_500, 490), (50_000, 10)])) == 8192)
        #expect(CatalogSchema.longestWholeRow(pageSize: 4096) < 1_000 && CatalogSchema.longestWholeRow(pageSize: 8192) < 2_000)
    }

    @Test(arguments: [false, true]) func deleteMissingMakesTheCatalogEqualToTheFileInEitherWay(large: Bool) throws {
        let live = try CatalogFixture()
        try live.importCSV(Self.csv(Self.rows(0..<2_000, variant: 0)))
        // The file keeps every third product (changing some), drops the rest, and adds new ones;
        // with `large`, it adds enough to be built beside the catalog instead of in place.
        let kept = (0..<2_000).filter { $0 % 3 == 0 }
        let added = 2_000..<(large ? 14_000 : 2_050)
        let file = kept.flatMap { Self.rows($0..<$0 + 1, variant: $0 % 2 == 0 ? 0 : 4) } + Self.rows(added, variant: 1)
        var upsert = live.options
        upsert.mode = .upsert
        upsert.deleteMissing = true
        upsert.maxDeletes = .none
        let summary = try CatalogImporter(options: upsert).run(source: MemoryByteSource(Self.csv(file.reversed())))
        #expect(summary.rowsDeleted == 2_000 - kept.count)
        #expect(summary.rowsUpdated == kept.count && summary.productsInCatalog == kept.count + added.count)

        let fresh = try CatalogFixture()
        try fresh.importCSV(Self.csv(file))
        #expect(try live.allProducts(pageSize: 1_000) == fresh.allProducts(pageSize: 1_000))
        let updated = try ProductSearch(databasePath: live.databasePath)
        let rebuilt = try ProductSearch(databasePath: fresh.databasePath)
        for query in Self.words + ["P-0001", "navy shirt"] {
            #expect(Set(try updated.allPages(query: query, pageSize: 500)) == Set(try rebuilt.allPages(query: query, pageSize: 500)), "\(query)")
            #expect(try updated.facets(query: query) == rebuilt.facets(query: query), "\(query)")
        }
        #expect(try updated.facets(query: "") == rebuilt.facets(query: ""))
    }

    @Test func anUpsertOfRowsEqualToTheCatalogLeavesTheFileAsItWas() throws {
        let live = try CatalogFixture()
        try live.importCSV(Self.csv(Self.rows(0..<1_000, variant: 0)))
        var upsert = live.options
        upsert.mode = .upsert
        // Once, so that anything an upgrade adds is in place; then the same rows again.
        try CatalogImporter(options: upsert).run(source: MemoryByteSource(Self.csv(Self.rows(0..<1_000, variant: 0))))
        let before = try Data(contentsOf: URL(fileURLWithPath: live.databasePath))
        let summary = try CatalogImporter(options: upsert).run(source: MemoryByteSource(Self.csv(Self.rows(100..<600, variant: 0))))
        #expect(summary.rowsUpdated == 500 && summary.productsInCatalog == 1_000)
        #expect(try Data(contentsOf: URL(fileURLWithPath: live.databasePath)) == before, "rows equal to the stored ones were written")
    }


    /// The productIds the word index's change notes hold (``ChangeNotes``).
    static func notes(_ path: String) throws -> [String] {
        try ReplacingImportIndexTests.rows("SELECT productId FROM word_changes ORDER BY productId", in: path)
    }

    @Test(arguments: [false, true])
    func anUpsertWritesASegmentOfWhatItChangedAndSearchesMatchAFreshImport(large: Bool) throws {
        let live = try CatalogFixture()
        try live.importCSV(Self.csv(Self.rows(0..<3_000, variant: 0)))
        // Another program changes a title: its triggers note it as this library's writes do.
        let other = try Connection(path: live.databasePath, mode: .readWrite)
        try other.execute("UPDATE products SET title = 'boots socks scarf linen 17' WHERE productId = 'P-00017'")
        #expect(try Self.notes(live.databasePath) == ["P-00017"])
        // New words in 390 titles, half of them one word longer (a new class), P-00017 among
        // them; 200 new products; with delete-missing, the products the file leaves out go
        // (1,500, or 300 from a file of 2,900 rows).
        func changed(_ row: String, index: Int) -> String {
            var fields = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            fields[1] = index % 2 == 0 ? fields[1] + " extra" : "sewn " + fields[1].split(separator: " ").dropFirst().joined(separator: " ")
            return fields.joined(separator: ",")
        }
        let kept = large ? 0..<2_700 : 0..<1_500
        let file = Self.rows(kept, variant: 0).enumerated().map { index, row in (10..<400).contains(index) ? changed(row, index: index) : row }
            + Self.rows(3_000..<3_200, variant: 7)
        var upsert = live.options
        upsert.mode = .upsert
        upsert.deleteMissing = true
        upsert.maxDeletes = .none
        _ = try CatalogImporter(options: upsert).run(source: MemoryByteSource(Self.csv(file)))
        // The notes are the index's now (a segment, which took so much of the base that its share
        // of merges made a new base of both).
        #expect(try Self.notes(live.databasePath).isEmpty)

        let fresh = try CatalogFixture()
        try fresh.importCSV(Self.csv(file))
        #expect(try live.allProducts(pageSize: 500) == fresh.allProducts(pageSize: 500))
        let updated = try ProductSearch(databasePath: live.databasePath)
        let rebuilt = try ProductSearch(databasePath: fresh.databasePath)
        for query in Self.words + ["extra", "linen extra", "sc", "boots socks scarf", "sewn", "bots", "scraf linen"] {
            #expect(try updated.countMatches(query: query).count == rebuilt.countMatches(query: query).count, "\(query)")
            #expect(try updated.allPages(query: query, pageSize: 300) == rebuilt.allPages(query: query, pageSize: 300), "\(query)")
        }
    }

    @Test func aSearchDuringTheUpsertSeesTheCatalogAsItWasUntilTheCommit() throws {
        let live = try CatalogFixture()
        try live.importCSV(Self.csv(Self.rows(0..<3_000, variant: 0)))
        // Every tenth product with a word added to its title.
        let changes = Self.rows(0..<3_000, variant: 0).enumerated().filter { $0.offset % 10 == 0 }.map { _, row in
            var fields = row.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            fields[1] += " Renewed"
            return fields.joined(separator: ",")
        }
        var upsert = live.options
        upsert.mode = .upsert
        let sink = SearchingSink(SQLiteCatalogSink(databasePath: live.databasePath)) {
            try ProductSearch(databasePath: live.databasePath).allPages(query: "renewed", pageSize: 100)
        }
        try CatalogImporter(options: upsert).run(source: MemoryByteSource(Self.csv(changes)), into: sink)
        #expect(sink.seenBeforeCommit == [], "a search saw the upsert before its commit")
        #expect(try ProductSearch(databasePath: live.databasePath).allPages(query: "renewed", pageSize: 100).count == changes.count)
    }
}

/// A sink that runs `search` on the catalog after everything is written and before the commit.
private final class SearchingSink: CatalogSink {
    let inner: any CatalogSink
    let search: () throws -> [String]
    private(set) var seenBeforeCommit: [String]?

    init(_ inner: any CatalogSink, search: @escaping () throws -> [String]) {
        self.inner = inner
        self.search = search
    }

    var catalogName: String { inner.catalogName }
    var defaultRejectsPath: String { inner.defaultRejectsPath }
    var spillPathPrefix: String { inner.spillPathPrefix }
    var productsBefore: Int { inner.productsBefore }
    var productsDeleted: Int { inner.productsDeleted }
    var editsReplaced: Int { inner.editsReplaced }
    func claim(mode: ImportMode) throws { try inner.claim(mode: mode) }
    func begin(mode: ImportMode, columns: [CheckedColumn], extraColumns: [String], rows: Int, rowLengths: RowLengths, deletingMissing: DeletionOfMissing?) throws {
        try inner.begin(mode: mode, columns: columns, extraColumns: extraColumns, rows: rows, rowLengths: rowLengths, deletingMissing: deletingMissing)
    }
    func write(_ rows: CheckedRows) throws { try inner.write(rows) }
    func commitAndContinue() throws { try inner.commitAndContinue() }
    func finish() throws -> Int { try inner.finish() }
    func install() throws {
        seenBeforeCommit = try search()
        try inner.install()
    }
    func abandon() { inner.abandon() }
    func release() { inner.release() }

}

/// Writes that cannot finish: a full disk leaves the catalog and its folder as they were.
@Suite struct UpsertOnAFullDiskTests {
    /// An upsert larger than the old rule's in-place limit (which copied the catalog beside it and
    /// left the copy behind when the disk filled up) runs out of pages: it says the disk is full,
    /// and leaves the catalog as it was and no file beside it.
    @Test func anUpsertThatFillsTheDiskSaysSoAndLeavesNothingBehind() throws {
        var fixture = try CatalogFixture()
        try fixture.importCSV(UpsertInPlaceTests.csv(UpsertInPlaceTests.rows(0..<500, variant: 0)))
        let before = try fixture.allProducts(pageSize: 500)
        let listing = try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path).sorted()
        let pages = try Connection.reading(fixture.databasePath).scalarInt("PRAGMA page_count") ?? 0
        fixture.options.mode = .upsert
        fixture.options.maxDatabasePages = Int(pages) + 8
        #expect {
            try fixture.importCSV(UpsertInPlaceTests.csv(UpsertInPlaceTests.rows(0..<5_000, variant: 3)))
        } throws: { error in
            guard case ImportError.catalog(.database(_, let sqlite)) = error else { return false }
            return sqlite.isFull && String(describing: error).contains("the disk is full")
        }
        #expect(try fixture.allProducts(pageSize: 500) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.directory.path).sorted() == listing)
    }
}

/// A product of many distinct words (a title of 900 KB of Chinese: hundreds of thousands of pairs
/// of characters, see ``CJKBigrams``) is indexed in time linear in its words, once by the write
/// that changes it, never again by the searches after (its segment is read, not made anew).
@Suite struct ProductOfManyWordsTests {
    @Test(.timeLimit(.minutes(1))) func aTitleOfHundredsOfThousandsOfWordsIsIndexedOnceAndFound() throws {
        var random = SeededRandomGenerator(seed: 2)
        let characters = (0x4E00..<0x4E00 + 6_000).compactMap { Unicode.Scalar($0).map(Character.init) }
        var title = String((0..<300_000).map { _ in characters.randomElement(using: &random)! })
        title += " 茶壶"
        #expect(title.utf8.count > 900_000)
        var fixture = try CatalogFixture()
        fixture.options.sortMemory = 4 << 20
        try fixture.importCSV("productId,title\nCJK-1,\"\(title)\"\nA2,Mug\n")
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        editor.mergesAfterEachWrite = false
        let search = try ProductSearch(databasePath: fixture.databasePath)
        #expect(try search.allPages(query: "茶壶", pageSize: 5) == ["CJK-1"])
        // An edit of it, then other writes: each search after each reads what is there.
        _ = try editor.replace(productId: "CJK-1", with: Product(productId: "CJK-1", title: title + " 水杯"))
        for index in 0..<3 {
            _ = try editor.add(Product(productId: "B\(index)", title: "Cup \(index)"))
            #expect(try search.allPages(query: "水杯", pageSize: 5) == ["CJK-1"])
            #expect(try search.allPages(query: "cup", pageSize: 5).count == index + 1)
        }
    }
}
