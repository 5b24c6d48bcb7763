import Foundation
import Testing
@testable import ProductCatalog
import TestSupport

/// `collection,productId` files against a model: rows put in, already there, rejected with their
/// line and reason; replace and upsert; and round trips through the members' and the products' exports.
@Suite struct CollectionImportTests {
    static func run(_ path: String, _ csv: String, mode: ImportMode = .upsert) throws -> CollectionImportSummary {
        try CollectionImporter(databasePath: path, mode: mode).run(source: MemoryByteSource(csv))
    }

    /// Every manual collection's members, by name, as `collections export` writes them.
    static func exported(_ path: String) throws -> String {
        let search = try ProductSearch(databasePath: path)
        var export = MembersExport()
        var bytes: [UInt8] = []
        for collection in try search.collections() where collection.isManual {
            var after: String?
            while true {
                let ids = try search.members(of: collection.name, after: after, limit: 3)
                bytes += export.encode(collection.name, ids)
                guard ids.count == 3 else { break }
                after = ids.last
            }
        }
        return String(decoding: bytes + export.finish(), as: UTF8.self)
    }

    @Test func rowsAgainstTheModelWithRejectsAndTheirLines() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(CollectionTests.csv(CollectionTests.rows(0..<50)))
        try CatalogEditor(databasePath: fixture.databasePath).createCollection("Smart", search: SavedSearch(text: "linen"))
        var random = SeededRandomGenerator(seed: 9)
        var lines = ["Collection Title,ID,note"]
        var model: [String: Set<String>] = [:]
        var rejected: [Int: String] = [:]
        var added = 0, already = 0
        var firstWritten: [String: String] = [:]
        for index in 0..<300 {
            let line = index + 2
            let roll = random.next() % 20
            let name = ["Summer", "summer", "Sale", " Sale "][Int(random.next() % 4)]
            var productId = "C-\(random.next() % 60)"
            if roll == 0 { productId = "" }
            if roll == 1 { productId = productId.lowercased() }
            let collection = roll == 2 ? "" : roll == 3 ? "Smart" : name
            lines.append("\"\(collection)\",\(productId),x")
            let key = ProductRules.trimmed(collection).lowercased()
            if collection.isEmpty { rejected[line] = "a collection needs a name"; continue }
            if key == "smart" { rejected[line] = "\"Smart\" is a smart collection: it lists what its search finds"; continue }
            if firstWritten[key] == nil { firstWritten[key] = ProductRules.trimmed(collection) }
            if productId.isEmpty { rejected[line] = "no productId"; continue }
            guard Int(productId.dropFirst(2))! < 50 else {
                rejected[line] = "no product has productId \"\(productId)\" in the catalog"
                continue
            }
            if model[key, default: []].insert(productId.uppercased()).inserted { added += 1 } else { already += 1 }
        }
        let summary = try Self.run(fixture.databasePath, lines.joined(separator: "\r\n") + "\r\n")
        #expect(summary.rowsRead == 300 && summary.added == added && summary.alreadyThere == already && summary.rowsRejected == rejected.count)
        #expect(summary.unknownProducts == rejected.values.filter { $0.hasPrefix("no product has") }.count)
        #expect(summary.collections == 3 && summary.collectionsCreated == 2)
        #expect(try StockImportTests.rejects(fixture.databasePath + ".collection-rejects.csv") == rejected)
        for (name, members) in model {
            #expect(Set(try CollectionTests.members(fixture.databasePath, name)) == members, "\(name)")
        }
        // The names as first written.
        let names = try ProductSearch(databasePath: fixture.databasePath).collections().map(\.name)
        #expect(names == [firstWritten["sale"]!, "Smart", firstWritten["summer"]!], "\(names)")
    }

    @Test func replaceEmptiesTheCollectionsTheFileNamesAndNoOthers() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(CollectionTests.csv(CollectionTests.rows(0..<20)))
        _ = try Self.run(fixture.databasePath, "collection,productId\nA,C-1\nA,C-2\nB,C-3\n")
        let summary = try Self.run(fixture.databasePath, "collection,productId\nA,C-5\nA,C-2\n", mode: .replace)
        #expect(summary.removed == 2 && summary.added == 2 && summary.rowsRejected == 0 && summary.rejectsPath == nil)
        #expect(try CollectionTests.members(fixture.databasePath, "A") == ["C-2", "C-5"])
        #expect(try CollectionTests.members(fixture.databasePath, "B") == ["C-3"])
        #expect(!FileManager.default.fileExists(atPath: fixture.databasePath + ".collection-rejects.csv"))
    }

    @Test func aShopifyHandleNamesTheProductAndEveryVariant() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV("productId,title\nclassic-tee/Red/M,Tee\nclassic-tee/Red/L,Tee\nCLASSIC-TEE/Blue/S,Tee\nclassic-teeshirt,Other\nclassic-tee0,Other\nmug,Mug\n")
        let summary = try Self.run(fixture.databasePath, "Collection Handle,Handle\nsummer,classic-tee\nsummer,mug\nsummer,nothing\n")
        #expect(summary.added == 4 && summary.unknownProducts == 1 && summary.rowsRejected == 1)
        #expect(try CollectionTests.members(fixture.databasePath, "summer") == ["CLASSIC-TEE/Blue/S", "classic-tee/Red/L", "classic-tee/Red/M", "mug"])
    }

    @Test func aFileWithoutTheColumnsChangesNothing() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(CollectionTests.csv(CollectionTests.rows(0..<5)))
        #expect(throws: ImportError.self) { try Self.run(fixture.databasePath, "name,productId\nA,C-1\n") }
        #expect(try ProductSearch(databasePath: fixture.databasePath).collections().isEmpty)
    }

    @Test func membersAndProductsRoundTripThroughTheirExports() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(CollectionTests.csv(CollectionTests.rows(0..<80)))
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        try editor.createCollection("Été, \"quoted\"")
        try editor.changeCollection("Été, \"quoted\"", adding: (0..<80).filter { $0 % 3 == 0 }.map { "C-\($0)" })
        try editor.createCollection("Empty")
        try editor.createCollection("Two")
        try editor.changeCollection("Two", adding: ["C-7", "C-70"])
        let text = try Self.exported(fixture.databasePath)

        // Into another catalog of the same products: the same members.
        let other = try CatalogFixture()
        try other.importCSV(CollectionTests.csv(CollectionTests.rows(0..<80, variant: 1)))
        let summary = try Self.run(other.databasePath, text)
        #expect(summary.rowsRejected == 0 && summary.added == 29, "\(text)\n\(String(describing: try? String(contentsOfFile: other.databasePath + ".collection-rejects.csv", encoding: .utf8)))")

        #expect(try Self.exported(other.databasePath) == text)

        // The products of a collection, exported and imported, are its products.
        let search = try ProductSearch(databasePath: fixture.databasePath)
        var filters = SearchFilters()
        filters.collection = "Two"
        var export = ProductExport(format: .csv)
        let page = try search.page(query: "", filters: filters, limit: 100)
        let csv = String(decoding: export.encode(page.products) + export.finish(), as: UTF8.self)
        let copy = try CatalogFixture()
        try copy.importCSV(csv)
        var again = ProductExport(format: .csv)
        #expect(String(decoding: again.encode(try copy.allProducts()) + again.finish(), as: UTF8.self) == csv)
        #expect(page.products.map(\.productId) == ["C-7", "C-70"])
    }
}
