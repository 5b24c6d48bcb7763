import ProductCatalog

/// A query's word tiers (see ``WordTier``) as PostgreSQL full-text conditions on `catalog_words`,
/// so that a catalog on PostgreSQL lists the products a catalog file lists, in its order.
///
/// The title's words carry weight `A` (see ``PostgresSchema``), so each tier is one `tsquery`:
/// - exact titles: the products whose title key is the query's, their words checked here;
/// - title words: `'linen':A & 'sh':*A`, every word before the last whole in the title;
/// - title starts: `'linen':*A & 'sh':*A`;
/// - any field: `'linen':* & 'sh':*`;
/// - typos: each word counts the fewest typos it matches with (0 when it starts a word, else the
///   distance of the nearest term of the plan it is, or for the last word starts), and the
///   products are ranked by the sum, then by where the words are, as a file's search ranks them
///   (``typoBucket(in:)``).
///
/// The plan (which terms are near, which tiers exist) comes from ``WordVocabulary``, the same
/// code a file plans with. Within a tier, products come in `catalog_word_row` order.
struct PostgresWordTiers {
    /// The name of the tier column a word-match query adds to each row.
    static let tierColumn = "catalog_tier"

    /// Where a search switches from one way of finding a tier's products to another: how, not which.
    struct Limits: Sendable {
        /// A word whose terms hold more products than this many times the narrowest word's (and
        /// more than ``checkedProducts``) is checked on each row the other words find rather than
        /// looked up: the word index merges the rows of every term a short start stands for (after
        /// three narrow words, `s` took 60 to 75 ms a query on a realistic million).
        var checkedRatio = 10
        var checkedProducts = 5_000
        /// Products a looked-up word may hold before its tiers' pages may be read by walking the
        /// word-row index (stopping at a full page) rather than found by the word index and
        /// sorted: sorting costs about half a microsecond a product (`t`, 600,000 products,
        /// 240 ms), while a walk through a tier sparser than PostgreSQL guessed reads every row
        /// (1.1 s for 429 products of `ervu`). On a realistic million, 10,000 gave keystrokes a
        /// p99 of 54 ms, 50,000 one of 125 ms.
        var walkedProducts = 10_000
    }

    let plan: WordPlan
    let limits: Limits
    /// The folded productIds of the products whose title is exactly the query's words.
    let exactKeys: [String]
    /// The words checked on each row rather than looked up in the word index.
    let checked: Set<Int>

    /// Nil when the plan holds a word no `tsvector` can hold: nothing matches it.
    init?(plan: WordPlan, exactKeys: [String], limits: Limits) {
        guard plan.folded.allSatisfy({ $0.utf8.count <= PostgresSchema.longestWord }) else { return nil }
        self.plan = plan
        self.exactKeys = exactKeys
        self.limits = limits
        let narrowest = plan.words.map(\.products).min() ?? 0
        checked = Set(plan.words.indices.filter { index in
            let products = plan.words[index].products
            return products > limits.checkedProducts && products / limits.checkedRatio > narrowest
        })
    }

    /// Whether the page of `tier` walks the word-row index: a tier without typos whose narrowest
    /// looked-up word holds many products, so that the walk finds a page soon.
    func walksWordRows(_ tier: WordTier) -> Bool {
        guard tier != .exactTitle, !tier.isTypo else { return false }
        let looked = plan.words.indices.filter { !checked.contains($0) }.map { plan.words[$0].products }
        return (looked.min() ?? 0) > limits.walkedProducts
    }

    /// The condition of the products in any tier.
    func anyTier(in statement: inout PostgresStatement) -> String {
        matches(plan.words.indices.map { ($0, "(" + alternatives(ofWord: $0).joined(separator: " | ") + ")") }, in: &statement)
    }

    /// The condition of the products in `tier` (one without typos) alone, each tier's own `tsquery` and not the
    /// one before it, so that PostgreSQL estimates each on its own: a dense tier is read in
    /// word-row order from its index and stops at a page, a sparse one is found by the word index
    /// and sorted (one expression for every tier, filtered, walked the word rows of a million
    /// products to find an exact title).
    func condition(of tier: WordTier, in statement: inout PostgresStatement) -> String {
        let last = plan.words.count - 1
        let titleWords = plan.words.indices.map { ($0, lexeme($0) + ($0 == last ? ":*A" : ":A")) }
        let titleStarts = plan.words.indices.map { ($0, lexeme($0) + ":*A") }
        let anyField = plan.words.indices.map(start)
        let exact = exactKeys.isEmpty ? "false" : "\(PostgresSchema.key) = ANY(\(statement.bind(exactKeys))::text[])"
        switch tier {
        case .exactTitle: return exact
        case .titleWords: return "\(matches(titleWords, in: &statement)) AND NOT \(exact)"
        case .titleStarts: return "\(matches(titleStarts, in: &statement)) AND NOT \(checks(titleWords, in: &statement))"
        case .anyField: return "\(matches(anyField, in: &statement)) AND NOT \(checks(titleStarts, in: &statement))"
        case .oneTypo, .twoTypos, .moreTypos:
            return "\(typoCandidates(in: &statement)) AND \(typoBucket(in: &statement)) / 4 = \(tier.rawValue - WordTier.anyField.rawValue)"
        }
    }

    /// The bucket of the ranking rules of a product of ``anyTier(in:)``: its tier's, the first
    /// whose condition it meets, for the tiers without typos; else ``typoBucket(in:)``.
    func bucket(in statement: inout PostgresStatement) -> String {
        var cases: [String] = []
        for tier in plan.tiers where !tier.isTypo {
            cases.append("WHEN \(condition(of: tier, in: &statement)) THEN \(tier.bucket)")
        }
        let typos = typoBucket(in: &statement)
        return cases.isEmpty ? typos : "CASE \(cases.joined(separator: " ")) ELSE \(typos) END"
    }

    /// The condition of the products in some typo tier: every tier's words, none without typos.
    func typoCandidates(in statement: inout PostgresStatement) -> String {
        "\(anyTier(in: &statement)) AND NOT \(checks(plan.words.indices.map(start), in: &statement))"
    }

    /// The bucket of the ranking rules (``KeysetCursor/wordBucket``: typos × 4 + where) of a
    /// product of ``typoCandidates(in:)``, as a file's search ranks it: each word counts the fewest
    /// typos it matches with, as a whole word of the title (the last word as a start), as the
    /// start of a title word, or in any field; the bucket is the best of the three sums (three
    /// or more typos in one), title words before title starts before any field.
    func typoBucket(in statement: inout PostgresStatement) -> String {
        let last = plan.words.count - 1
        /// Word `index`'s fewest typos as `exact` (its `tsquery` without typos), or near terms with `weight`.
        func typos(_ index: Int, exact: String, weight: String) -> String {
            var distances = ["WHEN \(checks([(index, exact)], in: &statement)) THEN 0"]
            for distance in Set(plan.words[index].near.map(\.distance)).sorted() {
                let near = nearTerms(ofWord: index, at: distance, weight: weight)
                guard !near.isEmpty else { continue }
                distances.append("WHEN \(checks([(index, near.joined(separator: " | "))], in: &statement)) THEN \(distance)")
            }
            return "CASE \(distances.joined(separator: " ")) ELSE 99 END"
        }
        let title = plan.words.indices.map { typos($0, exact: lexeme($0) + ":*A", weight: "A") }
        let whole = plan.words.indices.map { $0 == last ? title[$0] : typos($0, exact: lexeme($0) + ":A", weight: "A") }
        let any = plan.words.indices.map { typos($0, exact: start($0).query, weight: "") }
        func bucket(_ sums: [String], place: Int) -> String {
            let sum = "(" + sums.joined(separator: " + ") + ")"
            return "CASE WHEN \(sum) < 99 THEN least(3, \(sum)) * 4 + \(place) ELSE 99 END"
        }
        return "least(\(bucket(whole, place: 1)), \(bucket(title, place: 2)), \(bucket(any, place: 3)))"
    }

    /// The rows whose words match every part (a word's index and its `tsquery` text): the parts
    /// of looked-up words through the word index (`@@`), those of checked words on each row
    /// (`ts_match_vq`, the same test, which the planner does not take to the index).
    private func matches(_ parts: [(word: Int, query: String)], in statement: inout PostgresStatement) -> String {
        let looked = parts.filter { !checked.contains($0.word) }.map(\.query)
        let rest = parts.filter { checked.contains($0.word) }.map(\.query)
        var conditions: [String] = []
        if !looked.isEmpty { conditions.append("\(PostgresSchema.wordsColumn) @@ \(statement.bind(looked.joined(separator: " & ")))::tsquery") }
        if !rest.isEmpty { conditions.append("ts_match_vq(\(PostgresSchema.wordsColumn), \(statement.bind(rest.joined(separator: " & ")))::tsquery)") }
        return conditions.count == 1 ? conditions[0] : "(" + conditions.joined(separator: " AND ") + ")"
    }

    /// The same test on each row alone, for a condition that narrows what another found.
    private func checks(_ parts: [(word: Int, query: String)], in statement: inout PostgresStatement) -> String {
        "ts_match_vq(\(PostgresSchema.wordsColumn), \(statement.bind(parts.map(\.query).joined(separator: " & ")))::tsquery)"
    }

    /// A word as a quoted lexeme.
    private func lexeme(_ index: Int) -> String {
        PostgresSchema.lexeme(plan.words[index].folded)
    }

    /// Word `index` as the start of a word in any field, without typos: the part of it in ``matches(_:in:)``.
    private func start(_ index: Int) -> (word: Int, query: String) {
        (index, lexeme(index) + ":*")
    }

    /// What word `index` matches: the start of a word, or a term (for the last word, a start) near it.
    private func alternatives(ofWord index: Int) -> [String] {
        [start(index).query] + Set(plan.words[index].near.map(\.distance)).sorted().flatMap { nearTerms(ofWord: index, at: $0) }
    }

    /// The terms near word `index` at `distance`, as lexemes: whole terms, or starts for the
    /// last word; with `weight` `A`, in the title only.
    private func nearTerms(ofWord index: Int, at distance: Int, weight: String = "") -> [String] {
        let isLast = index == plan.words.count - 1
        return plan.words[index].near.filter { $0.distance == distance && $0.text.utf8.count <= PostgresSchema.longestWord }
            .map { PostgresSchema.lexeme($0.text) + (isLast ? ":*" : weight.isEmpty ? "" : ":") + weight }
    }
}
