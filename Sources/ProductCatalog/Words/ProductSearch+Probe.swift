extension ProductSearch {
    /// The FTS5 expression of every product the word search of `query` can list (every tier, typo
    /// tiers included): what the word index must read for its count. Nil when the query has no
    /// words or no product can match; `"*"` when every product is a candidate. For measuring
    /// another layout of the index against FTS5 on the same reads (Benchmarks/WordIndexProbe).
    @_spi(WordIndex) public func candidateExpression(query: String, typos: Bool) throws -> String? {
        guard let plan = try wordPlan(query, typos: typos) else { return nil }
        switch plan.allTiers {
        case .none: return nil
        case .all: return "*"
        case .match(let expression): return expression
        }
    }
}
