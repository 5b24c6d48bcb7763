import FeedGenerator
import Foundation
import Synchronization
import Testing
import TestSupport
@testable @_spi(WordIndex) import ProductCatalog

/// Typo tolerance: matches one or two edits away, after every tier without typos, fewest first.
@Suite struct TypoSearchTests {
    /// The table of edit distances between the prefixes of `a` and of `b`, neighbouring characters
    /// swapped counting one (the restricted Damerau form), over Unicode scalars.
    static func distances(_ a: String, _ b: String) -> [[Int]] {
        let a = Array(a.unicodeScalars), b = Array(b.unicodeScalars)
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1) }
            }
        }
        return rows
    }

    /// The edit distance between `a` and `b`: the table's last entry.
    static func distance(_ a: String, _ b: String) -> Int {
        remembered(.whole, a, b) { distances(a, b).last!.last! }
    }

    /// How far `word` is from the nearest start of `token`: the least distance from `word` to any
    /// prefix of `token`, the smallest entry of the table's last row.
    static func prefixDistance(_ word: String, _ token: String) -> Int {
        remembered(.prefix, word, token) { distances(word, token).last!.min()! }
    }

    /// The model compares the same words again at every keystroke: each distance is computed once.
    private static func remembered(_ kind: DistanceKind, _ a: String, _ b: String, _ compute: () -> Int) -> Int {
        let key = DistanceKey(kind: kind, a: a, b: b)
        if let known = knownDistances.withLock({ $0[key] }) { return known }
        let found = compute()
        knownDistances.withLock { $0[key] = found }
        return found
    }

    private enum DistanceKind: Hashable { case whole, prefix }
    private struct DistanceKey: Hashable {
        let kind: DistanceKind
        let a: String
        let b: String
    }
    private static let knownDistances = Mutex<[DistanceKey: Int]>([:])

    static func allowance(_ word: String) -> Int {
        if word.contains(where: \.isNumber) { return 0 }
        return word.unicodeScalars.count >= 9 ? 2 : word.unicodeScalars.count >= 5 ? 1 : 0
    }

    /// The model's bucket by the ranking rules (``MatchRank``), as its number: the fewest typos
    /// first (each word at its nearest token within its allowance, the last word as the start of
    /// one), then where the words are: 0 the exact title (without typos), 1 every word in the
    /// title (the last as a start), 2 every word starting a title word, 3 in any field.
    static func modelTier(_ product: Product, _ query: [String]) -> Int? {
        let title = WordSearchTests.words(product.title)
        let fields = [title, WordSearchTests.words(product.brand) + WordSearchTests.words(product.productType)]
        guard !query.isEmpty else { return nil }
        if title == query { return 0 }
        let none = Int.max / 4
        /// Word `index`'s fewest typos at a token of `tokens`: whole tokens only with `whole`.
        func fit(_ index: Int, _ tokens: [String], whole: Bool) -> Int {
            let word = query[index]
            let isLast = index == query.count - 1
            let allowed = allowance(word)
            let best = tokens.map { token -> Int in
                if whole ? token == word : token.hasPrefix(word) { return 0 }
                guard allowed > 0 else { return none }
                // Each edit changes the length by one at most: a token too short (or, for a
                // whole word, too long) is farther than allowed without computing how far.
                let (length, tokenLength) = (word.unicodeScalars.count, token.unicodeScalars.count)
                guard tokenLength + allowed >= length, isLast || tokenLength <= length + allowed else { return none }
                return isLast ? prefixDistance(word, token) : distance(word, token)
            }.min() ?? none
            return best <= allowance(word) ? best : none
        }
        let titleFits = query.indices.map { fit($0, title, whole: false) }
        let anyFits = query.indices.map { min(titleFits[$0], fit($0, fields[1], whole: false)) }
        let wholeFits = query.indices.map { $0 == query.count - 1 ? titleFits[$0] : fit($0, title, whole: true) }
        var best: (typos: Int, place: Int)?
        for (fits, place) in [(wholeFits, 1), (titleFits, 2), (anyFits, 3)] where !fits.contains(none) {
            let candidate = (min(fits.reduce(0, +), 3), place)
            if best.map({ candidate < $0 }) ?? true { best = candidate }
        }
        return best.map { $0.typos * 4 + $0.place }
    }

    static func modelResult(_ all: [Product], _ query: String) -> [String] {
        let range = PrefixRange(prefix: query)
        func byId(_ product: Product) -> Bool {
            let key = product.productId.utf8.map(ProductIdOrder.fold)
            return !key.lexicographicallyPrecedes(range.lower) && (range.upper.map { key.lexicographicallyPrecedes($0) } ?? true)
        }
        let folded = Array(WordSearchTests.words(query).prefix(WordQuery.maxWords))
        let ranked = all.enumerated().compactMap { place, product -> (tier: Int, words: Int, place: Int, id: String)? in
            guard !byId(product), let tier = modelTier(product, folded) else { return nil }
            return (tier, min(max(WordSearchTests.words(product.title).count, 1), 62), place, product.productId)
        }.sorted { ($0.tier, $0.words, $0.place) < ($1.tier, $1.words, $1.place) }
        return WordModel.byProductId(all.filter(byId)) + ranked.map(\.id)
    }

    /// `text` with a typo of each kind in turn in its first word of 5 letters or more.
    static func misspellings(_ text: String) -> [String] {
        var words = text.split(separator: " ").map(String.init)
        guard let index = words.firstIndex(where: { $0.count >= 5 && $0.allSatisfy(\.isLetter) }) else { return [] }
        let letters = Array(words[index])
        var swapped = letters; swapped.swapAt(1, 2)
        var dropped = letters; dropped.remove(at: 2)
        var doubled = letters; doubled.insert(letters[2], at: 2)
        var changed = letters; changed[3] = changed[3] == "x" ? "q" : "x"
        return [swapped, dropped, doubled, changed].map { variant in
            words[index] = String(variant)
            return words.joined(separator: " ")
        }
    }

    /// Misspelt titles, typed halfway and whole: the pages and counts of the model of the rules.
    @Test func typoMatchesAgreeWithAPlainModelOfEditDistance() throws {
        let (fixture, all, _) = try WordSearchTests.realisticCatalog(rows: 700)
        let search = try ProductSearch(databasePath: fixture.databasePath)
        var queries: [String] = []
        for product in all.enumerated().filter({ $0.offset % 70 == 3 }).map(\.element) {
            for misspelt in Self.misspellings(product.title ?? "") {
                queries.append(misspelt)
                // The last word typed halfway, and a word more.
                let words = misspelt.split(separator: " ")
                queries.append(words.prefix(2).joined(separator: " "))
                if let last = words.last, last.count > 2 { queries.append(words.dropLast().joined(separator: " ") + " " + last.prefix(2)) }
            }
        }
        #expect(queries.count > 30)
        for query in queries {
            let expected = Self.modelResult(all, query)
            #expect(try search.allPages(query: query, pageSize: 20) == expected, "query \(query)")
            #expect(try search.count(query: query, listing: .variants) == expected.count, "query \(query)")
        }
    }

    /// A start of many terms after a rare word: `schw`, four characters of 400 terms, read from its
    /// own list; `schwe`, five characters of 150, read from the list of `sch` and checked by the
    /// products' words (``WordRun/checksWord(_:plan:terms:)``). The same pages and counts as the
    /// model, with and without typos (in the rare word), the start last or not.
    @Test(arguments: [("schw", 400, 1_500), ("schwe", 150, 500)])
    func aStartOfManyTermsAgreesWithTheModel(start: String, terms: Int, rows: Int) throws {
        var random = SeededRandomGenerator(seed: 48)
        let letters = Array("aeioulnrstkmpb")
        func word(_ length: Int) -> String { String((0..<length).map { _ in letters.randomElement(using: &random)! }) }
        let rare = (0..<40).map { _ in word(7) }
        let starts = (0..<terms).map { _ in start + word(Int.random(in: 1...5, using: &random)) } + [start]
        // Words that share `sch` but do not start with `schw`, or are a typo from it.
        let near = ["schv" + word(3), "scw" + word(3), "sxhw" + word(2)] + (0..<20).map { _ in "sch" + word(4) }
        var csv = "productId,title,brand\n"
        for row in 0..<rows {
            var title = [rare.randomElement(using: &random)!]
            for _ in 0..<Int.random(in: 0...2, using: &random) { title.append([starts, near, rare].randomElement(using: &random)!.randomElement(using: &random)!) }
            title.shuffle(using: &random)
            let brand = Int.random(in: 0..<4, using: &random) == 0 ? starts.randomElement(using: &random)! : ""
            csv += "P\(1_000 + row),\(title.joined(separator: " ")),\(brand)\n"
        }
        let fixture = try CatalogFixture()
        try fixture.importCSV(csv)
        let search = try ProductSearch(databasePath: fixture.databasePath)
        let index = try #require(try search.connection.reading { try search.indexView() }?.base)
        #expect((index.terms.list(ofStart: Array("schw".utf8)) != nil) == (start.count == 4), "a start of four characters of many terms has a list")
        let all = try search.allPages(prefix: "", pageSize: 1_000)
        let products = try all.map { try #require(try search.product(id: $0)) }
        // With typos, and without typos only.
        var queries: [(String, typos: Bool)] = []
        for word in rare.prefix(12) {
            let misspelt = String(word.prefix(2)) + String(word.dropFirst(3))
            queries += [(start + " " + word, true), (start + " " + misspelt, true), (word + " schv", true)]
            // A last word of five letters has near starts, capped (``WordPlan/Limits``), which this model does not know.
            queries += [(word + " " + start, start.count == 4), (misspelt + " " + start, start.count == 4), (start + " " + word + " " + start, start.count == 4)]
        }
        var checked = 0
        for (query, typos) in queries {
            let plan = try #require(try search.indexPlan(query, typos: true))
            if plan.words.indices.contains(where: { WordRun.checksWord($0, plan: plan, terms: index.terms) }) { checked += 1 }
            let expected = Self.modelResult(products, query)
            if typos {
                #expect(try search.allPages(query: query, pageSize: 7) == expected, "query \(query)")
                #expect(try search.count(query: query, listing: .variants) == expected.count, "query \(query)")
            }
            let exact = try search.allPages(query: query, typos: false, pageSize: 7)
            #expect(exact == expected.filter { id in Self.modelTier(products.first { $0.productId == id }!, WordSearchTests.words(query)).map { $0 < 4 } ?? true }, "query \(query), no typos")
        }
        if start.count == 4 {
            #expect(checked == 0, "a start with a list of its own is read from it")
        } else {
            #expect(checked >= queries.count / 2, "the start is checked in most queries")
        }

        // Products changed in place since the index was built: their postings in the start's list
        // are stale, and the changes' lists hold them as they are now.
        var upsert = fixture.options
        upsert.mode = .upsert
        let changes = products.prefix(12).enumerated().map { offset, product in
            "\(product.productId),\(rare[offset % 3]) \(offset.isMultiple(of: 2) ? start + "zz" : "plain"),"
        }
        let summary = try CatalogImporter(options: upsert).run(source: MemoryByteSource("productId,title,brand\n" + changes.joined(separator: "\n") + "\n"))
        #expect(summary.rowsUpdated == 12)
        let changed = try ProductSearch(databasePath: fixture.databasePath)
        #expect((try changed.connection.reading { try changed.indexView() }?.base.terms.list(ofStart: Array("schw".utf8)) != nil) == (start.count == 4))
        let now = try all.map { try #require(try changed.product(id: $0)) }
        for word in rare.prefix(3) {
            for query in [word + " " + start, start + " " + word] {
                let expected = Self.modelResult(now, query)
                #expect(try changed.allPages(query: query, pageSize: 7) == expected, "query \(query), after the upsert")
                #expect(try changed.count(query: query, listing: .variants) == expected.count, "query \(query), after the upsert")
            }
        }
    }

    @Test func aMisspeltTitleFindsItsProductAndTyposCanBeTurnedOff() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV("""
            productId,title,brand
            T1,Linen Shirt,Acme
            T2,Ceramic Mug 80g,
            T3,Shirtwaist Dress,
            T4,Mug,

            """)
        let search = try ProductSearch(databasePath: fixture.databasePath)
        #expect(try search.allPages(query: "shrit") == ["T1", "T3"], "shrit is shirt with two letters swapped")
        #expect(try search.allPages(query: "linen shrit") == ["T1"])
        #expect(try search.allPages(query: "linnen shirt") == ["T1"], "a letter too many")
        #expect(try search.allPages(query: "lnen shirt") == [], "four letters: no typo allowed")
        #expect(try search.allPages(query: "cermic") == ["T2"])
        #expect(try search.page(query: "shrit", typos: false).products.isEmpty)
        #expect(try search.count(query: "shrit", typos: false) == 0)
        // No typos on words with digits, on short words, or on productIds.
        #expect(try search.allPages(query: "80x") == [])
        #expect(try search.allPages(query: "mgu") == [])
        #expect(try search.allPages(query: "T5") == [])
        // Exact matches first, then the typos.
        #expect(try search.allPages(query: "shirt") == ["T1", "T3"])
        #expect(try search.allPages(query: "shirtwaist dres") == ["T3"])
    }
}

@Suite struct HighlightTests {
    @Test func rangesMarkTheMatchedWordsOfTheStoredTextAccentsAndAllCharactersIncluded() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV("productId,title,brand,productType\nH1,😀 日本工房 Café Olé T-Shirt,Müller,Crèmes Brûlées\n")
        let search = try ProductSearch(databasePath: fixture.databasePath)
        let page = try search.page(query: "cafe mulle brulee shi")
        let product = try #require(page.products.first)
        let highlights = try #require(page.highlights?.first)
        func marked(_ field: ProductField, _ text: String?) -> [String] {
            Highlights.ranges(of: highlights[field], in: text ?? "").map { String((text ?? "")[$0]) }
        }
        #expect(marked(.title, product.title) == ["Café", "Shirt"])
        #expect(marked(.brand, product.brand) == ["Müller"])
        // brulee starts brûlées, accents folded.
        #expect(marked(.productType, product.productType) == ["Brûlées"])
        #expect(highlights[.title].map(\.word) == ["cafe", "shi"])
        // The offsets are UTF-16 code units: the emoji takes two.
        #expect(highlights[.title].first?.start == "😀 日本工房 ".utf16.count)
        #expect(try search.page(prefix: "H").highlights == nil)
    }
}
