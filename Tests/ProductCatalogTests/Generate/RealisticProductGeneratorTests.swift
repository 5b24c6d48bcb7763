import Testing
@testable import FeedGenerator
@testable import ProductCatalog

@Suite("RealisticProductGenerator")
struct RealisticProductGeneratorTests {
    static let vocabulary = RealisticVocabulary(words: 20_000, seed: 3)

    private func generate(_ generator: RealisticProductGenerator) -> [UInt8] {
        var bytes: [UInt8] = []
        generator.write { bytes.append(contentsOf: $0) }
        return bytes
    }

    private func records(_ generator: RealisticProductGenerator) throws -> [ReadRecord] {
        try readRecords(from: MemoryByteSource(generate(generator)), options: CSVReader.Options(chunkSize: 4096))
    }

    @Test func theSameSeedGivesTheSameBytesAndAnotherSeedOthers() {
        let one = generate(RealisticProductGenerator(rows: 500, seed: 5, descriptions: true, vocabulary: Self.vocabulary))
        let again = generate(RealisticProductGenerator(rows: 500, seed: 5, descriptions: true, vocabulary: RealisticVocabulary(words: 20_000, seed: 3)))
        let other = generate(RealisticProductGenerator(rows: 500, seed: 6, descriptions: true, vocabulary: Self.vocabulary))
        #expect(one == again)
        #expect(one != other)
    }

    @Test func theVocabularyHasDistinctWordsInSeveralLanguagesWithAHeavyHead() {
        let words = Self.vocabulary.words
        #expect(Set(words).count == 20_000)
        #expect(words.contains { $0.contains("ä") || $0.contains("ö") || $0.contains("ü") || $0.contains("ß") })
        #expect(words.contains { $0.contains("é") || $0.contains("è") })
        #expect(words.contains { $0.contains("ñ") || $0.contains("ó") })
        #expect(words.contains { $0.contains("ł") || $0.contains("ż") || $0.contains("ś") })
        #expect(words.contains { $0.contains("å") })
        // Common words are short, rare ones long.
        let head = words.prefix(100).map(\.count).reduce(0, +)
        let tail = words.suffix(100).map(\.count).reduce(0, +)
        #expect(head < tail)
        #expect(Self.vocabulary.share(ofWord: 0) > 100 * Self.vocabulary.share(ofWord: 19_999))
    }

    @Test func everyRowIsValidCSVWithTitlesOfTwoToTwelveWordsAndFamiliesShareAGroup() throws {
        let generator = RealisticProductGenerator(rows: 3_000, seed: 9, descriptions: true, vocabulary: Self.vocabulary)
        let records = try records(generator)
        #expect(records.first?.fields == generator.columns)
        let rows = records.dropFirst()
        #expect(rows.count == 3_000)
        #expect(rows.allSatisfy { $0.malformation == nil && $0.fields.count == 10 })
        let lengths = rows.map { RealisticProductGenerator.tokenCount($0.fields[1]) }
        #expect(lengths.min() == 2 && lengths.max() == 12)
        #expect(Set(rows.map { $0.fields[0].lowercased() }).count == 3_000)
        let groups = Dictionary(grouping: rows.filter { !$0.fields[8].isEmpty }, by: { $0.fields[8] })
        #expect(groups.count > 50)
        #expect(groups.values.allSatisfy { $0.count >= 2 && $0.count <= 6 })
        // Variants share the model's title, some with their colour after it.
        #expect(groups.values.allSatisfy { family in family.allSatisfy { $0.fields[1].hasPrefix(family[0].fields[1]) } })
        #expect(rows.contains { $0.fields[9].contains("\n") })
        #expect(rows.contains { $0.fields[1].contains { $0.isNumber } })
    }
}
