import Foundation
import ProductCatalog
import ProductCatalogPostgres
import Testing

/// The case and productId of the ``EditError`` `body` throws, as `duplicate:A-1`; nil when it throws none.
func editError(_ body: () async throws -> Void) async -> String? {
    do {
        try await body()
        return nil
    } catch EditError.duplicate(let productId) {
        return "duplicate:\(productId)"
    } catch EditError.notFound(let productId) {
        return "notFound:\(productId)"
    } catch {
        return "\(error)"
    }
}

@Suite(PostgresTestServer.required) struct PostgresEditorTests {
    @Test func editsStarsAndTheirCountThroughAReplacingImport() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("feed.csv", "productId,title,listPrice,Origin\nA-1,Mug,5.00,Spain\nB-2,Plate,7.00,Italy\nC-3,Cup,2.00,\n")
        try await PostgresTestServer.withCatalog { location in
            _ = try await importCSV(file, into: location)
            let editor = try await PostgresCatalogEditor.open(location)
            let search = try await PostgresProductSearch.open(location)

            let added = try await editor.add(Product(productId: "D-4", title: "Bowl", listPrice: Price("3.00"),
                                                     extras: [Product.Extra(name: "origin", value: "Peru")]))
            #expect(added.extras == [Product.Extra(name: "Origin", value: "Peru")])
            #expect(await editError { try await editor.add(Product(productId: "d-4")) } == "duplicate:d-4")
            await #expect(throws: EditError.self) {
                try await editor.add(Product(productId: "E-5", extras: [Product.Extra(name: "colour", value: "x")]))
            }

            try await editor.setFavorite("b-2", true)
            try await editor.setFavorite("C-3", true)
            #expect(try await search.favorites().map(\.productId) == ["B-2", "C-3"])
            #expect(await editError { try await editor.setFavorite("nope", true) } == "notFound:nope")

            // A rename keeps the product's other fields and moves its star.
            let renamed = try await editor.replace(productId: "B-2", with: Product(productId: "B-20", title: "Big plate", listPrice: Price("8.00")))
            #expect(renamed.productId == "B-20")
            #expect(renamed.extras == [Product.Extra(name: "Origin", value: "Italy")])
            #expect(try await search.product(id: "B-2") == nil)
            #expect(try await search.favorites().map(\.productId) == ["B-20", "C-3"])
            #expect(await editError { try await editor.replace(productId: "zz", with: Product(productId: "zz")) } == "notFound:zz")
            #expect(await editError { try await editor.replace(productId: "B-20", with: Product(productId: "A-1")) } == "duplicate:A-1")

            try await editor.delete(productId: "c-3")
            #expect(try await search.favorites().map(\.productId) == ["B-20"])
            #expect(await editError { try await editor.delete(productId: "c-3") } == "notFound:c-3")
            #expect(try await search.page(query: "bowl").products.map(\.productId) == ["D-4"])

            // D-4 added, B-2 and B-20 renamed, C-3 deleted.
            #expect(try await editor.handEditsSinceImport() == 4)
            let summary = try await importCSV(file, into: location)
            #expect(summary.editsReplaced == 4)
            #expect(try await editor.handEditsSinceImport() == 0)
            // The file has no B-20: its star goes; C-3 is back, unstarred.
            #expect(try await search.favorites().isEmpty)
            try await editor.setFavorite("A-1", true)
            _ = try await importCSV(file, into: location)
            #expect(try await search.favorites().map(\.productId) == ["A-1"])
            await editor.close()
            await search.close()
        }
    }

    @Test func theFirstProductAddedCreatesTheCatalog() async throws {
        try await PostgresTestServer.withCatalog { location in
            await #expect(throws: EditError.self) { try await PostgresCatalogEditor.open(location) }
            let editor = try await PostgresCatalogEditor.open(location, creatingCatalog: true)
            try await editor.add(Product(productId: "X-1", title: "Lamp"))
            await editor.close()
            let search = try await PostgresProductSearch.open(location)
            #expect(try await search.page(query: "lam").products.map(\.productId) == ["X-1"])
            await search.close()
        }
    }
}
