import Foundation
import Testing
import TestSupport
@testable import ProductCatalog

/// Paging through a search while a writer changes the catalog and merges its index: a walk meets
/// every product that matched throughout exactly once, whatever was written or merged between two
/// of its pages (places are never given again, and a cursor's position is a place, see ``ChangeNotes``).
@Suite struct PagingUnderWritesTests {
    static let walked = ["lamp", "oak", "lamp oak", "la", "o", "brass lamp", "lammp oak"]
    static let filler = ["zephyr", "quill", "vortex", "nimbus", "sable"]

    @Test(arguments: [ResultListing.variants, .families])
    func everyPageOfEveryWalkIsNewAndNoneIsMissed(listing: ResultListing) throws {
        var random = SeededRandomGenerator(seed: listing == .families ? 12 : 11)
        // Products the walks find, in families of 1 to 4, some added after the import; and
        // products no walk finds, which the writer changes, adds and deletes.
        func matching(_ index: Int) -> String {
            let words = [["lamp"], ["oak"], ["lamp", "oak"], ["brass", "lamp"], ["oak", "table"]][index % 5]
            return "M\(String(format: "%04d", index)),\(words.joined(separator: " ")) \(index),G\(index / 3)"
        }
        func other(_ index: Int) -> String {
            "F\(String(format: "%04d", index)),\(Self.filler[index % Self.filler.count]) \(index),"
        }
        let fixture = try CatalogFixture()
        try fixture.importCSV("productId,title,groupId\n" + ((0..<300).map(matching) + (0..<900).map(other)).joined(separator: "\n") + "\n")
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        editor.mergesAfterEachWrite = false
        for index in 300..<360 {
            let fields = matching(index).split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            _ = try editor.add(Product(productId: fields[0], title: fields[1], groupId: fields[2]))
        }
        let merger = try Connection(path: fixture.databasePath, mode: .readWrite)
        let views = IndexViews(connection: merger, prepare: merger.prepare, trustsDataVersion: false)
        let policy = MergePolicy(factor: 3, floor: 50, most: 6, baseShare: 0.2)
        var next = 900
        /// One write of products no walk finds, then a step of merging.
        func write() throws {
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                let ids = (0..<40).map { _ in String(format: "F%04d", Int.random(in: 0..<next, using: &random)) }
                _ = try editor.apply(.set([.title: "\(Self.filler.randomElement(using: &random)!) \(next) renewed"]), to: ids)
            case 1:
                for _ in 0..<20 {
                    next += 1
                    _ = try editor.add(Product(productId: String(format: "F%04d", next), title: "\(Self.filler.randomElement(using: &random)!) new"))
                }
            case 2:
                let ids = (0..<30).map { _ in String(format: "F%04d", Int.random(in: 0..<next, using: &random)) }
                _ = try editor.apply(.delete, to: ids)
            default:
                let old = String(format: "F%04d", Int.random(in: 0..<next, using: &random))
                next += 1
                _ = try? editor.replace(productId: old, with: Product(productId: String(format: "F%04d", next), title: "\(Self.filler[0]) renamed"))
            }
            _ = try SegmentMerge.work(merger, views: views, budget: Int.random(in: 50...2_000, using: &random), policy: policy)
        }
        let search = try ProductSearch(databasePath: fixture.databasePath)
        var walks = 0
        for query in Self.walked {
            for pageSize in [7, 20] {
                let expected = try ProductSearch(databasePath: fixture.databasePath).allPages(query: query, listing: listing, pageSize: 50)
                #expect(!expected.isEmpty)
                var seen: [String] = []
                var cursor: KeysetCursor?
                repeat {
                    let page = try search.page(query: query, listing: listing, after: cursor, limit: pageSize)
                    seen += page.products.map(\.productId)
                    cursor = page.nextCursor
                    try write()
                } while cursor != nil
                #expect(Set(seen).count == seen.count, "\(query), pages of \(pageSize): a product came twice")
                #expect(seen == expected, "\(query), pages of \(pageSize)")
                walks += 1
            }
        }
        #expect(walks == Self.walked.count * 2)
        // The writes and merges did happen: the index is not the import's alone any more.
        #expect(try SegmentManifest.entries(merger).first?.segment != 0 || SegmentManifest.entries(merger).count > 1)
    }
}
