import Testing
@testable import ProductCatalog
import TestSupport

/// Prefix search against a plain model: fold ASCII letters, keep the ids that start with the
/// folded prefix, sort them by folded bytes. Every page of every search must follow it exactly.
@Suite struct PrefixSearchPropertyTests {
    static let alphabet: [String] = (0x21...0x7E).map { String(UnicodeScalar(UInt8($0))) } + ["é", "É", "ü", "日", "ß", "\u{7F}"].dropLast()

    static func folded(_ text: String) -> [UInt8] {
        text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    }

    @Test func everyPageOfEveryPrefixHoldsExactlyTheModelsIds() throws {
        var random = SeededRandomGenerator(seed: 12)
        func randomText(_ length: ClosedRange<Int>) -> String {
            (0..<Int.random(in: length, using: &random)).map { _ in Self.alphabet.randomElement(using: &random)! }.joined()
        }
        var csv = "productId,title\n"
        for _ in 0..<3_000 {
            let id = randomText(1...6)
            csv += "\"\(id.replacingOccurrences(of: "\"", with: "\"\""))\",x\n"
        }
        var fixture = try CatalogFixture()
        fixture.options.sortMemory = 1 << 20
        try fixture.importCSV(csv)
        let ids = try fixture.allProducts(pageSize: 1_000).map(\.productId)
        #expect(ids.count > 2_500)

        let search = try ProductSearch(databasePath: fixture.databasePath)
        var prefixes = ["@", "ab@", "[", "`", "{", "~", "_", "\\", "]", "^", "é", "日", "Z", "z@", "É"]
        for _ in 0..<150 { prefixes.append(randomText(1...3)) }
        for _ in 0..<150 {
            let id = ids.randomElement(using: &random)!
            prefixes.append(String(id.prefix(Int.random(in: 1...max(1, id.count), using: &random))))
        }
        for prefix in prefixes {
            let key = Self.folded(prefix)
            let expected = ids.filter { Self.folded($0).starts(with: key) }
                .sorted { Self.folded($0).lexicographicallyPrecedes(Self.folded($1)) }
            #expect(try search.count(prefix: prefix) == expected.count, "count of \(prefix.debugDescription)")
            for pageSize in expected.count <= 60 ? [1, 7, 20] : [7, 20] {
                var found: [String] = []
                var cursor: KeysetCursor?
                repeat {
                    let page = try search.page(prefix: prefix, after: cursor, limit: pageSize)
                    #expect(page.products.count <= pageSize)
                    found += page.products.map(\.productId)
                    cursor = page.nextCursor
                } while cursor != nil && found.count <= expected.count
                #expect(found == expected, "prefix \(prefix.debugDescription), pages of \(pageSize)")
            }
        }
    }
}
