import Foundation
import Testing
@testable import ProductCatalog
import TestSupport

@Suite struct CatalogImporterTests {
    @Test func importsKnownFieldsExtrasAndExactPrices() throws {
        let fixture = try CatalogFixture()
        let summary = try fixture.importCSV("""
            productId,title,listPrice,salesPrice,color,size,Material
            00123,"Shirt, \"\"blue\"\"\",12.5,9.99,blue,M,Acme
            XY-1,Café crème,3,,green,,Zed\r

            """)
        #expect(summary.rowsRead == 2 && summary.rowsInserted == 2 && summary.rowsRejected == 0 && summary.duplicates == 0)
        let products = try fixture.allProducts()
        #expect(products == [
            Product(productId: "00123", title: "Shirt, \"blue\"", listPrice: Price(cents: 1250), salesPrice: Price(cents: 999),
                    color: "blue", size: "M", extras: [.init(name: "Material", value: "Acme")]),
            Product(productId: "XY-1", title: "Café crème", listPrice: Price(cents: 300), salesPrice: nil,
                    color: "green", size: "", extras: [.init(name: "Material", value: "Zed")]),
        ])
    }

    /// A load writes only the columns its file fills and adds the other known fields after
    /// it: each row stores no NULL for them, and the catalog still has every field.
    @Test func aCatalogHasEveryFieldButItsRowsStoreOnlyWhatTheFileFills() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV("sku,price,Material\nA1,12.00,Acme\nB2,4,Zed\n")
        let connection = try Connection(path: fixture.databasePath, mode: .readOnly)
        let statement = try connection.prepare("SELECT name FROM pragma_table_info('products')")
        var columns: [String] = []
        while try statement.step() { columns.append(statement.text(at: 0) ?? "") }
        #expect(Set(columns) == Set(ProductField.allCases.map(\.columnName) + ["Material"]))
        // The columns the file filled come first, in the order rows store them; a price that
        // names no currency stores none.
        #expect(Array(columns.prefix(3)) == ["productId", "listPriceMilli", "Material"])
        #expect(try fixture.allProducts().map(\.currency) == [nil, nil])
        #expect(try fixture.allProducts().map(\.brand) == [nil, nil])

        try fixture.importCSV("sku,price\nA1,12.00 USD\nB2,4\n")
        let named = try Connection(path: fixture.databasePath, mode: .readOnly)
        #expect(try named.scalarText("SELECT group_concat(name) FROM pragma_table_info('products')")?
            .hasPrefix("productId,listPriceMilli,currency") == true)
        #expect(try fixture.allProducts().map(\.currency) == ["USD", nil])
    }

    @Test func theLaterRowWinsAndDuplicatesAreCounted() throws {
        let fixture = try CatalogFixture()
        let summary = try fixture.importCSV("sku,name\nA1,first\nB2,only\na1,second\nA1,third\n")
        #expect(summary.rowsRead == 4 && summary.rowsInserted == 2 && summary.duplicates == 2)
        #expect(try fixture.allProducts().map(\.title) == ["third", "only"])
    }

    @Test(arguments: [1 << 8, 1 << 10, 1 << 20])
    func duplicatesCollapseTheSameWayWithinAndAcrossSortedRuns(sortMemory: Int) throws {
        var random = SeededRandomGenerator(seed: 11)
        var rows: [(id: String, title: String)] = []
        for line in 0..<2_000 {
            let id = ["K", "k"].randomElement(using: &random)! + String(Int.random(in: 0..<500, using: &random))
            rows.append((id, "t\(line)"))
        }
        let csv = "sku,name\n" + rows.map { "\($0.id),\($0.title)\n" }.joined()
        for policy in [DuplicatePolicy.last, .first] {
            var fixture = try CatalogFixture()
            fixture.options.sortMemory = sortMemory
            fixture.options.onDuplicate = policy
            let summary = try fixture.importCSV(csv)
            var expected: [String: String] = [:]
            for row in rows where policy == .last || expected[row.id.lowercased()] == nil {
                expected[row.id.lowercased()] = row.title
            }
            #expect(summary.rowsInserted == expected.count)
            #expect(summary.duplicates == rows.count - expected.count)
            let products = try fixture.allProducts(pageSize: 50)
            #expect(Dictionary(uniqueKeysWithValues: products.map { ($0.productId.lowercased(), $0.title!) }) == expected)
            #expect(products.map { $0.productId.lowercased() } == expected.keys.sorted())
        }
    }

    /// Also as the first row, when the sort's memory holds nothing to hand over before trying again.
    @Test(arguments: [false, true]) func aRowLargerThanTheSortMemoryIsRejectedNotLost(first: Bool) throws {
        var fixture = try CatalogFixture()
        fixture.options.sortMemory = 64
        let rows = ["A1,short", "A2,\(String(repeating: "x", count: 100))"]
        let summary = try fixture.importCSV("sku,name\n" + (first ? rows.reversed() : rows).joined(separator: "\n") + "\n")
        #expect(summary.rowsInserted == 1 && summary.rowsRejected == 1)
        #expect(try fixture.rejects()[1][1] == "the row is larger than the import's sort memory")
    }

    @Test func onDuplicateFirstKeepsTheFirstRow() throws {
        var fixture = try CatalogFixture()
        fixture.options.onDuplicate = .first
        let summary = try fixture.importCSV("sku,name\nA1,first\nA1,second\n")
        #expect(summary.rowsInserted == 1 && summary.duplicates == 1)
        #expect(try fixture.allProducts().map(\.title) == ["first"])
    }

    @Test func onDuplicateFailNamesBothLinesAndLeavesTheCatalogAlone() throws {
        var fixture = try CatalogFixture()
        try fixture.importCSV("sku,name\nOLD,kept\n")
        fixture.options.onDuplicate = .fail
        #expect {
            try fixture.importCSV("sku,name\nA1,first\n\"B\nC\",x\nA1,second\n")
        } throws: { error in
            guard case ImportError.duplicate(let id, let first, let line) = error else { return false }
            return id == "A1" && first == 2 && line == 5
        }
        #expect(try fixture.allProducts().map(\.productId) == ["OLD"])
    }

    @Test func badRowsGoToTheRejectsFileWithLineAndReasonAndTheRestImports() throws {
        let fixture = try CatalogFixture()
        let summary = try fixture.importCSV("""
            productId,title,listPrice
            A1,ok,1.00
            A2,too,many,fields
            ,no id,2
            A3,bad price,19.999
            A4,"multi
            line",abc
            A5,"unclosed,1
            """)
        #expect(summary.rowsRead == 6)
        #expect(summary.rowsInserted == 1)
        #expect(summary.rowsRejected == 5)
        #expect(summary.rowsRead == summary.rowsInserted + summary.rowsRejected + summary.duplicates)
        let rejects = try fixture.rejects()
        #expect(rejects.first == ["line", "reason", "productId", "title", "listPrice"])
        #expect(rejects.dropFirst().map { $0[0] } == ["3", "4", "5", "6", "8"])
        #expect(rejects[1][1] == "expected 3 fields as in the header, found 4")
        #expect(rejects[2][1] == "productId is empty")
        #expect(rejects[3][1].hasPrefix("listPrice \"19.999\" has 3 decimals"))
        #expect(rejects[4][2...] == ["A4", "multi\nline", "abc"])
        #expect(rejects[5][1].contains("never closed"))
    }

    @Test func invalidTextIsRejectedWithTheColumn() throws {
        let fixture = try CatalogFixture()
        var bytes = Array("productId,title\nA1,ok\nA2,bad\u{0}nul\nA3,".utf8)
        bytes += [0xC3, 0x28, 0x0A]
        let summary = try CatalogImporter(options: fixture.options).run(source: MemoryByteSource(bytes))
        #expect(summary.rowsInserted == 1 && summary.rowsRejected == 2)
        let reasons = try fixture.rejects().dropFirst().map { $0[1] }
        #expect(reasons == ["column 2 (title) contains a NUL byte", "column 2 (title) is not valid UTF-8 (a Latin-1 or Windows-1252 file imports with its encoding named)"])
    }

    @Test func noRejectsFileIsLeftWhenNothingIsRejected() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV("sku\nA1\n,\n")
        #expect(FileManager.default.fileExists(atPath: fixture.options.resolvedRejectsPath))
        try fixture.importCSV("sku\nA1\n")
        #expect(!FileManager.default.fileExists(atPath: fixture.options.resolvedRejectsPath))
    }

    @Test func tooManyRejectsStopsTheImportAndKeepsTheOldCatalog() throws {
        var fixture = try CatalogFixture()
        try fixture.importCSV("sku\nOLD\n")
        fixture.options.maxErrors = 2
        #expect {
            try fixture.importCSV("sku,price\nA,x\nB,y\nC,1\nD,z\n")
        } throws: { error in
            guard case ImportError.tooManyRejects(2, let line, _) = error else { return false }
            return line == 5
        }
        #expect(try fixture.allProducts().map(\.productId) == ["OLD"])
    }

    @Test func importingAgainReplacesTheProducts() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV("sku,name\nA1,one\nA2,two\n")
        try fixture.importCSV("sku,name,extra\nB1,new,x\n")
        let products = try fixture.allProducts()
        #expect(products.map(\.productId) == ["B1"])
        #expect(products[0].extras == [.init(name: "extra", value: "x")])
        #expect(!FileManager.default.fileExists(atPath: fixture.databasePath + ".importing"))
    }

    @Test func aFileThatIsNotACatalogIsNeverOverwritten() throws {
        let fixture = try CatalogFixture()
        try fixture.directory.write("catalog.sqlite", "my thesis, not a database")
        #expect(throws: ImportError.self) { try fixture.importCSV("sku\nA1\n") }
        #expect(fixture.directory.read("catalog.sqlite") == "my thesis, not a database")

        let other = try Connection(path: fixture.directory.file("other.sqlite"))
        try other.execute("CREATE TABLE notes (text TEXT)")
        var options = fixture.options
        options.databasePath = fixture.directory.file("other.sqlite")
        #expect {
            try CatalogImporter(options: options).run(source: MemoryByteSource("sku\nA1\n"))
        } throws: { error in
            guard case ImportError.catalog(.notACatalog) = error else { return false }
            return true
        }
    }

    @Test func anEmptyInputOrAHeaderWithoutProductIdIsAClearError() throws {
        let fixture = try CatalogFixture()
        #expect { try fixture.importCSV("") } throws: { error in
            guard case ImportError.emptyInput = error else { return false }
            return true
        }
        #expect { try fixture.importCSV("name,price\nx,1\n") } throws: { error in
            guard case ImportError.header(_, .missingProductId(["name", "price"])) = error else { return false }
            return String(describing: error).contains("Columns found: \"name\", \"price\"")
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.databasePath))
    }

    @Test func detectsASemicolonDelimiterFromTheHeader() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV("sku;name;price\nA1;\"one; two\";1,50\nA2;x;2,5\n")
        let products = try fixture.allProducts()
        #expect(products.map(\.title) == ["one; two", "x"])
        // A decimal comma, as semicolon files from Europe write prices.
        #expect(products.map(\.listPrice) == [Price(cents: 150), Price(cents: 250)])
    }

    @Test func theInvariantHoldsOnRandomMessyFiles() throws {
        var random = SeededRandomGenerator(seed: 7)
        for round in 0..<5 {
            let fixture = try CatalogFixture()
            var lines = ["productId,title,listPrice"]
            for _ in 0..<300 {
                let id = ["", "A\(Int.random(in: 0..<80, using: &random))", "b\(Int.random(in: 0..<80, using: &random))"].randomElement(using: &random)!
                let price = ["1", "2.50", "x", "", "-1", "3.333"].randomElement(using: &random)!
                let title = ["t", "\"q, \"\"x\"\"\"", "\"a\nb\"", "", "é"].randomElement(using: &random)!
                var line = "\(id),\(title),\(price)"
                if Int.random(in: 0..<20, using: &random) == 0 { line += ",extra" }
                lines.append(line)
            }
            let summary = try fixture.importCSV(lines.joined(separator: round.isMultiple(of: 2) ? "\n" : "\r\n"))
            #expect(summary.rowsRead == 300)
            #expect(summary.rowsRead == summary.rowsInserted + summary.rowsRejected + summary.duplicates)
            #expect(try fixture.allProducts().count == summary.rowsInserted)
            #expect(try fixture.rejects().count - 1 == summary.rowsRejected)
        }
    }
}
