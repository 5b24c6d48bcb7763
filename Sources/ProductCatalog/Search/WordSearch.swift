/// Word search over the catalog's own index (``WordLists``), by the ranking rules (``MatchRank``).
///
/// A query's words are planned as before (``WordPlan``: the terms each word starts, the near ones
/// when typos are allowed). Each word becomes a source (``WordSource``): the union of its
/// alternatives' lists, in row order, each row with how well it matches the word. The sources are
/// intersected by leapfrogging (each skips to the largest row any of them is on, through the
/// lists' directory), and every row they agree on is ranked from its words' matches alone: no
/// product is read to rank it, except a title that may be exactly the query.
///
/// A page is read bucket by bucket, each in row order, by passes that read only the lists their
/// buckets need: the title's whole words and the last word's starts (exact titles and every word in
/// the title), the starts of every word in the title, in any field, then everything with its
/// typos in one pass that sorts its rows into the typo buckets. Counting reads the widest pass.
extension ProductSearch {
    /// A word match found in the index: its bucket, its row and its product.
    struct IndexHit: Equatable {
        var rank: MatchRank
        var row: Int64
        var productId: String
    }

    /// The word index as this search's read transaction sees it (``IndexView``); nil for a
    /// catalog without one of this layout.
    func indexView() throws -> IndexView? {
        if indexViews == nil { indexViews = IndexViews(connection: connection, prepare: prepared) }
        return try indexViews!.view()
    }

    /// The plan for the words of `query` over the catalog's own index; nil when it has no words,
    /// the catalog has no such index, or no product can match them.
    func indexPlan(_ query: String, typos: Bool) throws -> WordPlan? {
        let words = WordQuery(query)
        guard !words.words.isEmpty, let view = try indexView() else { return nil }
        let folded = try wordTokenizer.tokens(words.text)
        var limits = planLimits
        limits.broadProducts = max(limits.broadProducts, Int(Double(try catalogProducts()) * limits.broadShare))
        return try WordPlan(folded: folded, terms: IndexTerms(view: view, limits: limits), typos: typos)
    }

    /// Up to `limit` word matches of `plan` after `position` (from the first, for nil), in the
    /// ranking rules' order, leaving out the products whose productId is in `range` (listed
    /// before) and those `filters` leave out.
    func indexHits(_ plan: WordPlan, after position: (rank: MatchRank, row: Int64)?, excluding range: PrefixRange,
                   filters: SearchFilters, limit: Int) throws -> [IndexHit] {
        guard limit > 0, let view = try indexView() else { return [] }
        var run = try WordRun(search: self, view: view, plan: plan, range: range, filters: filters)
        var hits: [IndexHit] = []
        let start = position?.rank ?? .first
        func after(_ rank: MatchRank) -> Int64 { position?.rank == rank ? position!.row + 1 : 0 }
        let exact = MatchRank(typos: 0, place: .exactTitle)
        let titleWords = MatchRank(typos: 0, place: .titleWords)
        if run.exactPossible {
            if start <= exact {
                try run.scan(.titleWords, from: after(exact), classOnly: plan.words.count, where: { rank, _ in rank == exact }) { rank, row, productId in
                    hits.append(IndexHit(rank: rank, row: row, productId: productId))
                    return hits.count < limit
                }
            }
            if hits.count < limit, start <= titleWords {
                try run.scan(.titleWords, from: after(titleWords), where: { found, _ in found == titleWords }) { rank, row, productId in
                    hits.append(IndexHit(rank: rank, row: row, productId: productId))
                    return hits.count < limit
                }
            }
            for (pass, place) in [(WordRun.Pass.titleStarts, MatchRank.Place.titleStarts), (.anyField, .anyField)] {
                let rank = MatchRank(typos: 0, place: place)
                guard hits.count < limit, start <= rank else { continue }
                try run.scan(pass, from: after(rank), where: { found, _ in found == rank }) { found, row, productId in
                    hits.append(IndexHit(rank: found, row: row, productId: productId))
                    return hits.count < limit
                }
            }
        }
        guard hits.count < limit, run.typosPossible else { return hits }
        // The typo buckets together, in one pass from the first row: each bucket's first rows, the
        // cursor's after its row; the pass stops once the cursor's bucket alone fills the page.
        let first = max(start, MatchRank(typos: 1, place: .exactTitle))
        var buckets: [MatchRank: [IndexHit]] = [:]
        let room = limit - hits.count
        // Only a candidate its bucket has room for is identified and filtered.
        try run.scan(.typos, from: 0, where: { rank, row in
            guard rank.typos >= 1, rank >= first else { return false }
            if rank == position?.rank, row <= position!.row { return false }
            return buckets[rank, default: []].count < room
        }) { rank, row, productId in
            buckets[rank, default: []].append(IndexHit(rank: rank, row: row, productId: productId))
            return !(rank == first && buckets[rank]!.count >= room)
        }
        for rank in buckets.keys.sorted() { hits += buckets[rank]! }
        return Array(hits.prefix(limit))
    }

    /// How many products match `plan` by words, leaving out those in `range` and those `filters`
    /// leave out, counting up to `limit`.
    ///
    /// With `families`, how many families: each family once, and none with a variant among the
    /// productId matches. Telling a match's family reads its product and its family's other
    /// variants, tens of microseconds (a common word's 10,000 took 250 ms), so up to
    /// ``familySample`` matches are told one by one and counted exactly; past that, a sample of
    /// that many, evenly spaced in the matches' order, each weighing one over the matches of its
    /// family, is scaled to all the matches: an estimate, said to be one. (Counting the families
    /// among the first matches instead was biased where families are neighbours in the order, as a
    /// Shopify export's are: the first matches are whole families, a smaller share of families
    /// than among all the matches.)
    func indexCount(_ plan: WordPlan, excluding range: PrefixRange, filters: SearchFilters, families: Bool = false,
                    limit: Int?) throws -> MatchCount {
        guard let view = try indexView() else { return MatchCount(count: 0, isComplete: true) }
        var run = try WordRun(search: self, view: view, plan: plan, range: range, filters: filters)
        var counted = 0
        var complete = true
        var rows: [Int64] = []
        try run.scan(run.typosPossible ? .typos : .anyField, from: 0, ranking: false) { _, row, _ in
            counted += 1
            if families { rows.append(row) }
            if let limit, counted >= limit {
                complete = false
                return false
            }
            return true
        }
        guard families, counted > 0 else { return MatchCount(count: counted, isComplete: complete) }
        var judge = try FamilyJudge(search: self, plan: plan, range: range, filters: filters)
        if counted <= Self.familySample {
            var met = Set<String>()
            var found = 0
            for row in rows {
                guard let productId = try run.productId(at: row) else { continue }
                guard let groupId = try groupId(of: productId) else {
                    found += 1
                    continue
                }
                if met.insert(groupId).inserted, try !judge.listedByProductId(groupId, except: productId) { found += 1 }
            }
            return MatchCount(count: found, isComplete: complete)
        }
        let step = Double(counted) / Double(Self.familySample)
        var weight = 0.0
        for sample in 0..<Self.familySample {
            guard let productId = try run.productId(at: rows[Int(Double(sample) * step)], sampled: true) else { continue }
            guard let groupId = try groupId(of: productId) else {
                weight += 1
                continue
            }
            let family = try judge.family(groupId, of: productId)
            if !family.listedByProductId { weight += 1 / Double(family.matches) }
        }
        return MatchCount(count: max(1, Int((weight * step).rounded())), isComplete: false, isEstimate: true)
    }

    /// How many word matches a count of families tells the family of (see ``indexCount(_:excluding:filters:families:limit:)``).
    static let familySample = 100
}

/// One search's passes over the index: the words' alternatives, and what a candidate must be to count.
struct WordRun {
    enum Pass { case titleWords, titleStarts, anyField, typos }

    let search: ProductSearch
    /// The index's segments as the search's transaction reads them.
    let view: IndexView
    let plan: WordPlan
    let range: PrefixRange
    /// Whether some product has a productId in `range`: only then is a candidate's productId compared.
    let rangeIsEmpty: Bool
    let filters: SearchFilters
    /// Titles read to tell an exact one, by row.
    private var exactTitles: [Int64: Bool] = [:]
    private let check: Statement?
    /// The query words read from the list of their longest start that has one and checked (see
    /// ``checksWord(_:plan:terms:)``), and the words of the products checked, by row.
    private let checked: Set<Int>
    private var checkedFields: [Int64: [[[UInt8]]]] = [:]
    private let matcher: WordMatcher

    /// Whether every word has terms of its own, so that matches without typos can exist.
    var exactPossible: Bool { !plan.words.contains { $0.starts == .nothing } }
    /// Whether some word has near terms.
    var typosPossible: Bool { plan.words.contains { !$0.near.isEmpty } }

    init(search: ProductSearch, view: IndexView, plan: WordPlan, range: PrefixRange, filters: SearchFilters) throws {
        self.search = search
        self.view = view
        self.plan = plan
        self.range = range
        self.filters = filters
        rangeIsEmpty = try !search.hasProducts(in: range)
        checked = Set(plan.words.indices.filter { Self.checksWord($0, plan: plan, terms: view.base.terms) })
        matcher = WordMatcher(plan: plan)
        if filters.isEmpty {
            check = nil
        } else {
            check = try search.prepared("SELECT 1 FROM \(CatalogSchema.table) p WHERE p.productId = ?1" + (try search.filterClause(filters).sql))
        }
    }

    /// Whether word `index` of `plan` is read from the list of its longest start that has one, each
    /// row the other words agree on then checked by its product's words (``WordMatcher``), rather
    /// than as the union of the lists of every term it starts.
    ///
    /// So when it starts more than ``checkedTerms`` terms, has no list of its own, and another
    /// word is held by fewer than half as many products as it has lists: the union costs a
    /// cursor a list in every pass (`schw`, hundreds of terms, took 50 to 85 ms a keystroke after
    /// selective words, before such starts had lists), a check about what two lists' cursors
    /// cost, for at most the rarer word's products.
    static func checksWord(_ index: Int, plan: WordPlan, terms: TermList) -> Bool {
        let word = plan.words[index]
        let folded = Array(word.folded.utf8)
        guard word.starts != .nothing, !hasList(folded, terms: terms) else { return false }
        if case .terms = word.starts { return false }
        let lists = terms.terms(startingWith: folded).count
        guard lists > checkedTerms else { return false }
        let rarest = plan.words.indices.filter { $0 != index }.map { plan.words[$0].products }.min() ?? .max
        return rarest < lists / 2
    }

    /// Terms a word's start stands for before it may be checked rather than read as their union.
    static let checkedTerms = 64

    /// The words in the order the leapfrog moves their sources: by the products their terms hold,
    /// fewest first. A last word of one letter after rarer words (`Żyprza Ple Muer Lör C`, one
    /// match in ten million) was moved to every row any of the others proposed, decoding most of
    /// the letter's list: 145 of the 160 slowest keystrokes on ten million were so.
    private var leapfrogOrder: [Int] {
        plan.words.indices.sorted { (plan.words[$0].products, $0) < (plan.words[$1].products, $1) }
    }

    /// Whether the start `start` has a list of its own in `terms`: up to
    /// ``TermList/maxPrefixLength`` characters always, ``TermList/longStartLength`` when many
    /// terms start so.
    static func hasList(_ start: some Collection<UInt8>, terms: TermList) -> Bool {
        let length = TermList.characters(in: start)
        return length <= TermList.maxPrefixLength || length == TermList.longStartLength && terms.list(ofStart: start) != nil
    }

    /// The longest start of `word` that has a list of its own.
    static func listedStart(of word: [UInt8], terms: TermList) -> ArraySlice<UInt8>? {
        TermList.starts(of: word, upTo: TermList.longStartLength).last { hasList($0, terms: terms) }
    }

    /// What a word's match must be for a row to be a candidate of `pass`.
    private static func requirement(_ pass: Pass, isLast: Bool) -> (WordFit) -> Bool {
        switch pass {
        case .titleWords: return isLast ? { $0.title == 0 } : { $0.whole == 0 }
        case .titleStarts: return { $0.title == 0 }
        case .anyField: return { $0.any == 0 }
        case .typos: return { $0.any != WordFit.none }
        }
    }

    /// Calls `body` with each candidate of `pass` from row `start` on, in row order, with its
    /// bucket (with `ranking`), until it returns false. With `classOnly`, only the rows of titles
    /// of that many words. Without `ranking`, the productId is "" unless a range or filter needed it.
    /// A candidate `wanted` turns down (by its bucket and row) is passed over before its productId
    /// is read or its filters checked.
    mutating func scan(_ pass: Pass, from start: Int64, classOnly: Int? = nil, ranking: Bool = true,
                       where wanted: (MatchRank, Int64) -> Bool = { _, _ in true },
                       _ body: (MatchRank, Int64, String) throws -> Bool) throws {
        var sources = try plan.words.indices.map { try source(word: $0, pass: pass) }
        guard !sources.isEmpty else { return }
        var target = start
        var end = Int64.max
        if let classOnly {
            guard classOnly <= Int(WordPlacement.maxClass) else { return }
            target = max(start, WordPlacement.row(class: Int64(classOnly), place: 0))
            end = WordPlacement.row(class: Int64(classOnly) + 1, place: 0)
        }
        let filter = try search.filterClause(filters)
        let checkedRequirements = checked.map { ($0, Self.requirement(pass, isLast: $0 == plan.words.count - 1)) }
        let order = leapfrogOrder
        while true {
            // Leapfrog: every source to the largest row any is on, until they agree; from the
            // rarest word again whenever one moves past the others, so that a common word's list
            // is moved only to rows all the rarer ones hold.
            var agreed = false
            while !agreed {
                agreed = true
                for index in order {
                    try sources[index].advance(to: target)
                    guard let row = sources[index].row else { return }
                    if row > target {
                        target = row
                        agreed = false
                        break
                    }
                }
            }
            guard target < end else { return }
            let row = target
            target += 1
            var matches = sources.map(\.match)
            if !checked.isEmpty {
                // A checked word's list holds every term of its start: its match is the product's.
                guard let fields = try fields(at: row) else { continue }
                var met = true
                for (word, requirement) in checkedRequirements {
                    matches[word] = matcher.fit(word: word, fields: fields, typos: pass == .typos)
                    met = met && requirement(matches[word])
                }
                guard met else { continue }
            }
            var rank = MatchRank(typos: 0, place: .anyField)
            if ranking {
                guard var found = MatchRank.of(matches) else { continue }
                if found == MatchRank(typos: 0, place: .titleWords), try isExactTitle(row) { found = MatchRank.first }
                rank = found
            }
            guard wanted(rank, row) else { continue }
            // A count that neither leaves out a prefix range nor filters needs no productId.
            guard ranking || !rangeIsEmpty || check != nil else {
                guard try body(rank, row, "") else { return }
                continue
            }
            guard let productId = try productId(at: row) else { continue }
            if !rangeIsEmpty, range.contains(productId) { continue }
            if let check {
                let passes = try check.using {
                    try check.bind(1, productId)
                    try filter.bind(to: check)
                    return try check.step()
                }
                guard passes else { continue }
            }
            guard try body(rank, row, productId) else { return }
        }
    }

    /// True when the title of the product at `row` is exactly the query's words, in order.
    private mutating func isExactTitle(_ row: Int64) throws -> Bool {
        guard WordPlacement.wordClass(of: row) == Int64(plan.words.count) else { return false }
        if let known = exactTitles[row] { return known }
        guard let productId = try productId(at: row), let title = try search.product(id: productId)?.title else { return false }
        let exact = try search.wordTokenizer.tokens(title) == plan.folded
        exactTitles[row] = exact
        return exact
    }

    /// The folded words of the title, brand and type of the product at `row`; nil when it has none.
    private mutating func fields(at row: Int64) throws -> [[[UInt8]]]? {
        if let known = checkedFields[row] { return known }
        guard let productId = try productId(at: row) else { return nil }
        let statement = try search.prepared(Self.fieldsQuery)
        let tokenizer = try search.wordTokenizer
        let read = try statement.using { () -> [[[UInt8]]]? in
            try statement.bind(1, productId)
            guard try statement.step() else { return nil }
            return try (0..<Int32(WordLists.fields.count)).map { column in
                var tokens: [[UInt8]] = []
                try statement.withBytes(at: column) { text in try tokenizer.forEachToken(in: text) { tokens.append(Array($0)) } }
                return tokens
            }
        }
        checkedFields[row] = read
        return read
    }

    /// A product's title, brand and type, by productId.
    private static let fieldsQuery = "SELECT " + WordLists.fields.map(\.columnName).joined(separator: ", ")
        + " FROM \(CatalogSchema.table) WHERE productId = ?1"

    /// The productId of the product at `row`. With `sampled`, for rows far apart whose place map
    /// rows are not read again (``PlaceMap/Reader/productId(atSampled:)``).
    func productId(at row: Int64, sampled: Bool = false) throws -> String? {
        try view.productId(at: row & WordPlacement.placeMask, sampled: sampled)
    }

    /// Word `word`'s source in `pass`: the lists it needs in each segment, and what a row must match.
    private func source(word wordIndex: Int, pass: Pass) throws -> WordSource {
        let isLast = wordIndex == plan.words.count - 1
        let planned = plan.words[wordIndex]
        var alternatives: [WordAlternative] = []
        for (segmentIndex, segment) in view.segments.enumerated() {
            try addAlternatives(of: planned, isLast: isLast, wordIndex: wordIndex, pass: pass, segment: segment,
                                stale: view.dead[segmentIndex], to: &alternatives)
        }
        return try WordSource(alternatives, requirement: Self.requirement(pass, isLast: isLast))
    }

    /// The alternatives of word `planned` in one segment's lists (its postings at the places in
    /// `stale` passed over).
    private func addAlternatives(of planned: WordPlan.Word, isLast: Bool, wordIndex: Int, pass: Pass, segment: IndexSegment,
                                 stale: DeadPlaces?, to alternatives: inout [WordAlternative]) throws {
        // What is added already, the first time winning, by list number (a start stands for
        // hundreds, named by a string each they cost a keystroke milliseconds).
        var addedLists = Set<Int>()
        let terms = segment.terms
        /// The segment's list `list`.
        func termList(_ list: Int, distance: UInt8, isWhole: Bool) throws {
            guard addedLists.insert(list).inserted else { return }
            alternatives.append(try WordAlternative(.blocks(terms.cursor(list, store: segment.store)), distance: distance, isWhole: isWhole, stale: stale))
        }
        /// A term's list.
        func term(_ name: [UInt8], distance: UInt8, isWhole: Bool) throws {
            if let list = terms.list(ofTerm: name) { try termList(list, distance: distance, isWhole: isWhole) }
        }
        /// The lists of the terms `start` begins: one list for a start that has one (up to three
        /// characters, or four of many terms), and for a checked word, the list of its longest
        /// start that has one.
        func starts(_ start: [UInt8], distance: UInt8, wholeFor word: [UInt8]?) throws {
            if Self.hasList(start, terms: terms) {
                if let list = terms.list(ofStart: start) { try termList(list, distance: distance, isWhole: false) }
                return
            }
            if distance == 0, checked.contains(wordIndex), let first = Self.listedStart(of: start, terms: terms) {
                if let list = terms.list(ofStart: first) { try termList(list, distance: 0, isWhole: false) }
                return
            }
            let whole = word.flatMap { terms.list(ofTerm: $0) }
            for list in terms.terms(startingWith: start) {
                try termList(list, distance: distance, isWhole: list == whole)
            }
        }
        let folded = Array(planned.folded.utf8)
        switch pass {
        case .titleWords:
            if isLast {
                if planned.starts != .nothing { try starts(folded, distance: 0, wholeFor: nil) }
            } else {
                try term(folded, distance: 0, isWhole: true)
            }
        case .titleStarts, .anyField, .typos:
            if !isLast { try term(folded, distance: 0, isWhole: true) }
            if planned.starts != .nothing { try starts(folded, distance: 0, wholeFor: isLast ? nil : folded) }
            if pass == .typos {
                for near in planned.near {
                    let text = Array(near.text.utf8)
                    if isLast {
                        try starts(text, distance: UInt8(near.distance), wholeFor: nil)
                    } else {
                        try term(text, distance: UInt8(near.distance), isWhole: true)
                    }
                }
            }
        }
    }
}
