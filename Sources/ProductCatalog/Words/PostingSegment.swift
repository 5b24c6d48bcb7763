/// The lists of one stretch of an index build's products, spilled to an unlinked file so that the
/// build's memory stays bounded whatever the catalog's size (see ``WordIndexBuild``); merged with
/// the other stretches' at the end (``PostingSegment/merge(_:into:)``).
///
/// A record a list, terms then starts, each in byte order of their names:
/// `kind (0 term, 1 start) · varint(name's length) · name · varint(count) · postings`, a posting
/// `varint(row << 3 | fields)` absolute for the first, the gap from the one before after.
@_spi(WordIndex) public final class PostingSegment {
    private let file: SpillFile

    /// The current record's kind and name; nil once every record is read.
    private(set) var key: (isStart: Bool, name: [UInt8])?
    /// The current record's posting count.
    private var count = 0

    /// Writes `builder`'s lists to a new unlinked file at `path`, and reads its first record back.
    public convenience init(writing builder: inout PostingsBuilder, path: String) throws {
        let file = try SpillFile(path: path, cutShort: "a spilled segment of the word index is cut short")
        try builder.forEachList { isStart, name, values in
            try Self.appendRecord(to: file, isStart: isStart, name: name, count: values.count) { emit in
                for value in values { try emit(value) }
            }
        }
        try self.init(written: file)
    }

    /// The segment of the records written to `file` (``appendRecord(to:isStart:name:count:postings:)``), in the order of a segment's.
    init(written file: SpillFile) throws {
        self.file = file
        try file.finishWriting()
        try readHeader()
    }

    /// Writes a record: the list `name`, a term's or a start's, of `count` packed postings (row
    /// order) handed to `emit` by `postings`. Inlined: every posting a build spills goes through
    /// `emit`, and the name is written from the caller's bytes, not copied into an array a list.
    @inline(__always)
    static func appendRecord(to file: SpillFile, isStart: Bool, name: UnsafeBufferPointer<UInt8>, count: Int,
                             postings: (_ emit: (UInt64) throws -> Void) throws -> Void) throws {
        try file.append(byte: isStart ? 1 : 0)
        try file.append(varInt: UInt64(name.count))
        try file.append(UnsafeRawBufferPointer(name))
        try file.append(varInt: UInt64(count))
        var previous: UInt64 = 0
        var first = true
        try postings { value in
            let row = value >> Posting.fieldBits
            try file.append(varInt: first ? value : (row - previous) << Posting.fieldBits | value & 7)
            previous = row
            first = false
        }
    }

    private func readHeader() throws {
        guard !(try file.isAtEnd()) else {
            key = nil
            return
        }
        let kind = try file.readByte()
        let length = Int(try file.readVarInt())
        let name = Array(try file.read(count: length))
        count = Int(try file.readVarInt())
        key = (kind == 1, name)
    }

    /// The current record's postings not read yet, and the row of the last one read.
    private var remaining = 0
    private var previousRow: UInt64 = 0

    /// Starts reading the current record's postings (``nextPosting()``).
    func beginPostings() {
        remaining = count
        previousRow = 0
    }

    /// The current record's next packed posting; nil after its last.
    func nextPosting() throws -> UInt64? {
        guard remaining > 0 else { return nil }
        let value = try file.readVarInt()
        let row = remaining == count ? value >> Posting.fieldBits : previousRow + (value >> Posting.fieldBits)
        remaining -= 1
        previousRow = row
        return row << Posting.fieldBits | value & 7
    }

    /// Moves to the next record, once every posting of this one was read.
    func endPostings() throws {
        precondition(remaining == 0, "a record's postings are read before the next record")
        try readHeader()
    }


    /// Merges `segments` (each a stretch of the catalog's products) into one index: every list,
    /// terms then starts, in byte order, its postings from every segment in row order, written
    /// into `writer`; returns the term list that finds them. The segments wait in a heap by their
    /// current record's name; the records of one list are read together, a posting at a time, the
    /// smallest row first, so that memory holds no list whole (a start of one letter may hold
    /// every product).
    ///
    /// With `longStartsPath`, the segments hold no starts of ``TermList/longStartLength``
    /// characters, and the lists of those of many terms are made from their terms' as these are
    /// written (``LongStartLists``, spilling to files named from it past `longStartsBudget` postings).
    public static func merge(_ given: [PostingSegment], into writer: inout PostingBlocks.Writer, longStartsPath: String? = nil,
                             longStartsBudget: Int = longStartsBudget) throws -> TermList {
        var segments = given
        var longStarts = longStartsPath.map { LongStartLists(path: $0, budget: longStartsBudget) }
        var lists = TermList.Builder()
        var termCount = 0
        var heap = SegmentHeap(segments.indices.filter { segments[$0].key != nil }, segments: segments)
        var group: [Int] = []
        var heads: [(value: UInt64, segment: Int)] = []
        while let top = heap.top {
            let key = segments[top].key!
            if key.isStart, var made = longStarts {
                // The terms are written: the long starts' lists join the segments' starts.
                longStarts = nil
                if let segment = try made.segment() {
                    segments.append(segment)
                    heap = SegmentHeap(segments.indices.filter { segments[$0].key != nil }, segments: segments)
                    continue
                }
            }
            group.removeAll(keepingCapacity: true)
            while let index = heap.top, let current = segments[index].key, current.isStart == key.isStart, current.name == key.name {
                group.append(heap.pop())
            }
            heads.removeAll(keepingCapacity: true)
            for index in group {
                segments[index].beginPostings()
                if let value = try segments[index].nextPosting() { heads.append((value, index)) }
            }
            // Each segment's postings in row order; their products are others', so rows never repeat.
            try key.name.withUnsafeBufferPointer { name in
                let gathers = try !key.isStart && longStarts?.begin(term: name) == true
                try lists.add(name: name, isStart: key.isStart, to: &writer) { emit in
                    // A segment's postings of one title class follow each other, so the smallest
                    // head runs on until it passes the next smallest: a look at every head per run.
                    while !heads.isEmpty {
                        var smallest = 0
                        for index in heads.indices.dropFirst() where heads[index].value < heads[smallest].value { smallest = index }
                        var bound = UInt64.max
                        for index in heads.indices where index != smallest { bound = min(bound, heads[index].value) }
                        let segment = segments[heads[smallest].segment]
                        var value = heads[smallest].value
                        while true {
                            try emit(value)
                            if gathers { try longStarts!.add(value) }
                            guard let next = try segment.nextPosting() else {
                                heads.swapAt(smallest, heads.count - 1)
                                heads.removeLast()
                                break
                            }
                            value = next
                            if value > bound {
                                heads[smallest].value = value
                                break
                            }
                        }
                    }
                }
            }
            for index in group {
                try segments[index].endPostings()
                if segments[index].key != nil { heap.push(index) }
            }
            if !key.isStart { termCount += 1 }
        }
        return lists.termList(termCount: termCount)
    }

    /// Postings of a long start held in memory before they are spilled (``LongStartLists``): 4 MiB.
    public static let longStartsBudget = 1 << 19

    /// Segments by their current record's key, the smallest on top.
    private struct SegmentHeap {
        private var items: [Int]
        private let segments: [PostingSegment]

        init(_ items: [Int], segments: [PostingSegment]) {
            self.items = items
            self.segments = segments
            for index in stride(from: items.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
        }

        var top: Int? { items.first }

        /// Takes the top segment out.
        mutating func pop() -> Int {
            let top = items[0]
            items.swapAt(0, items.count - 1)
            items.removeLast()
            if !items.isEmpty { siftDown(0) }
            return top
        }

        /// Puts a segment back, at its current record.
        mutating func push(_ segment: Int) {
            items.append(segment)
            var index = items.count - 1
            while index > 0 {
                let parent = (index - 1) / 2
                guard less(items[index], items[parent]) else { return }
                items.swapAt(index, parent)
                index = parent
            }
        }

        private func less(_ a: Int, _ b: Int) -> Bool {
            let x = segments[a].key!, y = segments[b].key!
            if x.isStart != y.isStart { return !x.isStart }
            return ByteOrder.precedes(x.name, y.name)
        }

        private mutating func siftDown(_ start: Int) {
            var index = start
            while true {
                let left = 2 * index + 1, right = left + 1
                var smallest = index
                if left < items.count, less(items[left], items[smallest]) { smallest = left }
                if right < items.count, less(items[right], items[smallest]) { smallest = right }
                if smallest == index { return }
                items.swapAt(index, smallest)
                index = smallest
            }
        }
    }
}
