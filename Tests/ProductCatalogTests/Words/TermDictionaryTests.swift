import Testing
@testable import ProductCatalog
import TestSupport

/// The typo dictionary's walk against a naive model: every term's edit distance to the word
/// (``TypoSearchTests/distances(_:_:)``), on random vocabularies dense with near neighbours.
@Suite struct TermDictionaryTests {
    /// Random terms over a few letters (two of them two bytes wide, one three), so that many are a typo or two apart.
    static func randomTerms(_ random: inout SeededRandomGenerator, count: Int) -> [String] {
        let letters: [Character] = ["a", "b", "c", "d", "e", "é", "ß", "€"]
        let terms = (0..<count).map { _ in
            String((0..<Int.random(in: 1...12, using: &random)).map { _ in letters.randomElement(using: &random)! })
        }
        return Array(Set(terms)).sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    static func dictionary(_ terms: [String]) -> TermDictionary {
        var bytes: [UInt8] = []
        var starts: [Int32] = []
        for term in terms {
            starts.append(Int32(bytes.count))
            bytes += term.utf8
        }
        starts.append(Int32(bytes.count))
        return TermDictionary(bytes: bytes, starts: starts, version: 1)
    }

    /// A word near some term: a term with up to three random edits.
    static func randomWord(_ terms: [String], _ random: inout SeededRandomGenerator) -> String {
        var word = Array(terms.randomElement(using: &random)!)
        let letters: [Character] = ["a", "b", "c", "é", "x"]
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            let at = Int.random(in: 0...word.count, using: &random)
            switch Int.random(in: 0..<4, using: &random) {
            case 0: word.insert(letters.randomElement(using: &random)!, at: at)
            case 1 where at < word.count: word.remove(at: at)
            case 2 where at < word.count: word[at] = letters.randomElement(using: &random)!
            case 3 where at + 1 < word.count: word.swapAt(at, at + 1)
            default: break
            }
        }
        return word.isEmpty ? "a" : String(word)
    }

    @Test(arguments: [1, 2])
    func wholeWordsWithinTheAllowanceAreTheModelsOnesAtTheirDistance(allowance: Int) throws {
        var random = SeededRandomGenerator(seed: UInt64(allowance))
        let terms = Self.randomTerms(&random, count: 3_000)
        let dictionary = Self.dictionary(terms)
        for _ in 0..<150 {
            let word = Self.randomWord(terms, &random)
            let found = dictionary.near(word, within: allowance, asPrefix: false)
            var expected: [String: Int] = [:]
            for term in terms {
                let distance = TypoSearchTests.distances(word, term).last!.last!
                if distance <= allowance { expected[term] = distance }
            }
            #expect(Dictionary(found.map { ($0.text, $0.distance) }, uniquingKeysWith: { _, _ in -1 }) == expected, "\(word)")
        }
    }

    /// As a prefix, the starts found cover each term as closely as its nearest start comes to the
    /// word (its least distance over its prefixes), and none covers a term further than the allowance.
    @Test(arguments: [1, 2])
    func startsCoverEveryTermAtItsNearestStartsDistance(allowance: Int) throws {
        var random = SeededRandomGenerator(seed: UInt64(10 + allowance))
        let terms = Self.randomTerms(&random, count: 3_000)
        let dictionary = Self.dictionary(terms)
        for _ in 0..<150 {
            // Longer than the allowance, so that the empty start is not within it.
            let word = Self.randomWord(terms, &random)
            guard word.unicodeScalars.count > allowance else { continue }
            let found = dictionary.near(word, within: allowance, asPrefix: true)
            for start in found {
                #expect(TypoSearchTests.distances(word, start.text).last!.last! == start.distance, "\(word): \(start.text)")
                #expect(terms.contains { $0.hasPrefix(start.text) }, "\(word): \(start.text)")
            }
            for term in terms {
                let nearest = TypoSearchTests.distances(word, term).last!.min()!
                let covering = found.filter { term.unicodeScalars.starts(with: $0.text.unicodeScalars) }.map(\.distance).min()
                #expect(covering == (nearest <= allowance ? nearest : nil), "\(word): \(term)")
            }
        }
    }
}
