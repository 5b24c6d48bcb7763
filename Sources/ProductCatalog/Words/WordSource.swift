/// How well one product matches one query word, from the lists it is found in: the fewest typos
/// with which the word is a whole word of the title (``whole``), starts a word of the title
/// (``title``), and starts a word of the title, brand or type (``any``); ``none`` for never.
struct WordFit: Equatable {
    static let none: UInt8 = 3

    private(set) var bits: UInt8 = 0xFF

    var whole: UInt8 { bits & 3 }
    var title: UInt8 { bits >> 2 & 3 }
    var any: UInt8 { bits >> 4 & 3 }

    /// Notes a list holding the product: the word's alternative at `distance` typos, whole when
    /// it is the word itself (not a longer term it starts), in `fields`.
    @inline(__always)
    mutating func note(fields: UInt8, distance: UInt8, isWhole: Bool) {
        var whole = self.whole, title = self.title, any = self.any
        if fields & Posting.title != 0 {
            title = Swift.min(title, distance)
            if isWhole { whole = Swift.min(whole, distance) }
        }
        any = Swift.min(any, distance)
        bits = whole | title << 2 | any << 4
    }
}

/// One alternative of a query word: a list of one segment of the index, and what it stands for.
///
/// The cursor and the in-memory list are stored apart, not as an enum's payloads, and the current
/// posting is kept beside them: a heap step reads ``current`` and moves one list, and with the
/// cursor inside an enum each of those copied it out and back (retaining its store and its
/// buffer), which was most of a slow keystroke's time.
struct WordAlternative {
    enum Input {
        case blocks(PostingCursor)
        case memory([Posting], index: Int)
    }

    /// The list read from the index's blocks; nil when the postings are in ``memory``.
    private var cursor: PostingCursor?
    /// Whether ``cursor`` is the list (asked often: a flag, where comparing the optional copies it).
    private let fromBlocks: Bool
    private let memory: [Posting]
    private var memoryIndex: Int
    /// The posting the alternative is on; nil once its list is read.
    private(set) var current: Posting?
    /// Typos between the word and this alternative (0 for the word's own terms and starts).
    let distance: UInt8
    /// True when the alternative is a whole word the query word stands for (not the start of longer ones).
    let isWhole: Bool
    /// Places that later segments took, whose postings in this segment's list are stale and
    /// skipped (the later segments hold the products as they are now).
    let stale: DeadPlaces?

    init(_ input: Input, distance: UInt8, isWhole: Bool, stale: DeadPlaces?) throws {
        switch input {
        case .blocks(let cursor):
            self.cursor = cursor
            fromBlocks = true
            memory = []
            memoryIndex = 0
            current = cursor.current
        case .memory(let postings, let index):
            cursor = nil
            fromBlocks = false
            memory = postings
            memoryIndex = index
            current = index < postings.count ? postings[index] : nil
        }
        self.distance = distance
        self.isWhole = isWhole
        self.stale = stale
        try skipStale()
    }

    /// Moves past the postings of changed products.
    @inline(__always)
    private mutating func skipStale() throws {
        guard let stale else { return }
        while let posting = current, stale.contains(posting.row & WordPlacement.placeMask) { try step() }
    }

    mutating func next() throws {
        try step()
        try skipStale()
    }

    @inline(__always)
    private mutating func step() throws {
        if fromBlocks {
            current = try cursor!.next()
        } else {
            memoryIndex += 1
            current = memoryIndex < memory.count ? memory[memoryIndex] : nil
        }
    }

    mutating func advance(to row: Int64) throws {
        guard let now = current, now.row < row else { return }
        if fromBlocks {
            current = try cursor!.advance(to: row)
        } else {
            var index = memoryIndex
            var step = 1
            while index + step < memory.count, memory[index + step].row < row {
                index += step
                step *= 2
            }
            var high = Swift.min(index + step, memory.count)
            index += 1
            while index < high {
                let middle = (index + high) / 2
                if memory[middle].row < row { index = middle + 1 } else { high = middle }
            }
            memoryIndex = index
            current = index < memory.count ? memory[index] : nil
        }
        try skipStale()
    }
}

/// The products one query word matches, in row order, each with how well (``WordFit``): the
/// union of its alternatives' lists, kept in a heap by their current row, and only the rows that
/// meet `requirement`.
struct WordSource {
    private var alternatives: [WordAlternative]
    /// Each alternative's current row (`Int64.max` once read to its end): the heap compares
    /// these, never the alternatives themselves.
    private var rows: [Int64]
    /// Indices into ``alternatives`` not read to their end, a min-heap by current row.
    private var heap: [Int]
    /// Rows whose match does not meet it are skipped.
    private let requirement: (WordFit) -> Bool
    private(set) var row: Int64?
    private(set) var match = WordFit()

    /// Alternatives moved one at a time through the heap before a skip moves all that are behind at once.
    private static let movesBeforeBulk = 8
    /// Scratch for a skip that moves many: the heap's positions behind its target, and the walk that finds them.
    private var cap: [Int] = []
    private var walk: [Int] = []

    init(_ alternatives: [WordAlternative], requirement: @escaping (WordFit) -> Bool) throws {
        self.alternatives = alternatives
        self.requirement = requirement
        rows = alternatives.map { $0.current?.row ?? .max }
        heap = Array(alternatives.indices)
        rebuildHeap()
        try settle()
    }

    /// Moves past the current row.
    mutating func next() throws {
        guard let now = row else { return }
        try skip(below: now + 1)
        try settle()
    }

    /// Moves to the first row at or past `target` that meets the requirement.
    mutating func advance(to target: Int64) throws {
        guard let now = row, now < target else { return }
        try skip(below: target)
        try settle()
    }

    /// Moves every alternative to `target` or past it: through the heap while few are behind it,
    /// then every one behind it at once.
    ///
    /// The entries behind `target` are a cap of the heap around its root (no entry is below its
    /// parent), found by walking down from the root while they are behind. They are moved, then
    /// sifted down the deepest first, which leaves a heap without touching the entries below the
    /// cap: for every candidate of a rarer word this costs the lists it moves, not all of them.
    private mutating func skip(below target: Int64) throws {
        var moves = 0
        while let top = heap.first, rows[top] < target {
            guard moves < Self.movesBeforeBulk else {
                cap.removeAll(keepingCapacity: true)
                walk.removeAll(keepingCapacity: true)
                walk.append(0)
                while let position = walk.popLast() {
                    guard position < heap.count, rows[heap[position]] < target else { continue }
                    cap.append(position)
                    walk.append(2 * position + 1)
                    walk.append(2 * position + 2)
                }
                for position in cap { try move(heap[position], to: target) }
                cap.sort(by: >)
                rows.withUnsafeBufferPointer { rows in
                    heap.withUnsafeMutableBufferPointer { heap in
                        for position in cap { Self.siftDown(position, heap, rows) }
                    }
                }
                // Lists read to their end sink to the leaves; when the least is at its end, all are.
                if rows[heap[0]] == .max { heap.removeAll() }
                return
            }
            try move(top, to: target)
            fixTop()
            moves += 1
        }
    }

    private mutating func move(_ index: Int, to target: Int64) throws {
        try alternatives[index].advance(to: target)
        rows[index] = alternatives[index].current?.row ?? .max
    }

    /// Takes the smallest row whose alternatives meet the requirement, noting its match.
    private mutating func settle() throws {
        while let top = heap.first {
            let first = rows[top]
            // A skip leaves ended lists in the heap, below the others: when the least has ended, all have.
            if first == .max {
                heap.removeAll()
                break
            }
            var match = WordFit()
            while let index = heap.first, rows[index] == first, let posting = alternatives[index].current {
                match.note(fields: posting.fields, distance: alternatives[index].distance, isWhole: alternatives[index].isWhole)
                try alternatives[index].next()
                rows[index] = alternatives[index].current?.row ?? .max
                fixTop()
            }
            if requirement(match) {
                // The alternatives are past it already: the next move starts from the row after.
                row = first
                self.match = match
                return
            }
        }
        row = nil
    }

    /// The heap again, of its alternatives not at their end: in place, with no allocation.
    private mutating func rebuildHeap() {
        heap.removeAll { rows[$0] == .max }
        let count = heap.count
        guard count > 1 else { return }
        rows.withUnsafeBufferPointer { rows in
            heap.withUnsafeMutableBufferPointer { heap in
                for index in stride(from: count / 2 - 1, through: 0, by: -1) { Self.siftDown(index, heap, rows) }
            }
        }
    }

    private mutating func fixTop() {
        if rows[heap[0]] == .max {
            heap.swapAt(0, heap.count - 1)
            heap.removeLast()
        }
        guard heap.count > 1 else { return }
        rows.withUnsafeBufferPointer { rows in
            heap.withUnsafeMutableBufferPointer { Self.siftDown(0, $0, rows) }
        }
    }

    /// Moves the entry at `start` down to its place: the entries on its way move up into the hole
    /// it leaves, and it is written once at the end. Through buffers: this runs once per list moved
    /// (for every candidate a rarer word proposes), where the array's checks cost more than the work.
    @inline(__always)
    private static func siftDown(_ start: Int, _ heap: UnsafeMutableBufferPointer<Int>, _ rows: UnsafeBufferPointer<Int64>) {
        let count = heap.count
        let moving = heap[start]
        let key = rows[moving]
        var hole = start
        while true {
            let left = 2 * hole + 1
            guard left < count else { break }
            var child = left
            if left + 1 < count, rows[heap[left + 1]] < rows[heap[left]] { child = left + 1 }
            guard rows[heap[child]] < key else { break }
            heap[hole] = heap[child]
            hole = child
        }
        heap[hole] = moving
    }
}
