/// The lists of the starts of ``TermList/longStartLength`` characters that more than
/// ``TermList/manyTerms`` terms have, made while a merge writes the terms' lists
/// (``PostingSegment/merge(_:into:longStartsPath:longStartsBudget:)``), so that an import's
/// products give no posting to every start of four characters for the few starts of many terms
/// (posting them all, then dropping those of few terms at the merge, took a fifth more import time
/// on the five languages' million).
///
/// The terms of one start come one after another in the merge, so their postings are gathered as
/// they are written; when the next start begins, they are sorted into one list (a product holding
/// two of its terms once, with their fields together) if there were many terms, or forgotten.
/// Past `budget` postings the gathered ones are sorted and spilled, so memory stays bounded. The
/// lists are written as a segment of their own (``segment()``), merged with the segments' starts.
struct LongStartLists {
    private let path: String
    private let budget: Int
    /// The start being gathered, the terms seen of it, and their postings kept in memory and spilled.
    private var start: [UInt8] = []
    private var terms = 0
    private var postings: [UInt64] = []
    private var spilled: [SpillFile] = []
    /// The lists made so far, as segment records; nil until the first.
    private var output: SpillFile?

    /// Spills to unlinked files named from `path`, past `budget` postings in memory.
    init(path: String, budget: Int) {
        self.path = path
        self.budget = max(1, budget)
    }

    /// Notes that the list of the term `name` is written next (terms come in byte order); returns
    /// whether its postings are to be gathered (``add(_:)``).
    mutating func begin(term name: UnsafeBufferPointer<UInt8>) throws -> Bool {
        guard let long = TermList.longStart(of: name) else { return false }
        if !name[0..<long].elementsEqual(start) {
            try endStart()
            start = Array(name[0..<long])
        }
        terms += 1
        return true
    }

    /// Gathers a packed posting (`row << 3 | fields`) of the term begun last.
    @inline(__always)
    mutating func add(_ value: UInt64) throws {
        postings.append(value)
        if postings.count >= budget { try spill() }
    }

    /// Ends the last start, and returns the segment of every list made; nil when none was.
    mutating func segment() throws -> PostingSegment? {
        try endStart()
        guard let output else { return nil }
        self.output = nil
        return try PostingSegment(written: output)
    }

    /// Writes the start gathered as a list when many terms have it, and forgets it.
    private mutating func endStart() throws {
        defer {
            terms = 0
            postings.removeAll(keepingCapacity: true)
            spilled = []
        }
        guard terms > TermList.manyTerms else { return }
        let file = try output ?? SpillFile(path: path + ".longstarts", cutShort: "a spilled list of the word index is cut short")
        output = file
        postings.sort()
        if spilled.isEmpty {
            // A product's postings of the start's terms, now side by side, become one.
            var kept = 0
            for value in postings {
                if kept > 0, postings[kept - 1] >> Posting.fieldBits == value >> Posting.fieldBits {
                    postings[kept - 1] |= value
                } else {
                    postings[kept] = value
                    kept += 1
                }
            }
            postings.removeLast(postings.count - kept)
            try start.withUnsafeBufferPointer { name in
                try PostingSegment.appendRecord(to: file, isStart: true, name: name, count: kept) { emit in
                    for value in postings { try emit(value) }
                }
            }
            return
        }
        // Merged with the spilled runs, first into a run of their own, counted: a record's count comes first.
        let merged = try SpillFile(path: path + ".longstarts-merged", cutShort: "a spilled list of the word index is cut short")
        var count = 0
        try forEachMerged { value in
            try merged.append(varInt: value)
            count += 1
        }
        try merged.finishWriting()
        try start.withUnsafeBufferPointer { name in
            try PostingSegment.appendRecord(to: file, isStart: true, name: name, count: count) { emit in
                for _ in 0..<count { try emit(try merged.readVarInt()) }
            }
        }
    }

    /// Calls `body` with the gathered postings in row order, a row's fields together.
    private func forEachMerged(_ body: (UInt64) throws -> Void) throws {
        // Each source's current posting: the spilled runs', then memory's; nil once one is done.
        var memoryIndex = 0
        func next(_ source: Int) throws -> UInt64? {
            if source < spilled.count { return try spilled[source].isAtEnd() ? nil : spilled[source].readVarInt() }
            guard memoryIndex < postings.count else { return nil }
            defer { memoryIndex += 1 }
            return postings[memoryIndex]
        }
        var current = try (0...spilled.count).map(next)
        var pending: UInt64?
        while true {
            // Few runs (one per `budget` postings): a linear pick of the smallest.
            var smallest: Int?
            for index in current.indices {
                guard let value = current[index] else { continue }
                if let best = smallest, value >= current[best]! { continue }
                smallest = index
            }
            guard let index = smallest else { break }
            let value = current[index]!
            if let held = pending, held >> Posting.fieldBits == value >> Posting.fieldBits {
                pending = held | value
            } else {
                if let held = pending { try body(held) }
                pending = value
            }
            current[index] = try next(index)
        }
        if let held = pending { try body(held) }
    }

    private mutating func spill() throws {
        postings.sort()
        let run = try SpillFile(path: path + ".longstarts\(spilled.count)", cutShort: "a spilled list of the word index is cut short")
        for value in postings { try run.append(varInt: value) }
        try run.finishWriting()
        spilled.append(run)
        postings.removeAll(keepingCapacity: true)
    }
}
