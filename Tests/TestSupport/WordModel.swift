import Foundation
import Synchronization
@testable import ProductCatalog

/// The plain model of word search the tests of both engines hold the index to: words as the
/// tokenizer folds them, the tiers of the ranking rules without typos, and what a search lists
/// for products given in the order of their places.
public enum WordModel {
    /// Words as the model has them: runs of letters and digits, lower-cased and accents removed,
    /// as the tokenizer does (which, unlike Foundation's case folding, keeps `ß` as it is).
    public static func words(_ text: String?) -> [String] {
        guard let text, !text.isEmpty else { return [] }
        if let known = foldedWords.withLock({ $0[text] }) { return known }
        let folded = text.lowercased().folding(options: [.diacriticInsensitive], locale: nil)
            .split { !$0.isLetter && !$0.isNumber }.flatMap { cjkPairs(String($0)) }
        foldedWords.withLock { $0[text] = folded }
        return folded
    }

    /// A word with its runs of Chinese and Japanese as their overlapping pairs of characters and
    /// their last character (``CJKBigrams``), the rest as it is.
    public static func cjkPairs(_ word: String) -> [String] {
        func isCJK(_ character: Character) -> Bool {
            guard let scalar = character.unicodeScalars.first?.value else { return false }
            return [0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF66...0xFF9F].contains { $0.contains(scalar) }
        }
        var pieces: [String] = []
        var run: [Character] = []
        var other = ""
        func flush() {
            if !other.isEmpty { pieces.append(other); other = "" }
            if run.count == 1 { pieces.append(String(run)) }
            if run.count > 1 { pieces += zip(run, run.dropFirst()).map { String([$0, $1]) } + [String(run.last!)] }
            run = []
        }
        for character in word {
            if isCJK(character) {
                if !other.isEmpty { pieces.append(other); other = "" }
                run.append(character)
            } else {
                if !run.isEmpty { flush() }
                other.append(character)
            }
        }
        flush()
        return pieces
    }

    /// The model folds the same titles again and again: once is enough.
    private static let foldedWords = Mutex<[String: [String]]>([:])

    /// The tier a product meets for `query` in the model: 1 exact title, 2 every word in the title
    /// (the last as a start), 3 every word starting a title word, 4 starting a word of any field.
    public static func tier(_ product: Product, _ query: [String]) -> Int? {
        let title = words(product.title)
        let other = words(product.brand) + words(product.productType)
        guard let last = query.last else { return nil }
        if title == query { return 1 }
        if query.dropLast().allSatisfy(title.contains), title.contains(where: { $0.hasPrefix(last) }) { return 2 }
        if query.allSatisfy({ word in title.contains { $0.hasPrefix(word) } }) { return 3 }
        if query.allSatisfy({ word in (title + other).contains { $0.hasPrefix(word) } }) { return 4 }
        return nil
    }

    /// What a search for `query` must list, by the rules, without typos: products whose productId
    /// starts with it, then the word matches by tier and their title's number of words; `all` in
    /// the order of their places (one import's in productId order).
    public static func result(_ all: [Product], _ query: String) -> [String] {
        let range = PrefixRange(prefix: query)
        func byId(_ product: Product) -> Bool {
            let key = product.productId.utf8.map(ProductIdOrder.fold)
            return !key.lexicographicallyPrecedes(range.lower) && (range.upper.map { key.lexicographicallyPrecedes($0) } ?? true)
        }
        let folded = Array(words(query).prefix(WordQuery.maxWords))
        guard !folded.isEmpty else { return all.map(\.productId) }
        let ranked = all.enumerated().compactMap { place, product -> (tier: Int, words: Int, place: Int, id: String)? in
            guard !byId(product), let found = tier(product, folded) else { return nil }
            return (found, min(max(words(product.title).count, 1), 62), place, product.productId)
        }.sorted { ($0.tier, $0.words, $0.place) < ($1.tier, $1.words, $1.place) }
        return byProductId(all.filter(byId)) + ranked.map(\.id)
    }

    /// The productIds of `products` in productId order, as a prefix lists them (ASCII case ignored).
    public static func byProductId(_ products: [Product]) -> [String] {
        products.map(\.productId).sorted { $0.utf8.map(ProductIdOrder.fold).lexicographicallyPrecedes($1.utf8.map(ProductIdOrder.fold)) }
    }

}
