import Foundation
import Testing
import TestSupport
@testable import ProductCatalog

/// `INSERT OR REPLACE`, `REPLACE` and `UPDATE OR REPLACE` by another program delete the row they
/// collide with without firing SQLite's delete triggers: the facet counts, the whole catalog's
/// count and the word index stay those of the products as they are (``FacetIndex``, ``ChangeNotes``).
@Suite struct ReplacedRowsTests {
    /// Facets and counts recounted from the products table, the naive model.
    static func recount(_ path: String) throws -> [String: [String: Int]] {
        let connection = try Connection.reading(path)
        var counts: [String: [String: Int]] = [:]
        for field in FacetIndex.fields {
            let statement = try connection.prepare("SELECT lower(ifnull(\(field.columnName), '')), count(*) FROM products GROUP BY 1")
            while try statement.step() { counts[field.rawValue, default: [:]][statement.text(at: 0) ?? ""] = Int(statement.int64(at: 1)) }
        }
        return counts
    }

    /// The counts the catalog keeps.
    static func kept(_ path: String) throws -> [String: [String: Int]] {
        let connection = try Connection.reading(path)
        var counts: [String: [String: Int]] = [:]
        let statement = try connection.prepare("SELECT field, valueKey, products FROM \(FacetIndex.table)")
        while try statement.step() { counts[statement.text(at: 0) ?? "", default: [:]][statement.text(at: 1) ?? ""] = Int(statement.int64(at: 2)) }
        return counts
    }

    @Test func countsFacetsAndWordsFollowRowsAnotherProgramReplaces() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV("productId,title,color,size\nA1,Blue Mug,Blue,S\nA2,Blue Cup,Blue,M\nA3,Red Bowl,Red,M\nA4,Green Plate,Green,L\n")
        // A first write of this library gives the catalog its triggers of this layout.
        try CatalogEditor(databasePath: fixture.databasePath).add(Product(productId: "A5", title: "Grey Jug", color: "Grey"))
        let shell = try Connection(path: fixture.databasePath, mode: .readWrite)
        func check(_ step: String) throws {
            #expect(try Self.kept(fixture.databasePath) == Self.recount(fixture.databasePath), "\(step)")
            let search = try ProductSearch(databasePath: fixture.databasePath)
            let all = try fixture.allProducts(pageSize: 50)
            #expect(try search.count(prefix: "", listing: .variants) == all.count, "\(step): the catalog's count")
            #expect(try search.facets(query: "").counted == all.count, "\(step)")
            for product in all {
                for word in WordSearchTests.words(product.title) {
                    let found = try search.allPages(query: word, typos: false, pageSize: 50)
                    let holders = all.filter { WordSearchTests.words($0.title).contains(word) }.map(\.productId)
                    #expect(Set(found) == Set(holders), "\(step): \(word)")
                }
            }
        }
        try check("imported")
        try shell.execute("INSERT OR REPLACE INTO products (productId, title, color, size) VALUES ('A1', 'Black Mug', 'Black', 'S')")
        try check("INSERT OR REPLACE")
        try shell.execute("REPLACE INTO products (productId, title, color) VALUES ('A2', 'Black Cup', 'Black')")
        try check("REPLACE")
        try shell.execute("UPDATE OR REPLACE products SET productId = 'A4' WHERE productId = 'A3'")
        try check("UPDATE OR REPLACE onto another product")
        // Rows that collided but were not replaced change nothing.
        try shell.execute("INSERT OR IGNORE INTO products (productId, title, color) VALUES ('A5', 'White Jug', 'White')")
        try shell.execute("INSERT INTO products (productId, title, color) VALUES ('A5', 'Tan Jug', 'Tan') ON CONFLICT (productId) DO UPDATE SET size = 'XL'")
        try check("ignored and upserted")
        // And the rows kept for them are never taken off later: a delete, then the productId again.
        try shell.execute("DELETE FROM products WHERE productId = 'A5'; INSERT INTO products (productId, title, color) VALUES ('A5', 'Blue Jug', 'Blue');")
        try check("deleted and added again")
        try shell.execute("UPDATE products SET productId = 'A9' WHERE productId = 'A5'; INSERT OR REPLACE INTO products (productId, title, color) VALUES ('A9', 'Red Jug', 'Red');")
        try check("renamed, then replaced")
        // This library's writers, which turn recursive triggers on, count the same.
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        _ = try editor.replace(productId: "A9", with: Product(productId: "A7", title: "Blue Mug", color: "Blue"))
        try check("renamed by the editor")
        #expect(try fixture.allProducts(pageSize: 50).map(\.productId) == ["A1", "A2", "A4", "A7"])
    }
}
