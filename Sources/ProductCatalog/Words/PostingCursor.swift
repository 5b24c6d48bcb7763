/// Where a word index's blocks are read from: the catalog file (``SQLitePostingStore``), or memory in tests.
@_spi(WordIndex) public protocol PostingStore {
    /// Calls `body` with the bytes of block `number` (valid only during the call); false when there is no such block.
    func withBlock(_ number: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool
    /// The last block that starts within list `list` at a row up to `row`: the directory's last entry
    /// of that list at or before the row; nil when no block starts within the list that early.
    func block(of list: Int, atOrBefore row: Int64) throws -> Int?
}

/// Reads one list of a word index in row order, run by run (its postings in one block), and skips
/// ahead by the directory. Only the list's own runs are decoded.
@_spi(WordIndex) public struct PostingCursor {
    public let list: Int
    private let store: any PostingStore
    /// The block decoded now, and this list's postings in it.
    private var block: Int
    private var postings: [Posting] = []
    private var index = 0
    /// True once no posting of the list can follow the block's: its run ended before the block did,
    /// or the next block began with another list, or there was none.
    private var ended = false

    /// A cursor on `list`, whose first run starts at `offset` of block `firstBlock` (see ``TermList``).
    public init(list: Int, firstBlock: Int, offset: Int, store: any PostingStore) throws {
        self.list = list
        self.store = store
        block = firstBlock
        try load(firstBlock, at: offset)
        if postings.isEmpty { ended = true }
    }

    /// The posting the cursor is on; nil once the list is read.
    public var current: Posting? {
        index < postings.count ? postings[index] : nil
    }

    /// Moves to the next posting and returns it; nil at the end of the list.
    @discardableResult
    public mutating func next() throws -> Posting? {
        guard index < postings.count else { return nil }
        index += 1
        if index == postings.count, !ended { try loadNext() }
        return current
    }

    /// Moves to the first posting whose row is at least `row` (staying when the current one is)
    /// and returns it; nil when the list has none.
    @discardableResult
    public mutating func advance(to row: Int64) throws -> Posting? {
        guard let now = current else { return nil }
        if now.row >= row { return now }
        if postings[postings.count - 1].row >= row {
            index = firstIndex(from: index + 1, atLeast: row)
            return current
        }
        if ended {
            index = postings.count
            return nil
        }
        // Past this block: the directory names the block that holds `row`, when one starts within the list before it.
        if let target = try store.block(of: list, atOrBefore: row), target > block + 1 { block = target - 1 }
        try loadNext()
        guard !postings.isEmpty else { return nil }
        index = firstIndex(from: 0, atLeast: row)
        if index == postings.count {
            index = postings.count - 1
            return try advance(to: row)
        }
        return current
    }

    /// The first index from `start` of a posting at or past `row`, by binary search.
    private func firstIndex(from start: Int, atLeast row: Int64) -> Int {
        var low = start
        var high = postings.count
        while low < high {
            let middle = (low + high) / 2
            if postings[middle].row < row { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Decodes the next block's first run, when it goes on with this list.
    private mutating func loadNext() throws {
        block += 1
        try load(block, at: nil)
    }

    /// Decodes this list's run of block `number`: the one at `offset`, or the block's first when
    /// that is this list's (else the list is over).
    private mutating func load(_ number: Int, at offset: Int?) throws {
        postings.removeAll(keepingCapacity: true)
        index = 0
        let wanted = list
        var decoded: [Posting] = []
        swap(&decoded, &postings)
        var endsBlock = false
        let found = try store.withBlock(number) { data in
            guard try offset != nil || PostingBlocks.firstList(of: data) == wanted else { return }
            endsBlock = try PostingBlocks.run(in: data, at: offset, into: &decoded)
        }
        swap(&decoded, &postings)
        ended = !found || !endsBlock || postings.isEmpty
    }
}

/// Blocks kept in memory: for tests, and for lists built before they are written.
@_spi(WordIndex) public struct MemoryPostingStore: PostingStore {
    public private(set) var blocks: [[UInt8]] = []
    public private(set) var entries: [PostingBlocks.Entry] = []

    public init() {}

    /// Keeps a block the writer emits (numbered from 1, in order).
    public mutating func keep(_ block: Int, _ data: [UInt8], _ entry: PostingBlocks.Entry) {
        precondition(block == blocks.count + 1, "blocks come in order")
        blocks.append(data)
        entries.append(entry)
    }

    public func withBlock(_ number: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        guard number >= 1, number <= blocks.count else { return false }
        try blocks[number - 1].withUnsafeBytes(body)
        return true
    }

    public func block(of list: Int, atOrBefore row: Int64) throws -> Int? {
        // The last entry not after (list, row), when it is within the list.
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            let entry = entries[middle]
            if entry.list < list || (entry.list == list && entry.row <= row) { low = middle + 1 } else { high = middle }
        }
        guard low > 0, entries[low - 1].list == list else { return nil }
        return entries[low - 1].block
    }
}
