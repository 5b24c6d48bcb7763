import Foundation
import ProductCatalog
@testable import ProductCatalogPostgres
import Testing

@Suite(PostgresTestServer.required) struct PostgresImportTests {
    @Test func aReplaceImportKeepsEveryRowSomewhereAndFindsItsProducts() async throws {
        let folder = try TemporaryFolder()
        let lines = [
            "productId,title,listPrice,salesPrice,color,size,material",
            #"B-2,"Tab\#tand ""quote""",12.50,,Navy,M,Linen"#,
            "a-1,First,4.99,3.50,Red,S,",
            "A-1,Later row wins,5.00,,Red,S,Wool",
            "E-5,\"Two\r\nlines \\ backslash\",1.00,,,,",
            ",no id,1.00,,,,",
            "C-3,Bad price,twelve,,,,",
            "D-4,Plain,7,,Green,L,Cotton",
        ]
        let file = try folder.write("feed.csv", lines.joined(separator: "\n"))
        try await PostgresTestServer.withCatalog { location in
            var options = ImportOptions()
            options.rejectsPath = folder.path + "/rejects.csv"
            let summary = try await importCSV(file, into: location, options: options)
            #expect(summary.rowsRead == 7)
            #expect(summary.rowsRejected == 2)
            #expect(summary.duplicates == 1)
            #expect(summary.productsInCatalog == 4)
            #expect(summary.databasePath == location.description)
            let rejects = try String(contentsOfFile: folder.path + "/rejects.csv", encoding: .utf8)
            #expect(rejects.contains("no id") && rejects.contains("twelve"))

            let search = try await PostgresProductSearch.open(location)
            let page = try await search.page(prefix: "")
            #expect(page.products.map(\.productId) == ["A-1", "B-2", "D-4", "E-5"])
            #expect(try await search.product(id: "E-5")?.title == "Two\r\nlines \\ backslash")
            let tabbed = try #require(try await search.product(id: "b-2"))
            #expect(tabbed.title == "Tab\tand \"quote\"")
            #expect(tabbed.listPrice == Price("12.50"))
            #expect(tabbed.extras == [Product.Extra(name: "material", value: "Linen")])
            let later = try #require(try await search.product(id: "a-1"))
            #expect(later.title == "Later row wins")
            #expect(later.productId == "A-1")
            await search.close()
        }
    }

    @Test func prefixPagesWalkTheCatalogInOrderIgnoringASCIICase() async throws {
        let folder = try TemporaryFolder()
        var rows = ["productId,title,listPrice"]
        let ids = (0..<95).map { String(format: "%@-%03d", $0 % 2 == 0 ? "ab" : "AB", $0) } + (0..<30).map { String(format: "ac-%03d", $0) }
        rows += ids.map { "\($0),Item \($0),1.00" }
        let file = try folder.write("feed.csv", rows.joined(separator: "\n"))
        try await PostgresTestServer.withCatalog { location in
            _ = try await importCSV(file, into: location)
            let search = try await PostgresProductSearch.open(location)
            var seen: [String] = []
            var cursor: KeysetCursor?
            repeat {
                let page = try await search.page(prefix: "Ab", after: cursor, limit: 20)
                #expect(page.products.count <= 20)
                seen += page.products.map(\.productId)
                cursor = page.nextCursor
            } while cursor != nil
            let expected = ids.filter { $0.lowercased().hasPrefix("ab") }.sorted { $0.lowercased() < $1.lowercased() }
            #expect(seen == expected)
            #expect(try await search.count(prefix: "ab") == 95)
            #expect(try await search.count(prefix: "ab", upTo: 10) == 10)
            #expect(try await search.count(prefix: "") == 125)
            await search.close()
        }
    }

    @Test func aFailedImportLeavesTheCatalogAsItWas() async throws {
        let folder = try TemporaryFolder()
        let good = try folder.write("good.csv", "productId,title\nA,First\nB,Second\n")
        let bad = try folder.write("bad.csv", "productId,title,listPrice\nC,x,oops\nD,y,bad\n")
        try await PostgresTestServer.withCatalog { location in
            _ = try await importCSV(good, into: location)
            var options = ImportOptions()
            options.maxErrors = 0
            options.rejectsPath = folder.path + "/rejects.csv"
            await #expect(throws: ImportError.self) { try await importCSV(bad, into: location, options: options) }
            let search = try await PostgresProductSearch.open(location)
            #expect(try await search.page(prefix: "").products.map(\.productId) == ["A", "B"])
            await search.close()
        }
    }

    @Test func theNextImportDropsWhatAnInterruptedOneLeft() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("feed.csv", "productId,title\nA,First\n")
        try await PostgresTestServer.withCatalog { location in
            _ = try await importCSV(file, into: location)
            // What a killed import leaves: a half-filled build table beside the live one.
            try await PostgresTestServer.execute("CREATE TABLE products_importing (\"productId\" text, junk int)", at: location)
            try await PostgresTestServer.execute("INSERT INTO products_importing VALUES ('Z', 1)", at: location)
            #expect(try await PostgresTestServer.integer("SELECT count(*) FROM products", at: location) == 1)
            _ = try await importCSV(file, into: location)
            #expect(try await PostgresTestServer.integer("SELECT count(*) FROM pg_tables WHERE schemaname = current_schema() AND tablename = 'products_importing'", at: location) == 0)
            #expect(try await PostgresTestServer.integer("SELECT count(*) FROM products", at: location) == 1)
        }
    }

    @Test func anUpsertAddsAndUpdatesInOneTransaction() async throws {
        let folder = try TemporaryFolder()
        let first = try folder.write("first.csv", "productId,title,listPrice\nA,Mug,5.00\nB,Plate,7.00\n")
        let second = try folder.write("second.csv", "productId,title,Origin\nb,Big plate,Italy\nC,Cup,Spain\n")
        try await PostgresTestServer.withCatalog { location in
            _ = try await importCSV(first, into: location)
            var options = ImportOptions()
            options.mode = .upsert
            let summary = try await importCSV(second, into: location, options: options)
            #expect(summary.rowsInserted == 2)
            #expect(summary.rowsUpdated == 1)
            #expect(summary.productsInCatalog == 3)
            let search = try await PostgresProductSearch.open(location)
            let plate = try #require(try await search.product(id: "B"))
            #expect(plate.productId == "B")
            #expect(plate.title == "Big plate")
            #expect(plate.listPrice == Price("7.00"))  // not in the file: kept
            #expect(plate.extras == [Product.Extra(name: "Origin", value: "Italy")])
            #expect(try await search.product(id: "A")?.extras == [Product.Extra(name: "Origin", value: nil)])
            await search.close()
        }
    }

    /// The rules of a catalog file's upsert that deletes what its file omits, on PostgreSQL: rejected
    /// rows spare their products, a header-only file deletes nothing, a cut file stops at the limit.
    @Test func anUpsertDeletesOnlyWhatItsFileTrulyOmits() async throws {
        let folder = try TemporaryFolder()
        let old = try folder.write("old.csv", "productId,title,listPrice,salesPrice\n" + (0..<40).map { "P-\($0),Old,20.00,10.00\n" }.joined())
        // Every product again, four with a sale price above the list price, one spelled in lower case.
        let full = try folder.write("full.csv", "productId,title,listPrice,salesPrice\n"
            + (0..<40).map { $0 % 10 == 3 ? "p-\($0),New,20.00,30.00\n" : "P-\($0),New,20.00,10.00\n" }.joined())
        let header = try folder.write("header.csv", "productId,title\n")
        let cut = try folder.write("cut.csv", "productId,title\n" + (0..<30).map { "P-\($0),Cut\n" }.joined())
        try await PostgresTestServer.withCatalog { location in
            _ = try await importCSV(old, into: location)
            var options = ImportOptions()
            options.mode = .upsert
            options.deleteMissing = true
            options.rejectsPath = folder.path + "/rejects.csv"
            let summary = try await importCSV(full, into: location, options: options)
            #expect(summary.rowsRejected == 4 && summary.rowsDeleted == 0 && summary.productsInCatalog == 40)
            for file in [header, cut] {
                await #expect(throws: ImportError.self) { try await importCSV(file, into: location, options: options) }
            }
            #expect(try await PostgresTestServer.integer("SELECT count(*) FROM products WHERE title = 'Old'", at: location) == 4)
            #expect(try await PostgresTestServer.integer("SELECT count(*) FROM products", at: location) == 40)
            options.maxDeletes = .products(10)
            #expect(try await importCSV(cut, into: location, options: options).rowsDeleted == 10)
        }
    }

    @Test func anUpsertNeedsACatalog() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("feed.csv", "productId\nA\n")
        try await PostgresTestServer.withCatalog { location in
            var options = ImportOptions()
            options.mode = .upsert
            let error = await #expect(throws: ImportError.self) { try await importCSV(file, into: location, options: options) }
            #expect(error?.description == CatalogError.noCatalog(path: location.description).description)
        }
    }

    @Test func oneImportAtATimeAndNoEditsMeanwhile() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("feed.csv", "productId,title\nA,First\n")
        try await PostgresTestServer.withCatalog { location in
            _ = try await importCSV(file, into: location)
            // Another import's lock, held by a session of its own.
            let holder = try await PostgresSession.open(location)
            try await holder.execute("SELECT pg_advisory_lock(\(PostgresSchema.lockKey(schema: location.schema)))", doing: "lock")
            let error = await #expect(throws: ImportError.self) { try await importCSV(file, into: location) }
            #expect(error?.description == CatalogError.importRunning(path: location.description).description)
            let editor = try await PostgresCatalogEditor.open(location)
            await #expect(throws: EditError.self) { try await editor.add(Product(productId: "B")) }
            await holder.close()
            try await editor.add(Product(productId: "B"))
            #expect(try await PostgresTestServer.integer("SELECT count(*) FROM products", at: location) == 2)
            await editor.close()
        }
    }

    @Test func aTableOfSomeoneElsesIsLeftAlone() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("feed.csv", "productId\nA\n")
        try await PostgresTestServer.withCatalog { location in
            try await PostgresTestServer.createTable("products (sku text, stock int)", at: location)
            await #expect(throws: PostgresCatalogError.self) { try await importCSV(file, into: location) }
            #expect(try await PostgresTestServer.integer("SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'products'", at: location) == 2)
        }
    }

    @Test func anUnreachableServerSaysSo() async throws {
        let location = try PostgresLocation(url: "postgres://nobody@127.0.0.1:1/none", environment: [:])
        do {
            _ = try await PostgresProductSearch.open(location)
            Issue.record("a connection to port 1 succeeded")
        } catch let error as PostgresCatalogError {
            guard case .cannotConnect = error else { Issue.record("unexpected \(error)"); return }
            #expect(error.description.contains("127.0.0.1:1"))
        }
    }
}

@Suite(PostgresTestServer.required) struct PostgresSessionTests {
    /// The server checks every second that a session's client is still there, so a killed import's
    /// statement stops, and its lock goes, when the client dies rather than when the statement ends.
    @Test func everySessionAsksTheServerToNoticeADeadClient() async throws {
        try await PostgresTestServer.withCatalog { location in
            let session = try await PostgresSession.open(location)
            let interval = try await session.scalar(.init(unsafeSQL: "SHOW client_connection_check_interval"), as: String.self, doing: "read the setting")
            await session.close()
            #expect(interval == "1s")
        }
    }
}
