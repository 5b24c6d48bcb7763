/// How a query's words are looked up in the word index: the FTS5 queries that list each tier's
/// candidates, and whether those must be checked one by one.
///
/// FTS5 (as of SQLite 3.40) answers a prefix query `"in"*` only after merging the rows of every
/// term starting with `in`: on a catalog with a real vocabulary, thousands of terms and a third
/// of a second. So each query word is first looked up in the index's term list (``WordIndex``):
/// - a word that starts few terms (``Limits/maxListedTerms``) becomes those terms, which FTS5 reads
///   lazily, row by row, stopping once a page is full;
/// - a word that starts many terms held by few products becomes the prefix query, whose merge
///   then costs little;
/// - a word that starts many terms held by many products (``Limits/broadProducts``), such as a first
///   letter, is left out of the FTS5 query: the candidates the other words give (or all products,
///   in the index's order) are checked against it one by one, and since it matches many products,
///   a page's worth is found after few of them.
struct WordPlan {
    /// What one folded query word starts in the index.
    enum Starts: Equatable {
        /// The terms it starts, few enough to match one by one.
        case terms([String])
        /// Many terms, held by few products: FTS5's prefix query.
        case prefixQuery
        /// Many terms held by many products: checked on each candidate instead.
        case broad
    }

    /// One word of the query.
    struct Word {
        /// As the index folds it.
        var folded: String
        /// Whether it is a term of the index (nil: not known, the term list is not settled).
        var isTerm: Bool
        var starts: Starts
    }

    /// The candidates of a tier.
    enum Candidates: Equatable {
        /// No product can be in the tier.
        case none
        /// Every product is a candidate (every word is broad).
        case all
        /// The products an FTS5 `MATCH` expression finds.
        case match(String)
    }

    /// Where a plan switches from one way of looking a word up to the next.
    struct Limits {
        /// Terms a word may stand for before the prefix query is used instead.
        var maxListedTerms = 64
        /// Terms counted one by one to estimate how many products a long prefix matches.
        var maxCountedTerms = 2_000
        /// Products (summed over terms, so an upper bound) past which a prefix is checked on candidates instead of merged.
        var broadProducts = 20_000
    }

    /// The query's words, folded, in order; the last is matched as the start of a word.
    let words: [Word]
    /// The title key (see ``WordPlacement``) of a title made of exactly these words.
    let exactKey: Int64

    var folded: [String] { words.map(\.folded) }

    /// True when some word is checked on each candidate rather than looked up.
    var checksCandidates: Bool { words.contains { $0.starts == .broad } }

    /// The plan for the folded words of a query; nil when it has none or some word starts no term.
    init?(folded: [String], terms: WordTermList) throws {
        guard !folded.isEmpty else { return nil }
        var words: [Word] = []
        for word in folded {
            guard let looked = try terms.lookUp(word) else { return nil }
            words.append(looked)
        }
        self.words = words
        exactKey = WordPlacement.key(ofWords: folded)
    }

    /// The candidates of `tier`: exactly its products when no word is broad (``WordTier/titleStarts``
    /// and ``WordTier/anyField`` leave out the tiers before them), a superset to check otherwise.
    /// ``WordTier/exactTitle`` is found by title key, not here.
    func candidates(_ tier: WordTier) -> Candidates {
        switch tier {
        case .exactTitle:
            return .all
        case .titleWords:
            return titleWords
        case .titleStarts:
            guard !checksCandidates else { return titleStarts }
            return Self.excluding(titleStarts, titleWords)
        case .anyField:
            guard !checksCandidates else { return anyField }
            return Self.excluding(anyField, titleStarts)
        }
    }

    /// The candidates of every tier together: exactly the products that match when no word is
    /// broad, a superset to check otherwise.
    var allTiers: Candidates { anyField }

    /// True when ``WordTier/titleStarts`` can hold products ``WordTier/titleWords`` does not:
    /// some word before the last starts a term other than itself, or is no term at all.
    var titleStartsDiffers: Bool {
        words.dropLast().contains { word in
            word.starts != .terms([word.folded]) || !word.isTerm
        }
    }

    // MARK: - Expressions

    private var titleWords: Candidates {
        var parts: [String] = []
        for word in words.dropLast() {
            guard word.isTerm else { return .none }
            parts.append(WordQuery.quoted(word.folded))
        }
        if let last = words.last, let starts = Self.expression(last.starts, last.folded) { parts.append(starts) }
        return Self.inTitle(parts)
    }

    private var titleStarts: Candidates {
        Self.inTitle(words.compactMap { Self.expression($0.starts, $0.folded) })
    }

    private var anyField: Candidates {
        let parts = words.compactMap { Self.expression($0.starts, $0.folded) }
        return parts.isEmpty ? .all : .match(parts.joined(separator: " AND "))
    }

    private static func inTitle(_ parts: [String]) -> Candidates {
        parts.isEmpty ? .all : .match("{title} : (" + parts.joined(separator: " AND ") + ")")
    }

    /// `candidates` without those of `earlier`.
    private static func excluding(_ candidates: Candidates, _ earlier: Candidates) -> Candidates {
        switch (candidates, earlier) {
        case (.match(let these), .match(let those)): .match("(" + these + ") NOT (" + those + ")")
        case (_, .all): .none
        default: candidates
        }
    }

    /// The FTS5 expression for the terms `word` starts; for a broad word, the terms its first
    /// ``WordIndex/indexedPrefixLength`` characters start (read from FTS5's prefix index, a superset
    /// that candidates are then checked against).
    private static func expression(_ starts: Starts, _ word: String) -> String? {
        switch starts {
        case .terms(let terms): "(" + terms.map(WordQuery.quoted).joined(separator: " OR ") + ")"
        case .prefixQuery: WordQuery.quoted(word) + "*"
        case .broad: WordQuery.quoted(String(word.unicodeScalars.prefix(WordIndex.indexedPrefixLength))) + "*"
        }
    }
}

/// The word index's term list, as a plan reads it.
struct WordTermList {
    let search: ProductSearch
    /// False while products wait to be settled: new terms may be missing from the list.
    let isSettled: Bool
    let limits: WordPlan.Limits

    /// What `word` stands for; nil when no term starts with it.
    func lookUp(_ word: String) throws -> WordPlan.Word? {
        guard isSettled else { return WordPlan.Word(folded: word, isTerm: true, starts: .prefixQuery) }
        let listed = try terms(startingWith: word, limit: limits.maxListedTerms + 1)
        if listed.isEmpty { return nil }
        let isTerm = listed.first?.utf8.elementsEqual(word.utf8) == true
        if listed.count <= limits.maxListedTerms { return WordPlan.Word(folded: word, isTerm: isTerm, starts: .terms(listed)) }
        // FTS5 keeps a prefix index of the shortest starts: one lookup, whatever they match.
        if word.unicodeScalars.count <= WordIndex.indexedPrefixLength { return WordPlan.Word(folded: word, isTerm: isTerm, starts: .prefixQuery) }
        let products = try estimatedProducts(startingWith: word)
        return WordPlan.Word(folded: word, isTerm: isTerm, starts: products > limits.broadProducts ? .broad : .prefixQuery)
    }

    /// Up to `limit` terms that start with `prefix`, in order.
    private func terms(startingWith prefix: String, limit: Int) throws -> [String] {
        let statement = try search.prepared("SELECT term FROM \(WordIndex.termsTable) WHERE term >= ?1 AND term < ?2 ORDER BY term LIMIT ?3")
        return try statement.using {
            try statement.bind(1, prefix)
            try statement.bind(2, utf8: Self.upperBound(prefix))
            try statement.bind(3, Int64(limit))
            var terms: [String] = []
            while try statement.step() { terms.append(statement.text(at: 0) ?? "") }
            return terms
        }
    }

    /// The products holding a term that starts with `prefix`, summed over the terms (an upper
    /// bound): from the counted starts for a short prefix, by counting for a long one, or
    /// `Int.max` when it starts more than ``WordPlan/Limits/maxCountedTerms`` terms.
    private func estimatedProducts(startingWith prefix: String) throws -> Int {
        if prefix.unicodeScalars.count <= WordIndex.countedPrefixLength {
            let statement = try search.prepared("SELECT docs FROM \(WordIndex.prefixesTable) WHERE prefix = ?1")
            return try statement.using {
                try statement.bind(1, prefix)
                return try statement.step() ? Int(statement.int64(at: 0)) : 0
            }
        }
        let statement = try search.prepared("""
            SELECT count(*), sum(docs) FROM (SELECT docs FROM \(WordIndex.termsTable) WHERE term >= ?1 AND term < ?2 LIMIT ?3)
            """)
        return try statement.using {
            try statement.bind(1, prefix)
            try statement.bind(2, utf8: Self.upperBound(prefix))
            try statement.bind(3, Int64(limits.maxCountedTerms + 1))
            guard try statement.step() else { return 0 }
            return statement.int64(at: 0) > limits.maxCountedTerms ? Int.max : Int(statement.int64(at: 1))
        }
    }

    /// The prefix with its last byte raised by one: terms are compared byte by byte, and the last
    /// byte of UTF-8 text is never 0xFF, so it bounds the terms that start with the prefix.
    static func upperBound(_ prefix: String) -> [UInt8] {
        var upper = Array(prefix.utf8)
        upper[upper.count - 1] += 1
        return upper
    }
}
