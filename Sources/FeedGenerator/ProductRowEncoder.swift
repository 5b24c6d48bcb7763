/// Turns a row index and a stream of random numbers into one CSV line of a generated product.
///
/// The vocabulary is compiled once into a ``PhraseTable``; each row is then a handful of table
/// look-ups and byte copies into an ``OutputBuffer``, with no `String` work at all.
struct ProductRowEncoder {
    private struct Category {
        let nouns: PhraseTable.List
        let details: PhraseTable.List
        let sizes: PhraseTable.List
        let minDollars: Int
        let dollarSpan: Int
    }

    private struct Family {
        let prefix: PhraseTable.Phrase
        let digits: Int
        let tailDigits: Int
        let suffixes: PhraseTable.List
    }

    /// The header line, ending in LF.
    static let header = Array("productId,title,listPrice,salesPrice,color,size\n".utf8)

    /// The vocabulary's bytes.
    let table: PhraseTable
    /// An upper bound on the bytes of one row, line break included.
    let maxRowBytes: Int
    let ids: ProductIdScheme
    private let brands: PhraseTable.List
    private let adjectives: PhraseTable.List
    private let nicknames: PhraseTable.List
    private let colors: PhraseTable.List
    private let categories: [Category]
    private let families: [Family]

    /// Percent off for products on sale.
    private static let discounts: [Int] = [10, 10, 15, 20, 20, 25, 30, 40, 50]

    init(rows: Int, seed: UInt64) {
        var table = PhraseTable()
        brands = table.add(ProductVocabulary.brands)
        adjectives = table.add(ProductVocabulary.adjectives)
        nicknames = table.add(ProductVocabulary.nicknames)
        colors = table.add(ProductVocabulary.colors)
        categories = ProductVocabulary.categories.map { category in
            Category(
                nouns: table.add(category.nouns),
                details: table.add(category.details),
                sizes: table.add(category.sizes),
                minDollars: category.prices.lowerBound,
                dollarSpan: category.prices.upperBound - category.prices.lowerBound)
        }
        families = ProductIdScheme.families.map { family in
            let prefix = table.add([family.prefix])
            return Family(
                prefix: table.phrases[prefix.first],
                digits: family.digits,
                tailDigits: family.tailDigits,
                suffixes: table.add(family.suffixes))
        }
        self.table = table
        ids = ProductIdScheme(rows: rows, seed: seed)
        // Every field is at most a few phrases (each at most `longest`, quotes doubled) plus
        // quotes and separators; numbers are at most 20 digits; 8 phrases and 128 bytes cover it.
        maxRowBytes = 8 * table.longest + 128
    }

    /// Appends the line of row `row`, drawing its content from `random`.
    ///
    /// `buffer` must have room for ``maxRowBytes``.
    @inline(__always)
    func appendRow(_ row: Int, random: inout SplitMix64, view: PhraseTable.View, to buffer: inout OutputBuffer) {
        let start = buffer.count
        appendProductId(product: ids.permutation(UInt64(row)), view: view, to: &buffer)
        buffer.append(UInt8(ascii: ","))

        var pick = RandomBits(random.next())
        let category = categories[pick.below(categories.count)]
        let template = pick.below(100)
        let brand = view.phrase(brands, pick.below(brands.count))
        let noun = view.phrase(category.nouns, pick.below(category.nouns.count))
        pick = RandomBits(random.next())
        let adjective = view.phrase(adjectives, pick.below(adjectives.count))
        let detail = view.phrase(category.details, pick.below(category.details.count))
        let nickname = view.phrase(nicknames, pick.below(nicknames.count))
        switch template {
        case 0..<45:
            appendTitle(brand, nil, noun, view: view, to: &buffer)
        case 45..<60:
            appendTitle(nil, adjective, noun, view: view, to: &buffer)
        case 60..<80:
            appendTitle(brand, adjective, noun, view: view, to: &buffer)
        case 80..<92:
            appendTitle(brand, nil, noun, detail: detail, view: view, to: &buffer)
        case 92..<98:
            appendTitle(brand, nil, noun, nickname: nickname, view: view, to: &buffer)
        default:
            appendTitle(nil, adjective, noun, detail: detail, view: view, to: &buffer)
        }
        buffer.append(UInt8(ascii: ","))

        pick = RandomBits(random.next())
        appendPrices(category: category, pick: &pick, to: &buffer)
        buffer.append(UInt8(ascii: ","))

        pick = RandomBits(random.next())
        appendField(view.phrase(colors, pick.below(colors.count)), view: view, to: &buffer)
        buffer.append(UInt8(ascii: ","))
        appendField(view.phrase(category.sizes, pick.below(category.sizes.count)), view: view, to: &buffer)
        buffer.append(UInt8(ascii: "\n"))
        assert(buffer.count - start <= maxRowBytes, "maxRowBytes is too small")
    }

    /// Appends the productId of product number `product`; see ``ProductIdScheme``.
    @inline(__always)
    private func appendProductId(product: UInt64, view: PhraseTable.View, to buffer: inout OutputBuffer) {
        let family = families[Int(truncatingIfNeeded: product & (1 << ProductIdScheme.familyBits - 1))]
        let number = product &>> UInt64(ProductIdScheme.familyBits)
        view.append(family.prefix, to: &buffer)
        buffer.appendDecimal(number, minDigits: family.digits)
        if family.tailDigits > 0 {
            buffer.insert(UInt8(ascii: "-"), beforeLast: family.tailDigits)
        }
        let suffix = ProductIdScheme.suffixIndex(number: number, count: family.suffixes.count)
        view.append(view.phrase(family.suffixes, suffix), to: &buffer)
    }

    /// The productId of product number `product`, as a string: for tests, not for the hot loop.
    func productId(_ product: UInt64) -> String {
        var storage = [UInt8](repeating: 0, count: maxRowBytes)
        return storage.withUnsafeMutableBufferPointer { storage in
            var buffer = OutputBuffer(base: storage.baseAddress!, capacity: storage.count)
            table.withView { appendProductId(product: product, view: $0, to: &buffer) }
            return String(decoding: buffer.bytes, as: UTF8.self)
        }
    }

    /// Appends `[brand] [adjective] noun[, detail]` or `brand "nickname" noun`, quoted when needed.
    @inline(__always)
    private func appendTitle(
        _ brand: PhraseTable.Phrase?, _ adjective: PhraseTable.Phrase?, _ noun: PhraseTable.Phrase,
        detail: PhraseTable.Phrase? = nil, nickname: PhraseTable.Phrase? = nil,
        view: PhraseTable.View, to buffer: inout OutputBuffer
    ) {
        let quoted = brand?.needsQuotes == true || adjective?.needsQuotes == true || noun.needsQuotes
            || detail != nil || nickname != nil
        if quoted { buffer.append(UInt8(ascii: "\"")) }
        if let brand {
            view.append(brand, to: &buffer)
            buffer.append(UInt8(ascii: " "))
        }
        if let nickname {
            buffer.append(UInt8(ascii: "\""))
            buffer.append(UInt8(ascii: "\""))
            view.append(nickname, to: &buffer)
            buffer.append(UInt8(ascii: "\""))
            buffer.append(UInt8(ascii: "\""))
            buffer.append(UInt8(ascii: " "))
        }
        if let adjective {
            view.append(adjective, to: &buffer)
            buffer.append(UInt8(ascii: " "))
        }
        view.append(noun, to: &buffer)
        if let detail {
            buffer.append(UInt8(ascii: ","))
            buffer.append(UInt8(ascii: " "))
            view.append(detail, to: &buffer)
        }
        if quoted { buffer.append(UInt8(ascii: "\"")) }
    }

    /// Appends `listPrice,salesPrice`: list prices skewed towards the cheap end of the category,
    /// with shop-like endings; a sale price on about 40% of rows, always below the list price.
    @inline(__always)
    private func appendPrices(category: Category, pick: inout RandomBits, to buffer: inout OutputBuffer) {
        let u = pick.below(1 << 16)
        let dollars = category.minDollars + (category.dollarSpan * u * u) >> 32
        let ending: Int
        switch pick.below(100) {
        case 0..<40: ending = 99
        case 40..<60: ending = 0
        case 60..<75: ending = 50
        case 75..<90: ending = 95
        default: ending = u % 100
        }
        let listCents = dollars * 100 + ending
        buffer.appendPrice(cents: listCents)
        buffer.append(UInt8(ascii: ","))
        if pick.chance(40) {
            let percentOff = Self.discounts[pick.below(Self.discounts.count)]
            // Knock the price down, then end it in 9 cents as shops do; at least 10% off and a
            // list price of at least 1.00 keep it below the list price.
            let saleCents = min(listCents * (100 - percentOff) / 100 / 10 * 10 + 9, listCents)
            buffer.appendPrice(cents: saleCents)
        }
    }

    /// Appends one phrase as a whole field, quoted if it needs to be.
    @inline(__always)
    private func appendField(_ phrase: PhraseTable.Phrase, view: PhraseTable.View, to buffer: inout OutputBuffer) {
        if phrase.needsQuotes { buffer.append(UInt8(ascii: "\"")) }
        view.append(phrase, to: &buffer)
        if phrase.needsQuotes { buffer.append(UInt8(ascii: "\"")) }
    }
}
