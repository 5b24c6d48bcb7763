import Foundation
@_spi(WordIndex) import ProductCatalog

// The word index of issue 44 measured before it is built on: today's postings of a catalog (read
// from its FTS5 index) written in the block layout (PostingBlocks), and the reads of given queries
// timed side by side, each the same candidate expression the current planner makes, read by FTS5
// and by the blocks. Also the build of the postings from the catalog's own token stream, as an
// import's second thread would make them.
//
//   swift run -c release WordIndexProbe CATALOG --out words.sqlite [--query TEXT]… [--queries FILE] [--runs 21]
//
// CATALOG is a catalog file of this build's layout (FTS5). The blocks go to a file of their own.

struct Options {
    var catalog = ""
    var out = ""
    var queries: [String] = []
    var runs = 21
    var pageSize = 4096
    var show = false
    var reuse = false

    init(_ arguments: [String]) throws {
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--out": out = rest.popFirst() ?? ""
            case "--query": queries.append(rest.popFirst() ?? "")
            case "--queries":
                let text = try String(contentsOfFile: rest.popFirst() ?? "", encoding: .utf8)
                queries += text.split(whereSeparator: \.isNewline).map(String.init).filter { !$0.isEmpty }
            case "--runs": runs = Int(rest.popFirst() ?? "") ?? runs
            case "--page-size": pageSize = Int(rest.popFirst() ?? "") ?? pageSize
            case "--show": show = true
            case "--reuse": reuse = true
            default: catalog = argument
            }
        }
    }
}

let options = try Options(CommandLine.arguments)
guard !options.catalog.isEmpty, !options.out.isEmpty else {
    FileHandle.standardError.write(Data("usage: WordIndexProbe CATALOG --out FILE [--query TEXT]… [--queries FILE]\n".utf8))
    exit(2)
}
let clock = ContinuousClock()
func ms(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
}
func peakMB() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) / 1024
}

// MARK: - Today's postings, from FTS5

/// Every term's postings, in term order, each in row order: what FTS5 holds (`fts5vocab` instance).
struct Lists {
    var names: [[UInt8]] = []
    var postings: [[Posting]] = []
    var termCount = 0
}

func readFTS5Postings() throws -> Lists {
    let connection = try Connection(path: options.catalog, mode: .readOnly)
    try connection.execute("CREATE VIRTUAL TABLE temp.probe_vocabulary USING fts5vocab(main, words, instance)")
    let columns = ["title": Posting.title, "brand": Posting.brand, "productType": Posting.productType]
    let statement = try connection.prepare("SELECT term, doc, col FROM temp.probe_vocabulary")
    var lists = Lists()
    var term: [UInt8] = []
    var current: [Posting] = []
    while try statement.step() {
        let same = statement.withBytes(at: 0) { $0.elementsEqual(term) }
        if !same {
            if !current.isEmpty { lists.names.append(term); lists.postings.append(current) }
            term = statement.withBytes(at: 0) { Array($0) }
            current = []
        }
        let row = statement.int64(at: 1)
        let field = columns[statement.text(at: 2) ?? ""] ?? Posting.title
        if let last = current.last, last.row == row {
            current[current.count - 1].fields |= field
        } else {
            current.append(Posting(row: row, fields: field))
        }
    }
    if !current.isEmpty { lists.names.append(term); lists.postings.append(current) }
    lists.termCount = lists.names.count
    return lists
}

/// The lists of the starts of one to three characters of every term, each the union of its terms' lists.
func addStartLists(_ lists: inout Lists) {
    var starts: [[UInt8]: [Posting]] = [:]
    for (term, postings) in zip(lists.names, lists.postings) {
        for start in TermList.starts(of: term) { starts[Array(start), default: []] += postings }
    }
    for (start, postings) in starts.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
        var merged: [Posting] = []
        for posting in postings.sorted(by: { $0.row < $1.row }) {
            if let last = merged.last, last.row == posting.row { merged[merged.count - 1].fields |= posting.fields } else { merged.append(posting) }
        }
        lists.names.append(start)
        lists.postings.append(merged)
    }
}

/// Writes `lists` into the blocks' file; returns the term list and the time SQLite and the encoding took.
func writeBlocks(_ lists: Lists) throws -> (TermList, encode: Duration, sqlite: Duration, blocks: Int, bytes: Int) {
    try? FileManager.default.removeItem(atPath: options.out)
    let connection = try Connection(path: options.out)
    try connection.execute("PRAGMA page_size = \(options.pageSize); PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;")
    try connection.execute(SQLitePostingStore.createStatements)
    // Encoded first, in memory, so that SQLite's time is its own.
    var blocks: [(Int, [UInt8], PostingBlocks.Entry)] = []
    var firstBlocks: [Int] = []
    var offsets: [Int] = []
    let encode = try clock.measure {
        var writer = PostingBlocks.Writer(capacity: SQLitePostingStore.blockCapacity(pageSize: options.pageSize)) { block, data, entry in
            blocks.append((block, data, entry))
        }
        for (list, postings) in lists.postings.enumerated() {
            for (index, posting) in postings.enumerated() {
                try writer.add(posting, to: list)
                if index == 0 {
                    firstBlocks.append(writer.runStart.block)
                    offsets.append(writer.runStart.offset)
                }
            }
        }
        try writer.finish()
    }
    let terms = TermList(names: lists.names, products: lists.postings.map(\.count), firstBlocks: firstBlocks, offsets: offsets,
                         termCount: lists.termCount)
    let sqlite = try clock.measure {
        try connection.begin(.deferred)
        let appender = try SQLitePostingStore.Appender(connection: connection)
        for (block, data, entry) in blocks { try appender.append(block, data, entry) }
        try terms.write(to: connection, blockCapacity: SQLitePostingStore.blockCapacity(pageSize: options.pageSize))
        try connection.commit()
    }
    return (terms, encode, sqlite, blocks.count, blocks.reduce(0) { $0 + $1.1.count })
}

// MARK: - The token stream, as an import's second thread would see it

/// Builds every list from the products' title, brand and type in word-row order, as an import's
/// index thread would (``PostingsBuilder``: tokenize, intern, collect, sort by counting, encode).
func buildFromTokens() throws -> (Duration, postings: Int, lists: Int, bytes: Int, memory: Int) {
    let connection = try Connection(path: options.catalog, mode: .readOnly)
    let statement = try connection.prepare("""
        SELECT w.wordRow, p.title, p.brand, p.productType FROM word_products w JOIN products p ON p.productId = w.productId ORDER BY w.productId
        """)
    // Read before the clock starts: the import hands these bytes over anyway.
    var rows: [(Int64, [[UInt8]?])] = []
    while try statement.step() {
        rows.append((statement.int64(at: 0), (1...3).map { column in statement.isNull(at: Int32(column)) ? nil : statement.withBytes(at: Int32(column)) { Array($0) } }))
    }
    var postings = 0, listCount = 0, bytes = 0, memory = 0
    let elapsed = try clock.measure {
        var builder = try PostingsBuilder()
        for (row, fields) in rows {
            try withFields(fields) { try builder.add(row: row, fields: $0) }
        }
        postings = builder.postings
        memory = builder.memory
        var writer = PostingBlocks.Writer(capacity: SQLitePostingStore.blockCapacity(pageSize: options.pageSize)) { _, data, _ in bytes += data.count }
        let terms = try builder.write(to: &writer)
        try writer.finish()
        listCount = terms.count
    }
    return (elapsed, postings, listCount, bytes, memory)
}

/// Calls `body` with raw views of `fields`.
func withFields(_ fields: [[UInt8]?], _ body: ([UnsafeRawBufferPointer?]) throws -> Void) rethrows {
    func step(_ index: Int, _ views: [UnsafeRawBufferPointer?]) throws {
        guard index < fields.count else { return try body(views) }
        guard let field = fields[index] else { return try step(index + 1, views + [nil]) }
        try field.withUnsafeBytes { try step(index + 1, views + [$0]) }
    }
    try step(0, [])
}

// MARK: - Reading a candidate expression from the blocks

/// A stream of rows in increasing order, with skips: one list, or several combined.
protocol RowStream {
    var current: Int64? { get }
    mutating func next() throws
    mutating func advance(to row: Int64) throws
}

/// One list's rows, those whose fields meet `fields`.
struct ListStream: RowStream {
    var cursor: PostingCursor
    let fields: UInt8
    var current: Int64?

    init(_ cursor: PostingCursor, fields: UInt8) throws {
        self.cursor = cursor
        self.fields = fields
        try settle()
    }

    private mutating func settle() throws {
        while let posting = cursor.current, posting.fields & fields == 0 { try cursor.next() }
        current = cursor.current?.row
    }

    mutating func next() throws { try cursor.next(); try settle() }
    mutating func advance(to row: Int64) throws { try cursor.advance(to: row); try settle() }
}

/// The rows in every one of `parts`.
struct AllOf: RowStream {
    var parts: [any RowStream]
    var current: Int64?

    init(_ parts: [any RowStream]) throws {
        self.parts = parts
        try align(from: parts.compactMap(\.current).max() ?? 0)
    }

    private mutating func align(from start: Int64) throws {
        var target = start
        while true {
            var agreed = true
            for index in parts.indices {
                try parts[index].advance(to: target)
                guard let row = parts[index].current else { current = nil; return }
                if row > target { target = row; agreed = false }
            }
            if agreed { current = target; return }
        }
    }

    mutating func next() throws {
        guard let now = current else { return }
        try align(from: now + 1)
    }

    mutating func advance(to row: Int64) throws {
        guard let now = current, now < row else { return }
        try align(from: row)
    }
}

/// The rows in any of `parts`: a heap of the parts by their current row, so that a word that
/// stands for thousands of terms costs a logarithm of them a row.
struct AnyOf: RowStream {
    /// The parts not yet read to their end, as a min-heap by current row.
    var heap: [any RowStream]
    var current: Int64? { heap.first?.current }

    init(_ parts: [any RowStream]) throws {
        heap = parts.filter { $0.current != nil }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    mutating func next() throws {
        guard let now = current else { return }
        while let top = heap.first?.current, top == now {
            try heap[0].next()
            fixTop()
        }
    }

    mutating func advance(to row: Int64) throws {
        while let top = heap.first?.current, top < row {
            try heap[0].advance(to: row)
            fixTop()
        }
    }

    /// Restores the heap after its top moved: drops it when it ended, else sinks it.
    private mutating func fixTop() {
        if heap[0].current == nil {
            heap.swapAt(0, heap.count - 1)
            heap.removeLast()
        }
        if !heap.isEmpty { siftDown(0) }
    }

    private mutating func siftDown(_ start: Int) {
        var index = start
        while true {
            let left = 2 * index + 1, right = left + 1
            var smallest = index
            if left < heap.count, heap[left].current! < heap[smallest].current! { smallest = left }
            if right < heap.count, heap[right].current! < heap[smallest].current! { smallest = right }
            if smallest == index { return }
            heap.swapAt(index, smallest)
            index = smallest
        }
    }
}

/// The rows of `kept` not in `left`.
struct Without: RowStream {
    var kept: any RowStream
    var left: any RowStream
    var current: Int64?

    init(_ kept: any RowStream, _ left: any RowStream) throws {
        self.kept = kept
        self.left = left
        try settle()
    }

    private mutating func settle() throws {
        while let row = kept.current {
            try left.advance(to: row)
            if left.current != row { current = row; return }
            try kept.next()
        }
        current = nil
    }

    mutating func next() throws { try kept.next(); try settle() }
    mutating func advance(to row: Int64) throws { try kept.advance(to: row); try settle() }
}

/// Rows decoded into memory, sorted: a word's alternatives (its near terms, the terms it starts)
/// merged once, when they hold few postings, so that the search steps through one array.
struct ArrayStream: RowStream {
    var rows: [Int64]
    var index = 0
    var current: Int64? { index < rows.count ? rows[index] : nil }

    /// The union of `streams`' rows, read whole.
    init(union streams: [ListStream]) throws {
        var rows: [Int64] = []
        for var stream in streams {
            while let row = stream.current {
                rows.append(row)
                try stream.next()
            }
        }
        rows.sort()
        var unique: [Int64] = []
        unique.reserveCapacity(rows.count)
        for row in rows where unique.last != row { unique.append(row) }
        self.rows = unique
    }

    mutating func next() throws { index += 1 }

    mutating func advance(to row: Int64) throws {
        guard let now = current, now < row else { return }
        // Gallop, then halve: skips are short while the other words are dense, long when sparse.
        var step = 1
        var low = index
        while low + step < rows.count, rows[low + step] < row {
            low += step
            step *= 2
        }
        var high = min(low + step, rows.count)
        while low < high {
            let middle = (low + high) / 2
            if rows[middle] < row { low = middle + 1 } else { high = middle }
        }
        index = low
    }
}

/// Every row.
struct Empty: RowStream {
    var current: Int64? { nil }
    mutating func next() throws {}
    mutating func advance(to row: Int64) throws {}
}

/// Reads the FTS5 expressions `WordPlan` writes: `"t"`, `"t"*`, `( … )`, `AND`, `OR`, `NOT`, `{title} : ( … )`.
struct ExpressionReader {
    let terms: TermList
    let store: SQLitePostingStore
    var tokens: [String]
    var position = 0

    init(_ text: String, terms: TermList, store: SQLitePostingStore) {
        self.terms = terms
        self.store = store
        var tokens: [String] = []
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == " " { index = text.index(after: index); continue }
            if character == "\"" {
                var end = text.index(after: index)
                var word = ""
                while end < text.endIndex {
                    if text[end] == "\"" {
                        let after = text.index(after: end)
                        if after < text.endIndex, text[after] == "\"" { word.append("\""); end = text.index(after: after); continue }
                        break
                    }
                    word.append(text[end])
                    end = text.index(after: end)
                }
                index = text.index(after: end)
                if index < text.endIndex, text[index] == "*" {
                    tokens.append("P" + word)
                    index = text.index(after: index)
                } else {
                    tokens.append("T" + word)
                }
                continue
            }
            if "(){}:".contains(character) { tokens.append(String(character)); index = text.index(after: index); continue }
            var word = ""
            while index < text.endIndex, !" (){}:\"".contains(text[index]) { word.append(text[index]); index = text.index(after: index) }
            tokens.append(word)
        }
        self.tokens = tokens
    }

    mutating func expression(fields: UInt8 = 7) throws -> any RowStream {
        // `a OR b OR c` as one union of three, not a chain of unions of two; lists alone holding
        // few postings in all are merged into one array.
        var alternatives = [try conjunction(fields: fields)]
        while position < tokens.count, tokens[position] == "OR" {
            position += 1
            alternatives.append(try conjunction(fields: fields))
        }
        if alternatives.count > 1, let lists = alternatives as? [ListStream], lists.reduce(0, { $0 + terms.products($1.cursor.list) }) <= 200_000 {
            return try ArrayStream(union: lists)
        }
        return alternatives.count == 1 ? alternatives[0] : try AnyOf(alternatives)
    }

    mutating func conjunction(fields: UInt8) throws -> any RowStream {
        var parts = [try primary(fields: fields)]
        var without: [any RowStream] = []
        while position < tokens.count, tokens[position] == "AND" || tokens[position] == "NOT" {
            let operation = tokens[position]
            position += 1
            let part = try primary(fields: fields)
            if operation == "AND" { parts.append(part) } else { without.append(part) }
        }
        var stream: any RowStream = parts.count == 1 ? parts[0] : try AllOf(parts)
        for part in without { stream = try Without(stream, part) }
        return stream
    }

    mutating func primary(fields: UInt8) throws -> any RowStream {
        let token = tokens[position]
        position += 1
        if token == "(" {
            let inner = try expression(fields: fields)
            position += 1  // ")"
            return inner
        }
        if token == "{" {
            // {title} : ( … )
            let column = tokens[position]
            position += 3  // column, "}", ":"
            return try primary(fields: column == "title" ? Posting.title : column == "brand" ? Posting.brand : Posting.productType)
        }
        let word = Array(token.dropFirst().utf8)
        if token.hasPrefix("T") {
            guard let list = terms.list(ofTerm: word) else { return Empty() }
            return try ListStream(terms.cursor(list, store: store), fields: fields)
        }
        if TermList.starts(of: word).last?.count == word.count, word.count > 0,
           String(decoding: word, as: UTF8.self).count <= TermList.maxPrefixLength, let list = terms.list(ofStart: word) {
            return try ListStream(terms.cursor(list, store: store), fields: fields)
        }
        let range = terms.terms(startingWith: word)
        let lists = try range.map { try ListStream(terms.cursor($0, store: store), fields: fields) }
        if range.reduce(0, { $0 + terms.products($1) }) <= 200_000 { return try ArrayStream(union: lists) }
        return try AnyOf(lists)
    }
}

/// Up to `limit` rows of `stream`.
func count(_ stream: inout any RowStream, limit: Int) throws -> Int {
    var counted = 0
    while stream.current != nil, counted < limit {
        counted += 1
        try stream.next()
    }
    return counted
}

// MARK: - The run

print("catalog \(options.catalog), blocks of \(SQLitePostingStore.blockCapacity(pageSize: options.pageSize)) bytes")
// With --reuse, the blocks written by an earlier run, for timing the reads alone.
if !options.reuse {
var lists = Lists()
let readTime = try clock.measure { lists = try readFTS5Postings() }
let termPostings = lists.postings.reduce(0) { $0 + $1.count }
let startTime = clock.measure { addStartLists(&lists) }
let allPostings = lists.postings.reduce(0) { $0 + $1.count }
print(String(format: "FTS5's postings read: %d terms, %d postings in %.0f ms; starts of 1-3 characters: %d lists, %d postings in all (%.0f ms)",
             lists.termCount, termPostings, ms(readTime), lists.names.count - lists.termCount, allPostings, ms(startTime)))
let (_, encodeTime, sqliteTime, blockCount, blockBytes) = try writeBlocks(lists)
lists = Lists()
let fileBytes = (try? FileManager.default.attributesOfItem(atPath: options.out)[.size] as? Int) ?? 0
print(String(format: "blocks written: %d blocks, %.1f MB of postings, file %.1f MB; encoding %.0f ms, SQLite %.0f ms (rows, page writes, term list)",
             blockCount, Double(blockBytes) / 1e6, Double(fileBytes) / 1e6, ms(encodeTime), ms(sqliteTime)))
let (tokenTime, tokenPostings, tokenLists, tokenBytes, tokenMemory) = try buildFromTokens()
print(String(format: "from the token stream (PostingsBuilder: tokenize, intern, collect, sort, encode; in memory): %.0f ms, %d postings in %d lists, %.1f MB encoded, the builder held %.0f MB; peak RSS so far %d MB",
             ms(tokenTime), tokenPostings, tokenLists, Double(tokenBytes) / 1e6, Double(tokenMemory) / 1e6, peakMB()))
}

let search = try ProductSearch(databasePath: options.catalog)
try search.loadTermList()
let fts = try Connection(path: options.catalog, mode: .readOnly)
_ = try fts.scalarInt("PRAGMA mmap_size = \(1 << 30)")
let ftsCount = try fts.prepare("SELECT count(*) FROM (SELECT rowid FROM words WHERE words MATCH ?1 LIMIT 10001)")
let blocksFile = try Connection(path: options.out, mode: .readOnly)
_ = try blocksFile.scalarInt("PRAGMA mmap_size = \(1 << 30)")
let store = try SQLitePostingStore(connection: blocksFile)
var terms: TermList!
let loadTime = try clock.measure { terms = try TermList(connection: blocksFile) }
print(String(format: "term list read from its blocks in %.1f ms", ms(loadTime)))
print("")
print("| query | candidates (up to 10,001) | FTS5 ms | blocks ms | ratio |")
print("|---|---:|---:|---:|---:|")
var ratios: [Double] = []
for query in options.queries {
    guard let expression = try search.candidateExpression(query: query, typos: true), expression != "*" else {
        print("| \(query) | no word candidates | | | |")
        continue
    }
    func median(_ body: () throws -> Int) throws -> (Double, Int) {
        var times: [Double] = []
        var result = 0
        for _ in 0..<options.runs { times.append(ms(try clock.measure { result = try body() })) }
        return (times.sorted()[times.count / 2], result)
    }
    let (ftsTime, ftsFound) = try median {
        try ftsCount.using {
            try ftsCount.bind(1, expression)
            _ = try ftsCount.step()
            return Int(ftsCount.int64(at: 0))
        }
    }
    let (blockTime, blockFound) = try median {
        // One read transaction for the whole search, as FTS5's one statement has: a statement
        // alone takes and drops SQLite's file lock (two fcntl calls) for every block.
        try blocksFile.begin(.deferred)
        defer { try? blocksFile.rollback() }
        var reader = ExpressionReader(expression, terms: terms, store: store)
        var stream = try reader.expression()
        return try count(&stream, limit: 10_001)
    }
    if options.show { print("  expression (\(expression.count) characters): \(expression.prefix(400))") }
    let agree = ftsFound == blockFound ? "" : " (FTS5 \(ftsFound) ≠ blocks \(blockFound))"
    ratios.append(blockTime / max(ftsTime, 0.001))
    print(String(format: "| %@ | %d%@ | %.2f | %.2f | %.2f |", query, blockFound, agree, ftsTime, blockTime, blockTime / max(ftsTime, 0.001)))
}
if !ratios.isEmpty {
    let geometric = exp(ratios.map(log).reduce(0, +) / Double(ratios.count))
    print(String(format: "\ngeometric mean of the ratios (blocks / FTS5): %.2f over %d queries; peak RSS %d MB", geometric, ratios.count, peakMB()))
}
