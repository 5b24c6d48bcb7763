import Foundation
import Testing
import TestSupport
@testable @_spi(WordIndex) import ProductCatalog

/// The word search over the catalog's own index against a model of the ranking rules: for random
/// catalogs and queries (typed, cut short, misspelt), every product's bucket worked out from its
/// fields' words alone, the matches sorted by bucket, title length and catalog order, and read
/// back page by page through the cursor.
@Suite struct RankingRulesTests {
    static let vocabulary = ["linen", "linens", "lines", "shirt", "shirts", "skirt", "short", "navy", "nave", "blue", "blues",
                             "acme", "acne", "jacket", "jackets", "packet", "wool", "wolf", "cafe", "café", "trouser", "trousers"]

    /// A catalog of `rows` random products; productIds are digits, so no letter query starts one.
    static func csv(rows: Int, random: inout SeededRandomGenerator) -> String {
        func words(_ range: ClosedRange<Int>) -> String {
            (0..<Int.random(in: range, using: &random)).map { _ in vocabulary.randomElement(using: &random)! }.joined(separator: " ")
        }
        return "productId,title,brand,productType,color\n" + (0..<rows).map { index in
            "\(100_000 + index * 7),\(words(1...4)),\(words(0...2)),\(words(0...2)),\(["Navy", "Red", ""].randomElement(using: &random)!)\n"
        }.shuffled(using: &random).joined()
    }

    /// The bucket of a product with `fields` (title, brand, type) for `plan`, by the rules' words.
    static func modelRank(_ fields: [[String]], plan: WordPlan) -> MatchRank? {
        let words = plan.words
        var matches: [WordFit] = []
        for (index, word) in words.enumerated() {
            let isLast = index == words.count - 1
            var match = WordFit()
            for (field, tokens) in fields.enumerated() {
                for token in tokens {
                    let bits = Posting.field(field)
                    if token.utf8.starts(with: word.folded.utf8) {
                        match.note(fields: bits, distance: 0, isWhole: token == word.folded)
                    }
                    for near in word.near {
                        if isLast ? token.utf8.starts(with: near.text.utf8) : token == near.text {
                            match.note(fields: bits, distance: UInt8(near.distance), isWhole: !isLast)
                        }
                    }
                }
            }
            matches.append(match)
        }
        guard var rank = MatchRank.of(matches) else { return nil }
        if rank == MatchRank(typos: 0, place: .titleWords), fields[0] == words.map(\.folded) { rank = .first }
        return rank
    }

    @Test(arguments: [(UInt64(1), true), (2, false), (3, true), (4, true)])
    func pagesFollowTheRulesModel(seed: UInt64, typos: Bool) throws {
        var random = SeededRandomGenerator(seed: seed)
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv(rows: 400, random: &random))
        let search = try ProductSearch(databasePath: fixture.databasePath)
        let folder = try WordFolder()
        // Every product's words and row, as the model reads them.
        let connection = try Connection(path: fixture.databasePath, mode: .readOnly)
        let statement = try connection.prepare("SELECT productId, title, brand, productType, color FROM products ORDER BY productId")
        var products: [(id: String, row: Int64, fields: [[String]], color: String?)] = []
        while try statement.step() {
            let fields = try (1...3).map { try folder.words(in: statement.text(at: Int32($0)) ?? "") }
            let row = Int64(min(max(fields[0].count, 1), 62)) << 40 | Int64(products.count + 1)
            products.append((statement.text(at: 0)!, row, fields, statement.text(at: 4)))
        }
        var queries = ["linen", "lin", "l", "shirt blue", "shirt bl", "navy j", "acme", "café", "cafe wool", "linen shirt navy"]
        for _ in 0..<25 {
            var words = (0..<Int.random(in: 1...3, using: &random)).map { _ in Self.vocabulary.randomElement(using: &random)! }
            if Bool.random(using: &random) { words[words.count - 1] = String(words[words.count - 1].prefix(Int.random(in: 1...4, using: &random))) }
            if Bool.random(using: &random), let index = words.indices.first(where: { words[$0].count >= 5 }) {
                var letters = Array(words[index])
                letters.swapAt(1, 2)
                words[index] = String(letters)
            }
            queries.append(words.joined(separator: " "))
        }
        var seen = Set<MatchRank>()
        var matched = 0
        for query in queries {
            for filtered in [false, true] {
                var filters = SearchFilters()
                if filtered { filters.colors = ["navy"] }
                guard let plan = try search.indexPlan(query, typos: typos) else {
                    #expect(products.allSatisfy { _ in true })
                    continue
                }
                // The matcher that ranks a product by its own words (a family's other variants) agrees with the model.
                let matcher = WordMatcher(plan: plan)
                for product in products {
                    #expect(matcher.rank(fields: product.fields.map { $0.map { Array($0.utf8) } }) == Self.modelRank(product.fields, plan: plan),
                            "\(query): \(product.id)")
                }
                let expected = products.compactMap { product -> (MatchRank, Int64, String)? in
                    guard !filtered || product.color?.lowercased() == "navy", let rank = Self.modelRank(product.fields, plan: plan) else { return nil }
                    return (rank, product.row, product.id)
                }.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
                var read: [(MatchRank, Int64, String)] = []
                var position: (rank: MatchRank, row: Int64)?
                while true {
                    let hits = try search.indexHits(plan, after: position, excluding: PrefixRange(prefix: query), filters: filters, limit: 7)
                    read += hits.map { ($0.rank, $0.row, $0.productId) }
                    guard hits.count == 7, let last = hits.last else { break }
                    position = (last.rank, last.row)
                }
                seen.formUnion(expected.map(\.0))
                matched += expected.count
                #expect(read.map(\.2) == expected.map(\.2), "\(query) \(filtered ? "navy" : "")")
                #expect(read.map(\.0) == expected.map(\.0), "\(query)")
                let count = try search.indexCount(plan, excluding: PrefixRange(prefix: query), filters: filters, limit: nil)
                #expect(count.count == expected.count && count.isComplete, "\(query)")
            }
        }
        // The queries met every bucket without typos, and (with them) some with.
        #expect(matched > 1_000)
        #expect([.exactTitle, .titleWords, .titleStarts, .anyField].allSatisfy { place in seen.contains(MatchRank(typos: 0, place: place)) }, "\(seen)")
        #expect(typos == seen.contains { $0.typos > 0 }, "\(seen)")
    }
}
