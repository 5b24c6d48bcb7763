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
///   distance of the nearest term of the plan it is, or for the last word starts), and the tier
///   is the sum, as ``WordPlan`` defines it.
///
/// The plan (which terms are near, which tiers exist) comes from ``WordVocabulary``, the same
/// code a file plans with. Within a tier, products come in `catalog_word_row` order.
struct PostgresWordTiers {
    /// The name of the tier column a word-match query adds to each row.
    static let tierColumn = "catalog_tier"

    let plan: WordPlan
    /// The folded productIds of the products whose title is exactly the query's words.
    let exactKeys: [String]

    /// Nil when the plan holds a word no `tsvector` can hold: nothing matches it.
    init?(plan: WordPlan, exactKeys: [String]) {
        guard plan.folded.allSatisfy({ $0.utf8.count <= PostgresSchema.longestWord }) else { return nil }
        self.plan = plan
        self.exactKeys = exactKeys
    }

    /// The `tsquery` of the products in any tier.
    var anyTier: String {
        plan.words.indices.map { "(" + alternatives(ofWord: $0).joined(separator: " | ") + ")" }.joined(separator: " & ")
    }

    /// The SQL value of a row's tier (its ``WordTier/rawValue``), for a row that matches ``anyTier``.
    func tier(in statement: inout PostgresStatement) -> String {
        let words = PostgresSchema.wordsColumn
        let last = plan.words.count - 1
        let titleWords = plan.words.indices.map { lexeme($0) + ($0 == last ? ":*A" : ":A") }
        let titleStarts = plan.words.indices.map { lexeme($0) + ":*A" }
        let anyField = plan.words.indices.map { lexeme($0) + ":*" }
        var cases: [String] = []
        if !exactKeys.isEmpty {
            cases.append("WHEN \(PostgresSchema.key) = ANY(\(statement.bind(exactKeys))::text[]) THEN \(WordTier.exactTitle.rawValue)")
        }
        for (tier, query) in [(WordTier.titleWords, titleWords), (.titleStarts, titleStarts), (.anyField, anyField)] {
            cases.append("WHEN \(words) @@ \(statement.bind(query.joined(separator: " & ")))::tsquery THEN \(tier.rawValue)")
        }
        // Every word matches, some with typos: the tier of their sum.
        var typos: [String] = []
        for index in plan.words.indices {
            var distances = ["WHEN \(words) @@ \(statement.bind(anyField[index]))::tsquery THEN 0"]
            for distance in Set(plan.words[index].near.map(\.distance)).sorted() {
                let near = nearTerms(ofWord: index, at: distance)
                guard !near.isEmpty else { continue }
                distances.append("WHEN \(words) @@ \(statement.bind(near.joined(separator: " | ")))::tsquery THEN \(distance)")
            }
            typos.append("CASE \(distances.joined(separator: " ")) ELSE 3 END")
        }
        let typoTier = "\(WordTier.anyField.rawValue) + least(3, \(typos.joined(separator: " + ")))"
        return "CASE \(cases.joined(separator: " ")) ELSE \(typoTier) END"
    }

    /// A word as a quoted lexeme.
    private func lexeme(_ index: Int) -> String {
        PostgresSchema.lexeme(plan.words[index].folded)
    }

    /// What word `index` matches: the start of a word, or a term (for the last word, a start) near it.
    private func alternatives(ofWord index: Int) -> [String] {
        [lexeme(index) + ":*"] + Set(plan.words[index].near.map(\.distance)).sorted().flatMap { nearTerms(ofWord: index, at: $0) }
    }

    /// The terms near word `index` at `distance`, as lexemes: whole terms, or starts for the last word.
    private func nearTerms(ofWord index: Int, at distance: Int) -> [String] {
        let isLast = index == plan.words.count - 1
        return plan.words[index].near.filter { $0.distance == distance && $0.text.utf8.count <= PostgresSchema.longestWord }
            .map { PostgresSchema.lexeme($0.text) + (isLast ? ":*" : "") }
    }
}
