/// Writes a product CSV file whose titles, brands and types use a large, realistic vocabulary
/// (see ``RealisticVocabulary``): what search must be measured on.
///
/// ```swift
/// let vocabulary = RealisticVocabulary(words: 600_000, seed: 1)
/// try RealisticProductGenerator(rows: 1_000_000, seed: 1, vocabulary: vocabulary).write(toPath: "realistic.csv")
/// ```
///
/// The header is `productId,title,brand,productType,listPrice,salesPrice,color,size,groupId`, and
/// `description` with descriptions. Products come in families: about one model in four has two to
/// six variants sharing a `groupId` and a title (half of them with the colour after a comma), told
/// apart by colour and size. With `families`, families are as fashion and home catalogs have them
/// and an `options` column names what tells their variants apart (see ``FamilyShape``). A title
/// has 2 to 12 words (most often 4 to 6), drawn by frequency, sometimes led by the brand or holding a
/// quantity or model code (`500ml`, `X200`); about one word in 200 carries the merchant's typo (two
/// letters swapped, one dropped or doubled). A description is 20 to 120 words in sentences. The
/// same seed, row count and vocabulary give the same bytes; memory does not grow with the rows.
public struct RealisticProductGenerator: Sendable {
    public let rows: Int
    public let seed: UInt64
    /// Whether each product gets a description.
    public let descriptions: Bool
    /// Whether families are those of ``FamilyShape`` (1 to 20 variants, with an `options` column)
    /// rather than one model in four with 2 to 6 variants.
    public let families: Bool
    public let vocabulary: RealisticVocabulary

    /// The header's column names.
    public var columns: [String] {
        ["productId", "title", "brand", "productType", "listPrice", "salesPrice", "color", "size", "groupId"]
            + (families ? ["options"] : []) + (descriptions ? ["description"] : [])
    }

    public init(rows: Int, seed: UInt64 = 1, descriptions: Bool = false, families: Bool = false, vocabulary: RealisticVocabulary) {
        precondition(rows >= 0, "a generator needs 0 or more rows")
        self.rows = rows
        self.seed = seed
        self.descriptions = descriptions
        self.families = families
        self.vocabulary = vocabulary
    }

    /// Writes the whole file to `sink` in chunks of about 64 KiB, each valid only during the call.
    public func write<E: Error>(to sink: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
        var chunk: [UInt8] = []
        chunk.reserveCapacity(1 << 17)
        chunk += Array((columns.joined(separator: ",") + "\n").utf8)
        let ids = ProductRowEncoder(rows: rows, seed: seed)
        var row = 0
        var model = 0
        while row < rows {
            var random = SplitMix64(seed: SplitMix64.mix(seed ^ UInt64(model) &* 0x9E37_79B9_7F4A_7C15))
            let product = makeModel(&random)
            let shape = families ? FamilyShape(&random) : nil
            let variants = shape?.variants ?? (random.next() % 4 == 0 ? 2 + Int(truncatingIfNeeded: random.next() % 5) : 1)
            let group = variants > 1 ? "G\(model)" : ""
            for variant in 0..<variants where row < rows {
                var color = RealisticVocabulary.colors[Int(truncatingIfNeeded: random.next() % UInt64(RealisticVocabulary.colors.count))]
                var size = RealisticVocabulary.sizes[Int(truncatingIfNeeded: random.next() % UInt64(RealisticVocabulary.sizes.count))]
                var options = ""
                if let shape, variants > 1 {
                    let variant = shape.variant(variant)
                    color = variant.color ?? color
                    size = variant.size ?? ""
                    options = variant.options
                }
                let named = variants > 1 && variant % 2 == 1 && Self.tokenCount(product.title) + Self.tokenCount(color) <= 12
                let title = named ? product.title + ", " + color : product.title
                var fields = [
                    ids.productId(ids.ids.permutation(UInt64(row))), title, product.brand, product.type,
                    product.listPrice, product.salesPrice, color, size, group,
                ]
                if families { fields.append(options) }
                if descriptions { fields.append(product.description) }
                Self.appendRecord(fields, to: &chunk)
                row += 1
                if chunk.count >= 1 << 16 {
                    try Self.hand(chunk, to: sink)
                    chunk.removeAll(keepingCapacity: true)
                }
            }
            model += 1
        }
        if !chunk.isEmpty { try Self.hand(chunk, to: sink) }
    }

    private struct Model {
        var title: String
        var brand: String
        var type: String
        var listPrice: String
        var salesPrice: String
        var description: String
    }

    /// How many words titles have, from 2 to 12, as weights.
    private static let titleLengths = [0, 0, 6, 12, 16, 16, 14, 11, 8, 6, 4, 3, 2]

    private func makeModel(_ random: inout SplitMix64) -> Model {
        let brand = random.next() % 10 == 0 ? "" : vocabulary.brands[vocabulary.brandRanks.next(&random)]
        let type = random.next() % 8 == 0 ? "" : vocabulary.types[vocabulary.typeRanks.next(&random)]
        var length = 2
        var draw = Int(truncatingIfNeeded: random.next() % UInt64(Self.titleLengths.reduce(0, +)))
        for (words, weight) in Self.titleLengths.enumerated() where weight > 0 {
            if draw < weight { length = words; break }
            draw -= weight
        }
        var words: [String] = []
        var tokens = 0
        if !brand.isEmpty, random.next() % 10 < 4, Self.tokenCount(brand) < length {
            words.append(brand)
            tokens = Self.tokenCount(brand)
        }
        let firstWord = words.count
        while tokens < length {
            var word = vocabulary.words[vocabulary.wordRanks.next(&random)]
            if random.next() % 200 == 0 { word = Self.misspelled(word, &random) }
            words.append(random.next() % 5 == 0 ? word : RealisticVocabulary.capitalized(word))
            tokens += 1
        }
        if random.next() % 7 == 0 {
            let number = 1 + random.next() % 999
            let code = random.next() % 2 == 0
                ? "\(number)\(RealisticVocabulary.units[Int(truncatingIfNeeded: random.next() % UInt64(RealisticVocabulary.units.count))])"
                : "X\(number)"
            words[firstWord + Int(truncatingIfNeeded: random.next() % UInt64(words.count - firstWord))] = code
        }
        let cents = 100 + Int(truncatingIfNeeded: random.next() % 60_000)
        let listCents = cents * cents / 40_000 + 99
        let sale = random.next() % 3 == 0 ? Self.price(listCents * 7 / 10 / 10 * 10 + 9) : ""
        return Model(
            title: words.joined(separator: " "), brand: brand, type: type, listPrice: Self.price(listCents),
            salesPrice: sale, description: descriptions ? makeDescription(&random) : "")
    }

    private func makeDescription(_ random: inout SplitMix64) -> String {
        var text = ""
        var remaining = 20 + Int(truncatingIfNeeded: random.next() % 101)
        while remaining > 0 {
            let count = min(remaining, 6 + Int(truncatingIfNeeded: random.next() % 10))
            remaining -= count
            var sentence = (0..<count).map { _ in vocabulary.words[vocabulary.wordRanks.next(&random)] }
            sentence[0] = RealisticVocabulary.capitalized(sentence[0])
            if random.next() % 20 == 0 { sentence[count / 2] = "\"" + sentence[count / 2] + "\"" }
            if !text.isEmpty { text += random.next() % 8 == 0 ? "\n" : " " }
            text += sentence.joined(separator: " ") + "."
        }
        return text
    }

    /// The words of `text` as search counts them: runs of letters and digits.
    static func tokenCount(_ text: String) -> Int {
        text.split { !$0.isLetter && !$0.isNumber }.count
    }

    /// `word` with two neighbouring letters swapped, one dropped or one doubled.
    private static func misspelled(_ word: String, _ random: inout SplitMix64) -> String {
        var letters = Array(word)
        guard letters.count >= 4 else { return word }
        let at = 1 + Int(truncatingIfNeeded: random.next() % UInt64(letters.count - 2))
        switch random.next() % 3 {
        case 0: letters.swapAt(at, at + 1)
        case 1: letters.remove(at: at)
        default: letters.insert(letters[at], at: at)
        }
        return String(letters)
    }

    /// Hands `bytes` to `sink`; the only error that can come out is the sink's own.
    private static func hand<E: Error>(_ bytes: [UInt8], to sink: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
        do {
            try bytes.withUnsafeBytes { try sink($0) }
        } catch let error as E {
            throw error
        } catch {
            preconditionFailure("withUnsafeBytes threw what the sink did not: \(error)")
        }
    }

    private static func price(_ cents: Int) -> String {
        let fraction = cents % 100
        return "\(cents / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// Appends one CSV record, quoting the fields that need it.
    private static func appendRecord(_ fields: [String], to bytes: inout [UInt8]) {
        for (index, field) in fields.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            let utf8 = field.utf8
            if utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }) {
                bytes.append(UInt8(ascii: "\""))
                for byte in utf8 {
                    bytes.append(byte)
                    if byte == UInt8(ascii: "\"") { bytes.append(byte) }
                }
                bytes.append(UInt8(ascii: "\""))
            } else {
                bytes += utf8
            }
        }
        bytes.append(0x0A)
    }
}
