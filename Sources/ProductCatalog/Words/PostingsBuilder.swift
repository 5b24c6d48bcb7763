/// Builds a word index's lists in memory from products' words: each product's title, brand and
/// type folded into terms, each term and each start of one to three characters of one given the
/// product's posting (and of four, `withLongStarts`), then every list sorted and written in the
/// term list's order (which keeps the starts of four characters of many terms alone,
/// ``TermList/Builder``).
///
/// Terms are interned (``TermTable``) and postings appended as (list, row and fields) pairs in two
/// flat arrays, so a word costs a hash and a compare, not an allocation. ``write(to:)`` sorts them by
/// counting (a list's postings come out together, in the order they came) and then each list by
/// row (products come in place order, but their title classes interleave).
@_spi(WordIndex) public struct PostingsBuilder {
    private var terms = TermTable()
    private var starts = TermTable()
    /// For each term, the numbers of its starts (up to ``TermList/longStartLength``; -1 past its length).
    private var termStarts: [Int32] = []
    /// Postings of terms and of starts: the list's number, and the row and fields packed (`row << 3 | fields`).
    private var termLists: [Int32] = []
    private var termValues: [UInt64] = []
    private var startLists: [Int32] = []
    private var startValues: [UInt64] = []
    /// The product being added: its terms and starts, with the fields each is in.
    private var productTerms: [(number: Int32, fields: UInt8)] = []
    private var productStarts: [(number: Int32, fields: UInt8)] = []
    /// For each term and start, the last product that had it (``product``) and where it is in
    /// ``productTerms`` or ``productStarts``: a product's terms found by a look, where searching
    /// its own list made a product of many distinct words (a long CJK title: 900 KB, hundreds of
    /// thousands of pairs) cost the square of their number.
    private var termSeen: [(product: Int, slot: Int32)] = []
    private var startSeen: [(product: Int, slot: Int32)] = []
    private var product = 0
    /// ``forEachList(_:)``'s postings in list order and where each list starts, kept for the next
    /// segment's, as are the arrays above (``removeAll()``): a build spills a segment every few
    /// MiB, and growing them anew each time, with `catalog`'s fixed mmap threshold, doubled the
    /// import's system time in page faults (Benchmarks/measurements/import-memory-20261126.md).
    private var sorted: [UInt64] = []
    private var bounds: [Int] = []
    private var next: [Int] = []
    private let tokenizer: WordTokenizer
    /// The starts each term is given a posting of: up to ``TermList/longStartLength`` characters
    /// `withLongStarts`, else up to ``TermList/maxPrefixLength`` (an import's segments, whose merge
    /// makes the long starts' lists from their terms', ``LongStartLists``).
    private let startLength: Int

    public init(withLongStarts: Bool = true) throws {
        tokenizer = try WordTokenizer(connection: Connection(path: ":memory:"))
        startLength = withLongStarts ? TermList.longStartLength : TermList.maxPrefixLength
    }

    /// Forgets every product added, keeping the memory for the next ones.
    public mutating func removeAll() {
        terms.removeAll()
        starts.removeAll()
        termSeen.removeAll(keepingCapacity: true)
        startSeen.removeAll(keepingCapacity: true)
        termStarts.removeAll(keepingCapacity: true)
        termLists.removeAll(keepingCapacity: true)
        termValues.removeAll(keepingCapacity: true)
        startLists.removeAll(keepingCapacity: true)
        startValues.removeAll(keepingCapacity: true)
    }

    /// Postings added so far.
    public var postings: Int { termValues.count + startValues.count }

    /// About the memory the builder holds, in bytes.
    public var memory: Int { terms.memory + starts.memory + termStarts.count * 4 + postings * 12 }

    /// Adds the product at `row` whose title, brand and type (UTF-8, nil when missing) are `fields`.
    public mutating func add(row: Int64, fields: [UnsafeRawBufferPointer?]) throws {
        try collect(fields)
        post(row: row)
    }

    /// Adds the product at `place` whose title, brand and type are `fields`, and returns its word
    /// row: the number of words in its title (its class, ``WordPlacement``) above its place.
    public mutating func add(place: Int64, fields: [UnsafeRawBufferPointer?]) throws -> Int64 {
        let titleWords = try collect(fields)
        let row = WordPlacement.row(class: min(max(Int64(titleWords), 1), WordPlacement.maxClass), place: place)
        post(row: row)
        return row
    }

    /// Folds a product's fields into its terms, with the fields each is in; returns how many words its title has.
    @discardableResult
    private mutating func collect(_ fields: [UnsafeRawBufferPointer?]) throws -> Int {
        productTerms.removeAll(keepingCapacity: true)
        productStarts.removeAll(keepingCapacity: true)
        product += 1
        var titleWords = 0
        for (index, text) in fields.enumerated() {
            guard let text else { continue }
            let bit = Posting.field(index)
            try tokenizer.forEachToken(in: text) { token in
                if index == 0 { titleWords += 1 }
                let (number, isNew) = terms.intern(token)
                if isNew {
                    internStarts(of: token)
                    termSeen.append((0, 0))
                }
                if termSeen[number].product == product {
                    productTerms[Int(termSeen[number].slot)].fields |= bit
                } else {
                    termSeen[number] = (product, Int32(productTerms.count))
                    productTerms.append((Int32(number), bit))
                }
            }
        }
        return titleWords
    }

    /// Gives the collected terms and their starts a posting at `row`.
    private mutating func post(row: Int64) {
        for (number, bits) in productTerms {
            termLists.append(number)
            termValues.append(UInt64(row) << Posting.fieldBits | UInt64(bits))
            for offset in 0..<TermList.longStartLength {
                let start = termStarts[Int(number) * TermList.longStartLength + offset]
                guard start >= 0 else { break }
                if startSeen[Int(start)].product == product {
                    productStarts[Int(startSeen[Int(start)].slot)].fields |= bits
                } else {
                    startSeen[Int(start)] = (product, Int32(productStarts.count))
                    productStarts.append((start, bits))
                }
            }
        }
        for (number, bits) in productStarts {
            startLists.append(number)
            startValues.append(UInt64(row) << Posting.fieldBits | UInt64(bits))
        }
    }

    /// Interns the starts of a term seen for the first time and keeps their numbers with it.
    private mutating func internStarts(of term: UnsafeRawBufferPointer) {
        var end = 0
        var found = 0
        while end < term.count, found < startLength {
            end += 1
            while end < term.count, term[end] & 0xC0 == 0x80 { end += 1 }
            let (number, isNew) = starts.intern(UnsafeRawBufferPointer(rebasing: term[0..<end]))
            if isNew { startSeen.append((0, 0)) }
            termStarts.append(Int32(number))
            found += 1
        }
        for _ in found..<TermList.longStartLength { termStarts.append(-1) }
    }

    /// Calls `body` with every list, terms then starts (`isStart`), each in byte order of its
    /// name, with its postings packed (`row << 3 | fields`) in row order.
    public mutating func forEachList(_ body: (_ isStart: Bool, _ name: UnsafeBufferPointer<UInt8>, _ values: ArraySlice<UInt64>) throws -> Void) throws {
        for isStart in [false, true] {
            let table = isStart ? starts : terms
            let lists = isStart ? startLists : termLists
            let values = isStart ? startValues : termValues
            // By counting: where each list's postings go, then each posting there, in the order it came.
            bounds.removeAll(keepingCapacity: true)
            bounds.append(contentsOf: repeatElement(0, count: table.count + 1))
            for list in lists { bounds[Int(list) + 1] += 1 }
            for index in 0..<table.count { bounds[index + 1] += bounds[index] }
            next.removeAll(keepingCapacity: true)
            next.append(contentsOf: bounds)
            sorted.removeAll(keepingCapacity: true)
            sorted.append(contentsOf: repeatElement(0, count: values.count))
            for (list, value) in zip(lists, values) {
                sorted[next[Int(list)]] = value
                next[Int(list)] += 1
            }
            for number in table.sortedNumbers() {
                let range = bounds[number]..<bounds[number + 1]
                sorted[range].sort()
                try table.withTerm(number) { try body(isStart, $0, sorted[range]) }
            }
        }
    }

    /// Writes every list (see ``forEachList(_:)``) into `writer`; returns the term list that finds them.
    public mutating func write(to writer: inout PostingBlocks.Writer) throws -> TermList {
        var lists = TermList.Builder()
        try forEachList { isStart, name, values in
            try lists.add(name: name, isStart: isStart, values: values, to: &writer)
        }
        return lists.termList(termCount: terms.count)
    }
}
