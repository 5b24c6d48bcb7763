extension ProductSearch {
    /// Where a search stands among word matches: a tier, and a word row within it.
    struct WordPosition: Equatable {
        var tier: WordTier
        var row: Int64
    }

    /// One word match: where it is, and its product.
    struct WordMatch {
        var position: WordPosition
        var productId: String
    }

    /// The plan for the words of `query`, with typos allowed or not; nil when it has none, the
    /// catalog has no word index of this layout, or no product can match its words.
    func wordPlan(_ query: String, typos: Bool) throws -> WordPlan? {
        let words = WordQuery(query)
        guard !words.words.isEmpty, try hasWordIndex else { return nil }
        let folded = try wordTokenizer.tokens(words.text)
        var limits = planLimits
        limits.broadProducts = max(limits.broadProducts, Int(Double(try catalogProducts()) * limits.broadShare))
        let terms = WordTermList(search: self, isSettled: try WordIndex.isSettled(connection), limits: limits)
        return try WordPlan(folded: folded, terms: terms, typos: typos)
    }

    /// Up to `limit` word matches of `plan` after `position` (from the first, for nil), in the
    /// search's order: tier by tier, each in word-row order. Products whose productId is in
    /// `range` (listed before word matches) and those `filters` leave out are skipped.
    ///
    /// Without broad words each tier is one FTS5 query, read lazily. With one, the exact titles
    /// are found by their key and the other tiers in one pass over the candidates, each checked.
    func wordMatches(_ plan: WordPlan, after position: WordPosition?, excluding range: PrefixRange,
                     filters: SearchFilters, limit: Int) throws -> [WordMatch] {
        var matches: [WordMatch] = []
        let tiers = plan.tiers
        let exactRows = tiers.contains(.exactTitle) ? try exactTitleRows(plan) : []
        if (position?.tier ?? .exactTitle) == .exactTitle, !exactRows.isEmpty {
            matches = try exactTitles(exactRows, after: position?.row ?? 0, excluding: range, filters: filters, limit: limit)
            if matches.count >= limit { return matches }
        }
        let rest = position.map { $0.tier == .exactTitle ? nil : $0 } ?? nil
        if plan.checksCandidates {
            var checkedFrom = rest
            if (rest?.tier ?? .titleWords) == .titleWords, plan.listsTitleWordsExactly {
                // The whole words before the last narrow the first tier down to few products:
                // its own query lists them, where the pass would check every candidate of the broad word.
                matches += try matchesOf(.titleWords, of: plan, after: rest?.row ?? 0, excluding: range, exactRows: exactRows,
                                         filters: filters, limit: limit - matches.count)
                if matches.count >= limit { return matches }
                checkedFrom = WordPosition(tier: .titleStarts, row: 0)
            }
            return matches + (try checkedMatches(plan, after: checkedFrom, excluding: range, filters: filters, limit: limit - matches.count))
        }
        for tier in tiers where tier != .exactTitle && tier >= (rest?.tier ?? .titleWords) {
            if tier.isTypo {
                // The typo tiers together, in one pass over their candidates.
                return matches + (try typoMatches(plan, after: rest.flatMap { $0.tier.isTypo ? $0 : nil }, excluding: range,
                                                  filters: filters, limit: limit - matches.count))
            }
            let after = rest?.tier == tier ? rest?.row ?? 0 : 0
            matches += try matchesOf(tier, of: plan, after: after, excluding: range, exactRows: exactRows,
                                     filters: filters, limit: limit - matches.count)
            if matches.count >= limit { break }
            if tier == .titleWords, let later = try laterTiersInOnePass(plan, excluding: range, filters: filters, limit: limit - matches.count) {
                return matches + later
            }
        }
        return matches
    }

    /// The first page's matches of the tiers after ``WordTier/titleWords``, typo tiers included,
    /// from one pass over the candidates of every tier, each checked: when few products match, one
    /// pass costs less than a query per tier (each merging the same long lists again), and it
    /// counts them too (``lastCheckedCount``). Nil when the candidates are more than
    /// ``checkedPassBudget``: then each tier is left to its own query.
    private func laterTiersInOnePass(_ plan: WordPlan, excluding range: PrefixRange, filters: SearchFilters,
                                     limit: Int) throws -> [WordMatch]? {
        let pass = try tieredPass(plan.allTiers, first: .titleStarts, after: 0, excluding: range, filters: filters, limit: limit,
                                  budget: checkedPassBudget, classify: try classifier(plan))
        guard !pass.overBudget else { return nil }
        if pass.sawAll { lastCheckedCount = (plan.folded, plan.allTiers, filters, range, pass.counted) }
        return pass.matches
    }

    /// The matches of one tier after word row `after`, read from FTS5 (no word is broad).
    private func matchesOf(_ tier: WordTier, of plan: WordPlan, after: Int64, excluding range: PrefixRange, exactRows: [Int64],
                           filters: SearchFilters, limit: Int) throws -> [WordMatch] {
        guard case .match(let expression) = plan.candidates(tier) else { return [] }
        // The exact titles are listed before, in their own tier.
        let skipped = tier == .titleWords && !exactRows.isEmpty
            ? " AND \(WordIndex.table).rowid NOT IN (\(exactRows.map(String.init).joined(separator: ",")))" : ""
        let statement = try prepared("SELECT w.wordRow, w.productId " + (try wordMatchClauses(excluding: range, filters))
            + skipped + " AND \(WordIndex.table).rowid > ?4 ORDER BY \(WordIndex.table).rowid LIMIT ?5")
        return try statement.using {
            try bindWordMatch(expression, excluding: range, filters, to: statement)
            try statement.bind(4, after)
            try statement.bind(5, Int64(limit))
            var matches: [WordMatch] = []
            while try statement.step() {
                matches.append(WordMatch(position: WordPosition(tier: tier, row: statement.int64(at: 0)), productId: statement.text(at: 1) ?? ""))
            }
            return matches
        }
    }

    // MARK: - Exact titles

    /// The word rows of the products whose title is exactly the query's words (whatever the filters).
    func exactTitleRows(_ plan: WordPlan) throws -> [Int64] {
        let statement = try prepared("""
            SELECT w.wordRow, p.title FROM \(WordIndex.rowsTable) w JOIN \(CatalogSchema.table) p ON p.productId = w.productId
            WHERE w.titleKey = ?1 ORDER BY w.wordRow
            """)
        let check = WordTierCheck(words: plan.folded, tokenizer: try wordTokenizer)
        return try statement.using {
            try statement.bind(1, plan.exactKey)
            var rows: [Int64] = []
            while try statement.step() {
                // The key is a hash: the words themselves decide.
                if try statement.withBytes(at: 1, { try check.tier(title: $0, other: []) }) == .exactTitle {
                    rows.append(statement.int64(at: 0))
                }
            }
            return rows
        }
    }

    /// Those of the exact titles at `rows` after `after` that are not in `range` and pass `filters`.
    func exactTitles(_ rows: [Int64], after: Int64, excluding range: PrefixRange, filters: SearchFilters, limit: Int) throws -> [WordMatch] {
        let statement = try prepared("SELECT w.wordRow, w.productId FROM \(WordIndex.rowsTable) w JOIN \(CatalogSchema.table) p ON p.productId = w.productId"
            + " WHERE w.wordRow = ?4 AND NOT (w.productId >= ?2 AND (?3 IS NULL OR w.productId < ?3))" + (try filterClause(filters).sql))
        var matches: [WordMatch] = []
        for row in rows where row > after && matches.count < limit {
            try statement.using {
                try bindRange(range, filters, to: statement)
                try statement.bind(4, row)
                if try statement.step() {
                    matches.append(WordMatch(position: WordPosition(tier: .exactTitle, row: row), productId: statement.text(at: 1) ?? ""))
                }
            }
        }
        return matches
    }

    // MARK: - Checking candidates one by one

    /// The matches after `position` (from the first tier after exact titles, for nil) among the
    /// candidates of every tier, each checked: one pass from `position`'s row collects its tier and
    /// the later ones, stopping once its tier has `limit`; when it runs out, a second pass over the
    /// rows before `position` collects the later tiers' first matches. A first pass from the start
    /// that sees every candidate also counts them (``lastCheckedCount``).
    private func checkedMatches(_ plan: WordPlan, after position: WordPosition?, excluding range: PrefixRange,
                                filters: SearchFilters, limit: Int) throws -> [WordMatch] {
        let (matches, counted, sawAll, _) = try tieredPass(plan.allTiers, first: position?.tier ?? .titleWords, after: position?.row ?? 0,
                                                        excluding: range, filters: filters, limit: limit, classify: try classifier(plan))
        lastCheckedCount = (position?.row ?? 0) == 0 && sawAll ? (plan.folded, plan.allTiers, filters, range, counted) : nil
        return matches
    }

    /// A candidate's tier by ``WordTierCheck``, then, when the plan has typo tiers, by ``TypoTierCheck``.
    private func classifier(_ plan: WordPlan) throws -> (CandidateFields) throws -> WordTier? {
        let check = WordTierCheck(words: plan.folded, tokenizer: try wordTokenizer)
        let typoCheck = plan.tiers.contains(where: \.isTypo) ? TypoTierCheck(plan: plan, tokenizer: try wordTokenizer) : nil
        return { fields in
            if let tier = try fields.tier(check) { return tier }
            return try typoCheck.flatMap { try fields.typoTier($0) }
        }
    }

    /// The typo tiers' matches after `position` (from the first, for nil), their candidates each
    /// checked by ``TypoTierCheck``.
    private func typoMatches(_ plan: WordPlan, after position: WordPosition?, excluding range: PrefixRange,
                             filters: SearchFilters, limit: Int) throws -> [WordMatch] {
        let check = TypoTierCheck(plan: plan, tokenizer: try wordTokenizer)
        return try tieredPass(plan.typoCandidates, first: position?.tier ?? .oneTypo, after: position?.row ?? 0,
                              excluding: range, filters: filters, limit: limit) { try $0.typoTier(check) }.matches
    }

    /// The matches among `candidates` in tiers from `first` on, after word row `start` in `first`
    /// (from the start in later ones), each candidate's tier given by `classify` (nil: no match);
    /// with how many matched and whether every candidate was seen. With `budget`, it gives up after
    /// that many candidates (`overBudget`, and no matches).
    private func tieredPass(_ candidates: WordPlan.Candidates, first: WordTier, after start: Int64, excluding range: PrefixRange,
                            filters: SearchFilters, limit: Int, budget: Int? = nil, classify: (CandidateFields) throws -> WordTier?)
        throws -> (matches: [WordMatch], counted: Int, sawAll: Bool, overBudget: Bool) {
        guard limit > 0 else { return ([], 0, false, false) }
        var found: [[WordMatch]] = Array(repeating: [], count: WordTier.allCases.count + 1)
        var counted = 0
        var seen = 0
        var sawAll = true
        var overBudget = false
        try forEachCandidate(candidates, after: start, excluding: range, filters: filters) { row, productId, fields in
            seen += 1
            if let budget, seen > budget {
                overBudget = true
                return false
            }
            guard let tier = try classify(fields) else { return true }
            counted += 1
            if tier >= first, tier != .exactTitle, found[tier.rawValue].count < limit {
                found[tier.rawValue].append(WordMatch(position: WordPosition(tier: tier, row: row), productId: productId()))
            }
            if found[first.rawValue].count >= limit {
                sawAll = false
                return false
            }
            return true
        }
        if found[first.rawValue].count < limit, start > 0 {
            // The later tiers' rows before `start` come before those found after it.
            var earlier: [[WordMatch]] = Array(repeating: [], count: found.count)
            try forEachCandidate(candidates, after: 0, excluding: range, filters: filters) { row, productId, fields in
                guard row <= start else { return false }
                if let tier = try classify(fields), tier > first, earlier[tier.rawValue].count < limit {
                    earlier[tier.rawValue].append(WordMatch(position: WordPosition(tier: tier, row: row), productId: productId()))
                }
                return true
            }
            for index in found.indices { found[index] = earlier[index] + found[index] }
        }
        if overBudget { return ([], counted, false, true) }
        return (Array(found.joined().prefix(limit)), counted, sawAll, false)
    }

    /// The title, brand and type columns of a candidate row, read straight from its statement.
    struct CandidateFields {
        let statement: Statement

        /// The candidate's best tier.
        func tier(_ check: WordTierCheck) throws -> WordTier? {
            try statement.withBytes(at: 2) { title in
                try statement.withBytes(at: 3) { brand in
                    try statement.withBytes(at: 4) { type in
                        try check.tier(title: title, other: [brand, type])
                    }
                }
            }
        }

        /// The candidate's typo tier.
        func typoTier(_ check: TypoTierCheck) throws -> WordTier? {
            try statement.withBytes(at: 2) { title in
                try statement.withBytes(at: 3) { brand in
                    try statement.withBytes(at: 4) { type in
                        try check.tier(fields: [title, brand, type])
                    }
                }
            }
        }
    }

    /// Calls `body` with each candidate after word row `after`, in word-row order, until it
    /// returns false: its row, its productId (made on demand) and its indexed fields.
    func forEachCandidate(_ candidates: WordPlan.Candidates, after: Int64, excluding range: PrefixRange, filters: SearchFilters,
                          _ body: (Int64, () -> String, CandidateFields) throws -> Bool) throws {
        let expression: String?
        switch candidates {
        case .none: return
        case .all: expression = nil
        case .match(let match): expression = match
        }
        let columns = "w.wordRow, w.productId, " + WordIndex.columns.map { "p.\($0.columnName)" }.joined(separator: ", ")
        let join = " JOIN \(CatalogSchema.table) p ON p.productId = w.productId"
        let conditions = " AND NOT (w.productId >= ?2 AND (?3 IS NULL OR w.productId < ?3))" + (try filterClause(filters).sql)
        let sql = expression != nil
            ? "SELECT \(columns) FROM \(WordIndex.table) JOIN \(WordIndex.rowsTable) w ON w.wordRow = \(WordIndex.table).rowid\(join)"
                + " WHERE \(WordIndex.table) MATCH ?1 AND \(WordIndex.table).rowid > ?4\(conditions) ORDER BY \(WordIndex.table).rowid"
            : "SELECT \(columns) FROM \(WordIndex.rowsTable) w\(join) WHERE w.wordRow > ?4\(conditions) ORDER BY w.wordRow"
        let statement = try prepared(sql)
        try statement.using {
            if let expression { try statement.bind(1, expression) }
            try bindRange(range, filters, to: statement)
            try statement.bind(4, after)
            while try statement.step() {
                guard try body(statement.int64(at: 0), { statement.text(at: 1) ?? "" }, CandidateFields(statement: statement)) else { return }
            }
        }
    }

    /// Binds `?2` and `?3` to `range` (`?3` NULL when it has no end) and the filters from `?10`.
    private func bindRange(_ range: PrefixRange, _ filters: SearchFilters, to statement: Statement) throws {
        try statement.bind(2, utf8: range.lower)
        if let upper = range.upper { try statement.bind(3, utf8: upper) } else { try statement.bindNull(3) }
        try filterClause(filters).bind(to: statement)
    }

    // MARK: - Counting

    /// How many products match `plan` by words (every tier), not counting those in `range`:
    /// up to `limit`, and, when words must be checked one by one, after at most `budget`
    /// candidates (then `isComplete` is false and the count a lower bound).
    func countWordMatches(_ plan: WordPlan, excluding range: PrefixRange, rangeIsEmpty: Bool, filters: SearchFilters,
                          limit: Int?, budget: Int?) throws -> (count: Int, isComplete: Bool) {
        // A page's checking pass that saw every candidate has counted them already.
        defer { lastCheckedCount = nil }
        if let last = lastCheckedCount, last.words == plan.folded, last.candidates == plan.allTiers, last.filters == filters, last.range == range {
            let count = limit.map { min(last.count, $0) } ?? last.count
            return (count, limit.map { last.count < $0 } ?? true)
        }
        if plan.checksCandidates {
            let classify = try classifier(plan)
            var counted = 0
            var seen = 0
            var complete = true
            try forEachCandidate(plan.allTiers, after: 0, excluding: range, filters: filters) { _, _, fields in
                seen += 1
                if try classify(fields) != nil { counted += 1 }
                if let limit, counted >= limit { complete = false; return false }
                if let budget, seen >= budget { complete = false; return false }
                return true
            }
            return (counted, complete)
        }
        guard case .match(let expression) = plan.allTiers else { return (0, true) }
        // Without filters and without productIds in the range, the index alone counts.
        let indexAlone = rangeIsEmpty && filters.isEmpty
        let statement = indexAlone
            ? try prepared(Self.counting("FROM \(WordIndex.table) WHERE \(WordIndex.table) MATCH ?1", limited: limit != nil))
            : try prepared(Self.counting(try wordMatchClauses(excluding: range, filters), limited: limit != nil))
        return try statement.using {
            if indexAlone {
                try statement.bind(1, expression)
            } else {
                try bindWordMatch(expression, excluding: range, filters, to: statement)
            }
            if let limit { try statement.bind(9, Int64(limit)) }
            try statement.step()
            let count = Int(statement.int64(at: 0))
            return (count, limit.map { count < $0 } ?? true)
        }
    }
}

extension WordTokenizer {
    /// The tokens of the UTF-8 text `bytes`.
    func tokens(in bytes: UnsafeRawBufferPointer) throws -> [String] {
        var tokens: [String] = []
        try forEachToken(in: bytes) { tokens.append(String(decoding: $0, as: UTF8.self)) }
        return tokens
    }
}
