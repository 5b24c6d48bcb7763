import Foundation
import Testing
@testable @_spi(WordIndex) import ProductCatalog

/// A replacing import builds its word index on a thread of its own, in a file beside the build,
/// and tallies the facet counts as it writes: what it builds must equal, block for block, what
/// the upgrade path builds from the products alone, which reads them back with SQL.
@Suite struct ReplacingImportIndexTests {
    /// Products whose words fill more than one of the index thread's chunks (about 1 MB each),
    /// with facet values in several spellings and missing values.
    static func csv(rows: Int) -> String {
        let words = ["Café", "cafe", "Jacket", "JACKET", "Wool", "Übergröße", "naïve", "Straße", "Ærø", "x", "Blue-Green", "12"]
        let colors = ["Red", "red", "RED", "", "Navy", "Crème", "crème"]
        let types = ["Shirt", "shirt", "Coat", "", "Über"]
        var lines = ["productId,title,brand,productType,color,size,price"]
        for index in 0..<rows {
            let title = (0..<(1 + index % 9)).map { words[(index * 7 + $0 * 5) % words.count] }.joined(separator: " ")
                + " \(String(repeating: "long", count: 1 + index % 3))\(index % 211) model\(index % 4_001)"
            let brand = index % 5 == 0 ? "" : "Brand\(index % 37)"
            lines.append("P-\(index),\"\(title)\",\(brand),\(types[index % types.count]),\(colors[index % colors.count]),\(index % 4 == 0 ? "" : "S\(index % 6)"),\(index % 90).50")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Imports `csv` through a sink that keeps at most `facetValuesKept` facet values in memory.
    static func importCSV(_ csv: String, into fixture: CatalogFixture, facetValuesKept: Int = FacetTotals.maxValues) throws {
        let sink = SQLiteCatalogSink(databasePath: fixture.databasePath, facetValuesKept: facetValuesKept)
        _ = try CatalogImporter(options: fixture.options).run(source: MemoryByteSource(csv), into: sink)
    }

    /// Rebuilds the word index and facet counts of a copy of `path` the way an upgrade does.
    static func rebuiltCopy(of path: String, in fixture: CatalogFixture) throws -> String {
        let copy = fixture.directory.path + "/rebuilt.sqlite"
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let connection = try Connection(path: copy, mode: .readWrite)
        try connection.begin(.immediate)
        try connection.execute(WordLists.dropStatements + "DROP TABLE \(FacetIndex.table)")
        try CatalogSchema.upgrade(connection)
        try connection.commit()
        return copy
    }

    /// The rows of `table` in `path`, in a fixed order, as text.
    static func rows(_ sql: String, in path: String) throws -> [String] {
        let connection = try Connection(path: path, mode: .readOnly)
        let statement = try connection.prepare(sql)
        var rows: [String] = []
        while try statement.step() {
            rows.append((0..<statement.columnCount).map { statement.text(at: $0) ?? "NULL" }.joined(separator: "|"))
        }
        return rows
    }

    static let comparedTables = [
        "SELECT block, hex(data) FROM word_lists ORDER BY block",
        "SELECT list, row, block FROM word_list_starts ORDER BY list, row",
        "SELECT block, hex(data) FROM word_list_terms ORDER BY block",
        "SELECT place, firstId, hex(data) FROM word_places ORDER BY place",
        "SELECT block, hex(data) FROM sort_lists ORDER BY block",
        "SELECT field, valueKey, value, products FROM facet_values ORDER BY field, valueKey",
        "SELECT name, value FROM word_lists_meta WHERE name = 'maxPlace'",
    ]

    @Test(arguments: [FacetTotals.maxValues, 5])
    func theImportBuildsWhatTheUpgradeBuildsFromTheProducts(facetValuesKept: Int) throws {
        let fixture = try CatalogFixture()
        try Self.importCSV(Self.csv(rows: 24_000), into: fixture, facetValuesKept: facetValuesKept)
        let rebuilt = try Self.rebuiltCopy(of: fixture.databasePath, in: fixture)
        for sql in Self.comparedTables {
            let imported = try Self.rows(sql, in: fixture.databasePath)
            #expect(!imported.isEmpty, "\(sql)")
            #expect(imported == (try Self.rows(sql, in: rebuilt)), "\(sql)")
        }
        // Both find the same products in the same order.
        let (imported, again) = (try ProductSearch(databasePath: fixture.databasePath), try ProductSearch(databasePath: rebuilt))
        for query in ["cafe", "jack", "ubergroße", "brand3", "s", "x", "model17 long", "uber", "jakcet wool"] {
            let found = try imported.allPages(query: query, pageSize: 50)
            #expect(!found.isEmpty, "\(query)")
            #expect(found == (try again.allPages(query: query, pageSize: 50)), "\(query)")
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.databasePath + ".importing.lists"))
        // Searches read the index in word-row order.
        let page = try ProductSearch(databasePath: fixture.databasePath).page(query: "cafe jacket", after: nil, limit: 5)
        #expect(page.products.count == 5)
    }

    @Test func anImportWhoseWordIndexCannotBeBuiltFailsAndLeavesTheCatalogAsItWas() throws {
        let fixture = try CatalogFixture()
        try Self.importCSV(Self.csv(rows: 300), into: fixture)
        let before = try fixture.allProducts()
        // A folder where the index's file goes: the index's thread cannot open it.
        try FileManager.default.createDirectory(atPath: fixture.databasePath + ".importing.lists", withIntermediateDirectories: false)
        #expect(throws: (any Error).self) { try Self.importCSV(Self.csv(rows: 2_000), into: fixture) }
        #expect(try fixture.allProducts() == before)
        #expect(!FileManager.default.fileExists(atPath: fixture.databasePath + ".importing"))
    }
}
