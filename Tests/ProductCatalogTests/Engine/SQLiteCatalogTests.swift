import Foundation
import Testing
@testable import ProductCatalog

/// The catalog file through ``CatalogEngine``, as the CLI and the server use it.
@Suite struct SQLiteCatalogTests {
    static let csv = """
        productId,title,listPrice,color
        A-1,Linen shirt,30.00,Navy
        A-2,Linen trousers,45.00,Black
        B-1,Wool socks,9.50,Navy

        """

    @Test func aLocationIsAFileUnlessItIsAPostgresURL() {
        #expect(CatalogLocation("catalog.sqlite") == .file(path: "catalog.sqlite"))
        #expect(CatalogLocation("/data/postgres://x") == .file(path: "/data/postgres://x"))
        #expect(CatalogLocation("postgres://u@h/db") == .postgres(url: "postgres://u@h/db"))
        #expect(CatalogLocation("postgresql:///db?host=/tmp") == .postgres(url: "postgresql:///db?host=/tmp"))
    }

    @Test func anImportThroughTheEnginesSinkIsSearchedThroughTheEngine() async throws {
        let directory = try TemporaryDirectory()
        let catalog: any CatalogEngine = SQLiteCatalog(databasePath: directory.file("catalog.sqlite"))
        await #expect(throws: CatalogError.noCatalog(path: catalog.name)) { try await catalog.checkOpenable(requiringCatalog: true) }
        try await catalog.checkOpenable()
        #expect(try await catalog.page(SearchRequest(""), after: nil, limit: 20).count == 0)

        let importer = CatalogImporter(options: ImportOptions(databasePath: catalog.name))
        let summary = try importer.run(source: MemoryByteSource(Self.csv), into: catalog.makeSink(for: importer.options))
        #expect(summary.productsInCatalog == 3)
        await catalog.catalogReplaced()
        try await catalog.checkOpenable(requiringCatalog: true)

        let (page, count, complete) = try await catalog.page(SearchRequest("linen"), after: nil, limit: 20)
        #expect(Set(page.products.map(\.productId)) == ["A-1", "A-2"] && count == 2 && complete)
        let uncounted = try await catalog.products(SearchRequest("linen"), after: nil, limit: 20)
        #expect(uncounted.products.map(\.productId) == page.products.map(\.productId))
        var navy = SearchFilters()
        navy.colors = ["Navy"]
        let cheapest = try await catalog.products(SearchRequest("", filters: navy, sort: .price), after: nil, limit: 20)
        #expect(cheapest.products.map(\.productId) == ["B-1", "A-1"])
        #expect(try await catalog.indexesWords())
    }

    @Test func aClosedEngineOpensTheFileAgainAtItsNextRequest() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("catalog.sqlite")
        let catalog = SQLiteCatalog(databasePath: path)
        _ = try await catalog.add(Product(productId: "X-1", title: "First"))
        #expect(try await catalog.productCount() == 1)
        await catalog.close()
        _ = try await catalog.add(Product(productId: "X-2", title: "Second"))
        #expect(try await catalog.productCount() == 2)
        #expect(try await catalog.product(id: "x-2")?.title == "Second")
    }

    @Test func anotherFileIsNotOpenedAsACatalog() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("notes.sqlite", "plain text, not a database")
        await #expect(throws: CatalogError.notACatalog(path: path)) { try await SQLiteCatalog(databasePath: path).checkOpenable() }
    }
}
