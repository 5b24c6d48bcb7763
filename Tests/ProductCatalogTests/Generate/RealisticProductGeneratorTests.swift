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

    /// Word lists standing in for real ones: inflected forms of made-up stems, with lines a list
    /// of words would not give (too short, with a digit, an apostrophe or a hyphen).
    static func wordList(_ stems: String, endings: [String]) -> [String] {
        var lines = ["a", "B2B", "o'clock", "well-known"]
        func letters(_ number: Int) -> String {
            String(String(number, radix: 26).map { Character(UnicodeScalar(UInt8(String($0), radix: 26)! + 97)) })
        }
        for index in 0..<800 { for ending in endings { lines.append("\(stems)\(letters(index))ü\(ending)") } }
        return lines
    }

    @Test func realWordListsGiveAsManyWordsFromEachListAndTheSameWordsForASeed() {
        let lists = [Self.wordList("Prediger", endings: ["", "s", "n"]), Self.wordList("maison", endings: ["", "s", "nette"])]
        let vocabulary = RealisticVocabulary(wordLists: lists, words: 2_000, seed: 4)
        let usable = Set(lists.flatMap { $0.map { $0.lowercased() } }.filter { $0.count >= 2 && $0.allSatisfy(\.isLetter) })
        #expect(vocabulary.words.count == 2_000)
        #expect(Set(vocabulary.words).count == 2_000)
        #expect(vocabulary.words.allSatisfy(usable.contains))
        #expect(vocabulary.words.filter { $0.hasPrefix("prediger") }.count == 1_000)
        #expect(RealisticVocabulary(wordLists: lists, words: 2_000, seed: 4).words == vocabulary.words)
        #expect(RealisticVocabulary(wordLists: lists, words: 2_000, seed: 5).words != vocabulary.words)
        // Shorter words come first, give or take the three letters of the rank's jitter.
        #expect(vocabulary.words.prefix(200).map(\.count).max()! <= vocabulary.words.suffix(200).map(\.count).min()! + 3)
        let titles = generate(RealisticProductGenerator(rows: 200, seed: 1, vocabulary: vocabulary))
        #expect(String(decoding: titles, as: UTF8.self).lowercased().contains("prediger"))
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

    @Test func familiesHaveOneToTwentyVariantsToldApartByTheirOptions() throws {
        let generator = RealisticProductGenerator(rows: 5_000, seed: 2, families: true, vocabulary: Self.vocabulary)
        let records = try records(generator)
        #expect(records.first?.fields == generator.columns)
        let rows = records.dropFirst()
        #expect(rows.count == 5_000 && rows.allSatisfy { $0.malformation == nil && $0.fields.count == 10 })
        let alone = rows.filter { $0.fields[8].isEmpty }
        #expect(alone.allSatisfy { $0.fields[9].isEmpty })
        // Every model's variants are together; the file's last family may be cut short.
        let groups = Dictionary(grouping: rows.filter { !$0.fields[8].isEmpty }, by: { $0.fields[8] }).filter { $0.key != rows.last!.fields[8] }
        let sizes = Set(groups.values.map(\.count))
        #expect(sizes.min() == 2 && sizes.max() == 20 && sizes.count > 8)
        #expect(alone.count > rows.count / 20)
        for family in groups.values {
            let options = family.map { ProductOptions(text: $0.fields[9]) }
            // Each variant is told apart by its options, named alike across its family.
            #expect(Set(options.map(\.text)).count == family.count)
            #expect(Set(options.map { $0.options.map(\.name) }).count == 1)
            for (row, option) in zip(family, options) {
                if let color = option["Color"] { #expect(row.fields[6] == color) }
                if let size = option["Size"] { #expect(row.fields[7] == size) }
            }
        }
        #expect(Set(groups.values.flatMap { $0.flatMap { ProductOptions(text: $0.fields[9]).options.map(\.name) } })
            == ["Color", "Size", "Length", "Material", "Capacity"])
        // Without families, the file is as it was: no options column.
        #expect(!RealisticProductGenerator(rows: 1, vocabulary: Self.vocabulary).columns.contains("options"))
    }
}
