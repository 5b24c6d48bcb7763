import Foundation
import Testing
@testable import ProductCatalog

/// The order of word matches and of the newest first through deletes, renames and products added
/// again, by any program, through merges: one rule (``ChangeNotes``), which PostgreSQL keeps too
/// (``PostgresPlaceOrderTests``). Within a class of titles (their number of words), the import's
/// products in productId order, then the products added since in the order they were added; a
/// rename keeps a product's place, however many in a row; a product deleted and added again is new.
@Suite struct PlaceOrderTests {
    /// Every product has the word "lamp" and two words in its title: one class, so the order is the places'.
    static let csv = "productId,title\nA1,lamp alpha\nA2,lamp alpha\nA3,lamp uniqc\nB1,lamp beta\nB2,lamp beta\nB3,lamp beta\n"

    static func order(_ fixture: CatalogFixture, _ query: String = "lamp") throws -> [String] {
        try ProductSearch(databasePath: fixture.databasePath).allPages(query: query, pageSize: 4)
    }

    static func newest(_ fixture: CatalogFixture) throws -> [String] {
        try ProductSearch(databasePath: fixture.databasePath).allPages(query: "", sort: .newest, pageSize: 4)
    }

    @Test func aProductDeletedAndAddedAgainComesAfterEveryOther() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv)
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        try editor.delete(productId: "A2")
        try editor.add(Product(productId: "A2", title: "lamp alpha"))
        #expect(try Self.order(fixture) == ["A1", "A3", "B1", "B2", "B3", "A2"])
        #expect(try Self.newest(fixture) == ["A2", "B3", "B2", "B1", "A3", "A1"])
        // Deleted and added again by another program in one transaction: a new product too.
        let shell = try Connection(path: fixture.databasePath, mode: .readWrite)
        try shell.execute("BEGIN; DELETE FROM products WHERE productId = 'B1'; INSERT INTO products (productId, title) VALUES ('B1', 'lamp beta'); COMMIT;")
        #expect(try Self.order(fixture) == ["A1", "A3", "B2", "B3", "A2", "B1"])
        try editor.add(Product(productId: "C1", title: "lamp gamma"))
        #expect(try Self.order(fixture) == ["A1", "A3", "B2", "B3", "A2", "B1", "C1"])
    }

    @Test func aRenamedProductKeepsItsPlaceThroughRenamesInARowAndItsOldProductIdAddedAgainIsNew() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv)
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        try editor.replace(productId: "A2", with: Product(productId: "Z9", title: "lamp alpha"))
        try editor.replace(productId: "Z9", with: Product(productId: "Z8", title: "lamp alpha"))
        #expect(try Self.order(fixture) == ["A1", "Z8", "A3", "B1", "B2", "B3"])
        #expect(try Self.newest(fixture) == ["B3", "B2", "B1", "A3", "Z8", "A1"])
        try editor.add(Product(productId: "A2", title: "lamp alpha"))
        #expect(try Self.order(fixture) == ["A1", "Z8", "A3", "B1", "B2", "B3", "A2"])
        // Two renames in a row by another program, before any write of this library makes a
        // segment of them: the product still keeps its place.
        let shell = try Connection(path: fixture.databasePath, mode: .readWrite)
        try shell.execute("UPDATE products SET productId = 'Y1' WHERE productId = 'B1'; UPDATE products SET productId = 'Y2' WHERE productId = 'Y1';")
        #expect(try Self.order(fixture) == ["A1", "Z8", "A3", "Y2", "B2", "B3", "A2"])
        try editor.add(Product(productId: "B1", title: "lamp beta"))
        #expect(try Self.order(fixture) == ["A1", "Z8", "A3", "Y2", "B2", "B3", "A2", "B1"])
        #expect(try Self.newest(fixture) == ["B1", "A2", "B3", "B2", "Y2", "A3", "Z8", "A1"])
    }

    /// The narrative of the collision: indexed products deleted, one added, another renamed
    /// and its old productId added again, by another program, then the writes of this library.
    /// Each word finds exactly the products that hold it, in the rule's order.
    @Test func deletesAnAddARenameAndTheOldProductIdAgainFindWhatHoldsEachWord() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv)
        let shell = try Connection(path: fixture.databasePath, mode: .readWrite)
        try shell.execute("""
            DELETE FROM products WHERE productId IN ('B1', 'B2');
            INSERT INTO products (productId, title) VALUES ('X1', 'lamp gamma');
            UPDATE products SET productId = 'Y1' WHERE productId = 'A1';
            INSERT INTO products (productId, title) VALUES ('A1', 'lamp delta');
            INSERT INTO products (productId, title) VALUES ('X2', 'lamp kappa');
            """)
        func check(_ stage: String) throws {
            #expect(try Self.order(fixture, "uniqc") == ["A3"], "\(stage)")
            #expect(try Self.order(fixture, "alpha") == ["Y1", "A2"], "\(stage)")
            #expect(try Self.order(fixture, "delta") == ["A1"], "\(stage)")
            #expect(try Self.order(fixture, "gamma") == ["X1"], "\(stage)")
            #expect(try Self.order(fixture, "kappa") == ["X2"], "\(stage)")
            #expect(try Self.order(fixture) == ["Y1", "A2", "A3", "B3", "X1", "A1", "X2"], "\(stage)")
        }
        try check("the notes read by the search")
        try CatalogEditor(databasePath: fixture.databasePath).add(Product(productId: "C1", title: "omega"))
        try check("the notes made a segment")
        let connection = try Connection(path: fixture.databasePath, mode: .readWrite)
        let views = IndexViews(connection: connection, prepare: connection.prepare, trustsDataVersion: false)
        while try SegmentMerge.work(connection, views: views, budget: 10_000, policy: MergePolicy(factor: 2, floor: 1, most: 1, baseShare: 0.01)) {}
        #expect(try SegmentManifest.entries(connection).count == 1, "everything merged into a new base")
        try check("merged")
    }

    /// Products added since the import stay in the order they were added when the index is merged
    /// into a new base: places are never given again.
    @Test func productsAddedSinceTheImportKeepTheirOrderThroughABaseMerge() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv)
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        for id in ["Z1", "C1", "M1"] { try editor.add(Product(productId: id, title: "lamp extra")) }
        let before = try Self.order(fixture)
        #expect(before == ["A1", "A2", "A3", "B1", "B2", "B3", "Z1", "C1", "M1"])
        let connection = try Connection(path: fixture.databasePath, mode: .readWrite)
        let views = IndexViews(connection: connection, prepare: connection.prepare, trustsDataVersion: false)
        while try SegmentMerge.work(connection, views: views, budget: 10_000, policy: MergePolicy(factor: 2, floor: 1, most: 1, baseShare: 0.01)) {}
        #expect(try SegmentManifest.entries(connection).count == 1)
        #expect(try Self.order(fixture) == before)
        #expect(try Self.newest(fixture) == Array(before.reversed()))
    }
}
