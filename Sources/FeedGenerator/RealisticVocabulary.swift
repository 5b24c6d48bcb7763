/// The words of a realistic catalog: hundreds of thousands of them, in six languages, with a
/// heavy head and a long tail, plus brands, product types, colours and sizes.
///
/// Word `r` (0-based rank) is drawn about `(r + 1)^-0.75` times as often as the most common
/// one: with 600,000 words the most common is about 0.9% of all title words (in about 6% of
/// titles), and nearly every word turns up somewhere in a million products. Common words are
/// short, rare ones long, as in real text. Everything comes from the seed.
public struct RealisticVocabulary: Sendable {
    /// The words, most common first, in lower case.
    public let words: [String]
    /// Brand names, most common first.
    public let brands: [String]
    /// Product types (one to three words), most common first.
    public let types: [String]
    let wordRanks: ZipfSampler
    let brandRanks: ZipfSampler
    let typeRanks: ZipfSampler

    static let colors = [
        "Black", "White", "Navy", "Gray", "Red", "Olive", "Beige", "Charcoal", "Sky Blue", "Forest Green",
        "Burgundy", "Sand", "Silver", "Teal", "Ivory", "Crème", "Mustard", "Rose Gold", "Schwarz", "Weiß",
        "Grün", "Noir", "Blanc", "Bleu", "Vert", "Negro", "Blanco", "Azul", "Czarny", "Biały", "Svart", "Blå",
    ]
    static let sizes = ["XS", "S", "M", "L", "XL", "XXL", "36", "38", "40", "42", "44", "One Size", ""]
    static let units = ["ml", "g", "kg", "cm", "mm", "W", "V", "GB", "L", "m"]

    /// `wordCount` distinct words (at least 1,000), 30,000 brands (or fewer for a small vocabulary) and 2,500 types, from `seed`.
    public init(words wordCount: Int = 600_000, seed: UInt64 = 1) {
        precondition(wordCount >= 1_000, "a realistic vocabulary has at least 1,000 words")
        var random = SplitMix64(seed: SplitMix64.mix(seed ^ 0x766F_6361_6275_6C61))
        var seen = Set<String>(minimumCapacity: wordCount)
        var words: [String] = []
        words.reserveCapacity(wordCount)
        let languages = WordMaker.languages
        while words.count < wordCount {
            let rank = words.count
            let language = languages[Int(truncatingIfNeeded: random.next() % UInt64(languages.count))]
            let longest = rank < 300 ? 2 : rank < 30_000 ? 3 : 4
            let syllables = 1 + Int(truncatingIfNeeded: random.next() % UInt64(longest))
            let word = WordMaker.word(language: language, syllables: rank < 300 ? syllables : max(2, syllables), random: &random)
            guard word.unicodeScalars.count >= 2, seen.insert(word).inserted else { continue }
            words.append(word)
        }
        self.init(ranked: words, random: &random)
    }

    /// Up to `wordCount` words (at least 1,000 in all) taken from real word lists, as many from
    /// each list as the others (the lists' words of two or more letters, hyphens and apostrophes
    /// aside, in lower case), so that titles have the dense near neighbours of real languages
    /// (inflected forms: *prediger*, *predigers*, *predigern*). Their ranks come from `seed`,
    /// shorter words more common, as in real text; brands and types as with generated words.
    public init(wordLists: [[String]], words wordCount: Int = 600_000, seed: UInt64 = 1) {
        var random = SplitMix64(seed: SplitMix64.mix(seed ^ 0x7265_616C_776F_7264))
        var seen = Set<String>(minimumCapacity: wordCount)
        var words: [String] = []
        let share = max(1, wordCount / max(1, wordLists.count))
        for list in wordLists {
            var usable = list.compactMap { line -> String? in
                let word = line.lowercased()
                return word.count >= 2 && word.allSatisfy(\.isLetter) ? word : nil
            }
            // A sample of `share` of them: the first `share` of a seeded shuffle.
            for index in usable.indices.dropLast() {
                let other = index + Int(truncatingIfNeeded: random.next() % UInt64(usable.count - index))
                usable.swapAt(index, other)
            }
            for word in usable.prefix(share) where seen.insert(word).inserted { words.append(word) }
        }
        precondition(words.count >= 1_000, "real word lists give a realistic vocabulary of at least 1,000 words")
        // Ranked by length, give or take three letters: short words common, long ones rare.
        let keyed = words.map { ($0, $0.count + Int(truncatingIfNeeded: random.next() % 4)) }
        self.init(ranked: keyed.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.map(\.0), random: &random)
    }

    /// The vocabulary of `words`, most common first, with brands and types made from `random`.
    private init(ranked words: [String], random: inout SplitMix64) {
        let languages = WordMaker.languages
        self.words = words
        let wordCount = words.count

        var brands: [String] = []
        let brandCount = min(30_000, wordCount / 20)
        var brandNames = Set<String>()
        while brands.count < brandCount {
            let language = languages[Int(truncatingIfNeeded: random.next() % UInt64(languages.count))]
            var name = Self.capitalized(WordMaker.word(language: language, syllables: 2, random: &random))
            switch random.next() % 20 {
            case 0..<4: name += " " + Self.capitalized(words[Int(truncatingIfNeeded: random.next() % UInt64(min(2_000, wordCount)))])
            case 4: name += " & " + Self.capitalized(WordMaker.word(language: language, syllables: 2, random: &random))
            case 5: name += "-" + Self.capitalized(WordMaker.word(language: language, syllables: 1, random: &random))
            default: break
            }
            if brandNames.insert(name.lowercased()).inserted { brands.append(name) }
        }
        self.brands = brands

        var types: [String] = []
        var typeNames = Set<String>()
        let typePool = min(30_000, wordCount)
        while types.count < 2_500 {
            let length = 1 + Int(truncatingIfNeeded: random.next() % 3)
            let name = (0..<length).map { _ in Self.capitalized(words[Int(truncatingIfNeeded: random.next() % UInt64(typePool))]) }
                .joined(separator: " ")
            if typeNames.insert(name.lowercased()).inserted { types.append(name) }
        }
        self.types = types

        wordRanks = ZipfSampler(count: words.count, exponent: .threeQuarters)
        brandRanks = ZipfSampler(count: brands.count, exponent: .one)
        typeRanks = ZipfSampler(count: types.count, exponent: .one)
    }

    /// The share of title words that are `words[rank]`.
    public func share(ofWord rank: Int) -> Double {
        wordRanks.share(of: rank)
    }

    static func capitalized(_ word: String) -> String {
        guard let first = word.first else { return word }
        return first.uppercased() + word.dropFirst()
    }
}
