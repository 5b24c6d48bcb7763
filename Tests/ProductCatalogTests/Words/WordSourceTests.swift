import Testing
import TestSupport
@testable @_spi(WordIndex) import ProductCatalog

/// A word's source (the union of its alternatives' lists, each row with how well it matches)
/// against a naive one: every row of every list, merged and noted in one sorted pass.
@Suite struct WordSourceTests {
    /// From few alternatives (moved through the heap) to hundreds (moved in bulk when a skip
    /// leaves many behind), walked with next and with jumps of every length.
    @Test(arguments: [(UInt64(1), 3), (2, 12), (3, 90), (4, 400)])
    func aSourceIsTheUnionOfItsListsMatchedAsTheyNoteIt(seed: UInt64, alternatives count: Int) throws {
        var random = SeededRandomGenerator(seed: seed)
        let lists: [(postings: [Posting], distance: UInt8, isWhole: Bool)] = (0..<count).map { _ in
            let rows = Set((0..<Int.random(in: 0...60, using: &random)).map { _ in Int64.random(in: 0..<5_000, using: &random) }).sorted()
            let postings = rows.map { Posting(row: $0, fields: UInt8.random(in: 1...7, using: &random)) }
            return (postings, UInt8.random(in: 0...2, using: &random), Bool.random(using: &random))
        }
        let requirements: [(String, (WordFit) -> Bool)] = [("any", { $0.any != WordFit.none }), ("title", { $0.title == 0 }), ("whole", { $0.whole <= 1 })]
        for (name, requirement) in requirements {
            var fits: [Int64: WordFit] = [:]
            for list in lists {
                for posting in list.postings { fits[posting.row, default: WordFit()].note(fields: posting.fields, distance: list.distance, isWhole: list.isWhole) }
            }
            let expected = fits.filter { requirement($0.value) }.sorted { $0.key < $1.key }
            var source = try WordSource(lists.map { try WordAlternative(.memory($0.postings, index: 0), distance: $0.distance, isWhole: $0.isWhole, stale: nil) },
                                        requirement: requirement)
            var index = 0
            while index < expected.count {
                #expect(source.row == expected[index].key, "\(name): row at \(index)")
                #expect(source.match == expected[index].value, "\(name): match of row \(expected[index].key)")
                guard source.row == expected[index].key else { return }
                if Bool.random(using: &random) {
                    try source.next()
                    index += 1
                } else {
                    let target = expected[index].key + Int64.random(in: 1...400, using: &random)
                    try source.advance(to: target)
                    index = expected.firstIndex { $0.key >= target } ?? expected.count
                }
            }
            #expect(source.row == nil, "\(name): past the last row")
        }
    }
}
