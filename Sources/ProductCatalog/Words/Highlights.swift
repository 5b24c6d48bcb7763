/// Where a product's title, brand and type hold the words of a query: each matched word as a
/// range of its field, for showing it in bold.
///
/// Ranges are offsets in UTF-16 code units (what JavaScript's `String.slice` takes), from the
/// start of the field as stored. A word matches as in search: a word of the query, the start of
/// one, or (with typos) a near one.
public struct Highlights: Sendable, Hashable {
    /// One matched word of a field.
    public struct Match: Sendable, Hashable {
        /// The first UTF-16 offset of the word in its field.
        public var start: Int
        /// One past its last.
        public var end: Int
        /// The query word it matched, folded as the index folds it.
        public var word: String
        /// True when it matched only as a close spelling of the word (with typos).
        public var isTypo: Bool

        public init(start: Int, end: Int, word: String, isTypo: Bool = false) {
            self.start = start
            self.end = end
            self.word = word
            self.isTypo = isTypo
        }
    }

    /// The matches of each field that has any: title, brand, productType.
    public var fields: [ProductField: [Match]]

    public init(fields: [ProductField: [Match]] = [:]) {
        self.fields = fields
    }

    public subscript(field: ProductField) -> [Match] { fields[field] ?? [] }

    /// The ranges of `field` in `text` as `String` indices, for a caller that marks them up.
    public static func ranges(of matches: [Match], in text: String) -> [Range<String.Index>] {
        let utf16 = text.utf16
        return matches.compactMap { match in
            guard match.start >= 0, match.end <= utf16.count, match.start < match.end,
                  let lower = utf16.index(utf16.startIndex, offsetBy: match.start).samePosition(in: text),
                  let upper = utf16.index(utf16.startIndex, offsetBy: match.end).samePosition(in: text) else { return nil }
            return lower..<upper
        }
    }
}

extension Highlights: JSONRepresentable {
    /// `{"title":[{"start":0,"end":5,"word":"linen"}],…}`, the fields without matches left out;
    /// a close spelling has `"typo":true`.
    public var jsonValue: JSONValue {
        .object(WordLists.fields.compactMap { field in
            guard let matches = fields[field], !matches.isEmpty else { return nil }
            return JSONValue.Member(field.rawValue, .array(matches.map { match in
                var members = [JSONValue.Member("start", .int(match.start)), JSONValue.Member("end", .int(match.end)),
                               JSONValue.Member("word", .string(match.word))]
                if match.isTypo { members.append(JSONValue.Member("typo", .bool(true))) }
                return .object(members)
            }))
        })
    }
}

extension ProductSearch {
    /// Where `product`'s title, brand and type hold the words of `query` (with near words when
    /// `typos`); empty when the query has no words.
    public func highlights(of product: Product, query: String, typos: Bool = true) throws -> Highlights {
        guard let plan = try indexPlan(query, typos: typos) else { return Highlights() }
        return try highlights(of: product, plan: plan)
    }

    func highlights(of product: Product, plan: WordPlan) throws -> Highlights {
        try plan.highlights(of: product, tokenizer: try wordTokenizer)
    }
}

extension WordPlan {
    /// Where `product`'s title, brand and type hold this plan's words, cut into words by `tokenizer`.
    func highlights(of product: Product, tokenizer: WordTokenizer) throws -> Highlights {
        let matcher = WordMatcher(plan: self)
        var result = Highlights()
        for field in WordLists.fields {
            guard var text = Self.indexedText(of: product, field), !text.isEmpty else { continue }
            var matches: [Highlights.Match] = []
            try text.withUTF8 { bytes in
                let buffer = UnsafeRawBufferPointer(bytes)
                try tokenizer.forEachTokenRange(in: buffer) { token, range in
                    guard let (index, isTypo) = matcher.firstMatch(token) else { return }
                    let start = String(decoding: buffer[..<range.lowerBound], as: UTF8.self).utf16.count
                    let length = String(decoding: buffer[range], as: UTF8.self).utf16.count
                    // Pairs of characters of one run overlap (``CJKBigrams``): one match spans them.
                    if let previous = matches.last, previous.end > start {
                        matches[matches.count - 1].end = max(previous.end, start + length)
                        return
                    }
                    matches.append(Highlights.Match(start: start, end: start + length, word: words[index].folded, isTypo: isTypo))
                }
            }
            if !matches.isEmpty { result.fields[field] = matches }
        }
        return result
    }

    /// The text of one of the indexed fields.
    private static func indexedText(of product: Product, _ field: ProductField) -> String? {
        switch field {
        case .title: product.title
        case .brand: product.brand
        case .productType: product.productType
        default: nil
        }
    }
}
