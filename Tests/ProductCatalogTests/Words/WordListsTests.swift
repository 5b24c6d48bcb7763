import Foundation
import Testing
import TestSupport
@testable @_spi(WordIndex) import ProductCatalog

/// A replacing import's word index against a naive inverted index of the catalog it made: every
/// term's and every start's list, and every place, on random catalogs; and the index rebuilt from
/// the products (as an upgrade or a compaction does) in one segment and in many.
@Suite struct WordListsTests {
    static let words = ["Linen", "lin", "Shirt", "shoes", "Café", "cafe", "ÉCRU", "navy", "na", "blue", "Ærø", "日本", "t-shirt", "x", "zed", "Zebra"]

    /// A random catalog's CSV: productIds in shuffled order, titles, brands and types of random words (some missing).
    static func csv(rows: Int, seed: UInt64) -> String {
        var random = SeededRandomGenerator(seed: seed)
        func phrase() -> String {
            Int.random(in: 0..<5, using: &random) == 0 ? "" : (0..<Int.random(in: 1...5, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
        }
        return "productId,title,brand,productType\n" + (0..<rows).map { index in
            "\(["P", "p", "Q"].randomElement(using: &random)!)-\(Int.random(in: 0..<1_000_000, using: &random))-\(index),\(phrase()),\(phrase()),\(phrase())\n"
        }.shuffled(using: &random).joined()
    }

    @Test(arguments: [UInt64(1), 2, 3])
    func theIndexIsTheNaiveOneOfTheCatalog(seed: UInt64) throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv(rows: 700, seed: seed))
        try Self.expectNaiveIndex(fixture.databasePath)
        #expect(!FileManager.default.fileExists(atPath: fixture.databasePath + ".importing.lists"))
        // Rebuilt from the products, spilling segments of at most `budget` bytes of postings.
        for budget in [16 << 20, 2_000, 500] {
            let copy = fixture.directory.path + "/rebuilt-\(budget).sqlite"
            try FileManager.default.copyItem(atPath: fixture.databasePath, toPath: copy)
            let connection = try Connection(path: copy, mode: .readWrite)
            try connection.transaction(.immediate) { try WordListsWriter.rebuild(connection, spillPath: copy + ".words", budget: budget) }
            try Self.expectNaiveIndex(copy)
        }
    }

    /// Expects the index of the catalog at `path` to be the naive one of its products.
    static func expectNaiveIndex(_ path: String) throws {
        let connection = try Connection(path: path, mode: .readOnly)
        let folder = try WordFolder()
        // The model: places in productId order, rows by title words, lists by folded term and start.
        let statement = try connection.prepare("SELECT productId, title, brand, productType FROM products ORDER BY productId")
        var model: [String: [Int64: UInt8]] = [:]
        var ids: [String] = []
        while try statement.step() {
            ids.append(statement.text(at: 0)!)
            let fields = (1...3).map { statement.text(at: Int32($0)) }
            let titleWords = try fields[0].map(folder.words)?.count ?? 0
            let row = Int64(min(max(titleWords, 1), 62)) << 40 | Int64(ids.count)
            for (index, field) in fields.enumerated() {
                for term in try field.map(folder.words) ?? [] {
                    model["t:" + term, default: [:]][row, default: 0] |= Posting.field(index)
                    for start in TermList.starts(of: Array(term.utf8)) {
                        model["s:" + String(decoding: start, as: UTF8.self), default: [:]][row, default: 0] |= Posting.field(index)
                    }
                }
            }
        }
        let terms = try TermList(connection: connection)
        let store = try SQLitePostingStore(connection: connection)
        var read: [String: [Int64: UInt8]] = [:]
        for list in 0..<terms.count {
            var cursor = try terms.cursor(list, store: store)
            var rows: [Int64: UInt8] = [:]
            var last: Int64 = 0
            while let posting = cursor.current {
                #expect(posting.row > last)
                last = posting.row
                rows[posting.row] = posting.fields
                try cursor.next()
            }
            #expect(terms.products(list) == rows.count)
            read[(list < terms.termCount ? "t:" : "s:") + terms.name(list)] = rows
        }
        #expect(read == model)
        let places = try PlaceMap.Reader(connection: connection)
        for (index, id) in ids.enumerated() {
            #expect(try places.productId(at: Int64(index + 1)) == id)
        }
        #expect(try WordLists.maxPlace(connection) == Int64(ids.count))
    }
}
