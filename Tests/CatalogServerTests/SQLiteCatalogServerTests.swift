import Foundation
import ProductCatalog
import Testing
@testable import CatalogServer

@Suite struct SQLiteCatalogServerTests {
    @Test func aSearchSeesACatalogSwappedInByAnotherProcessWithoutBeingTold() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "OLD", count: 3))
        let before = try await fixture.store.page(SearchRequest("", byPrefix: true), after: nil, limit: 20)
        #expect(before.page.products.map(\.productId) == ["OLD-000", "OLD-001", "OLD-002"])
        // What `catalog import` in a shell does: a new file renamed over the one the store has open.
        try await fixture.importCSV(productsCSV(prefix: "NEW", count: 2))
        let after = try await fixture.store.page(SearchRequest("", byPrefix: true), after: nil, limit: 20)
        #expect(after.page.products.map(\.productId) == ["NEW-000", "NEW-001"])
        #expect(after.count == 2)
    }

    @Test func anEditAfterASwapIsWrittenToTheNewFile() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "OLD", count: 1))
        _ = try await fixture.store.add(Product(productId: "ADDED-1", title: "Before the swap"))
        try await fixture.importCSV(productsCSV(prefix: "NEW", count: 1))
        _ = try await fixture.store.add(Product(productId: "ADDED-2", title: "After the swap"))
        #expect(try await fixture.storedIds() == ["ADDED-2", "NEW-000"])
    }

    @Test func anEditorRefusesToWriteThroughAFileThatWasReplaced() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "OLD", count: 1))
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        try await fixture.importCSV(productsCSV(prefix: "NEW", count: 1))
        #expect(!editor.isCurrent)
        #expect(throws: EditError.self) { try editor.add(Product(productId: "LOST", title: "Would be lost")) }
        #expect(try await fixture.storedIds() == ["NEW-000"])
        #expect(!FileManager.default.fileExists(atPath: fixture.databasePath + "-journal"))
    }

    @Test func aCountFollowsAChangeAnotherProgramCommitsToTheSameFile() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 2))
        #expect(try await fixture.store.page(SearchRequest("p", byPrefix: true), after: nil, limit: 20).count == 2)
        // An update in place, as an upsert import does: same file, so only SQLite can tell.
        let other = try Connection(path: fixture.databasePath, mode: .readWrite)
        try other.execute("INSERT INTO products (productId, title) VALUES ('P-X', 'From elsewhere')")
        let after = try await fixture.store.page(SearchRequest("p", byPrefix: true), after: nil, limit: 20)
        #expect(after.count == 3)
        #expect(after.page.products.map(\.productId).last == "P-X")
    }

    @Test func countsFollowEditsWithoutReopening() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "P", count: 2))
        #expect(try await fixture.store.page(SearchRequest("p", byPrefix: true), after: nil, limit: 20).count == 2)
        _ = try await fixture.store.add(Product(productId: "P-9", title: "Nine"))
        #expect(try await fixture.store.page(SearchRequest("p", byPrefix: true), after: nil, limit: 20).count == 3)
        try await fixture.store.delete(productId: "P-000")
        #expect(try await fixture.store.page(SearchRequest("p", byPrefix: true), after: nil, limit: 20).count == 2)
    }
}
