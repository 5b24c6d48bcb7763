/// The word index's terms and starts of terms, each the name of a list (see ``PostingBlocks``),
/// in memory: what a search looks a query's words up in, and what the typo dictionary walks.
///
/// Lists are numbered in this order: every term (a folded word), byte by byte; then every start
/// of one to ``maxPrefixLength`` characters that some term has, and every start of
/// ``longStartLength`` characters that more than ``manyTerms`` terms have, byte by byte. Each has the number
/// of products holding it and where its postings start: a block, and the offset of its first run
/// there. Stored as one stream of entries, cut into blocks (`word_list_terms`, one row a block):
///
/// ```
/// varint(terms) then per list: varint(bytes shared with the entry before) varint(rest's length) rest
///                              varint(products) varint(first block − the entry before's) varint(offset)
/// ```
/// The starts follow the terms in the stream; the first start shares nothing with the last term.
@_spi(WordIndex) public final class TermList: @unchecked Sendable {
    /// The longest starts of terms that have lists of their own, in characters.
    public static let maxPrefixLength = 3
    /// The length of the longer starts that have lists of their own where more than ``manyTerms``
    /// terms start so: then such a start, typed alone (`schw`, `niep`: hundreds to thousands of
    /// terms in a real language), is one list to read, not a list a term.
    public static let longStartLength = 4
    /// Terms a start of ``longStartLength`` characters stands for before it has a list of its own.
    /// At 64, a fifth of the postings of the realistic million went to those lists as well, and
    /// its import took 7 to 9% longer; at 256, a third as many (`schw`, `niep` and the like have
    /// thousands), and a start of fewer is a few hundred cursors at most.
    public static let manyTerms = 256

    public static let table = "word_list_terms"
    public static let createStatement = "CREATE TABLE IF NOT EXISTS \(table) (block INTEGER PRIMARY KEY, data BLOB NOT NULL)"

    /// Every name's bytes, one after another: the terms', then the starts'.
    private let bytes: [UInt8]
    /// Where each name starts in ``bytes``, and one past the last.
    private let nameOffsets: [Int32]
    /// Products holding each list's name.
    private let products: [Int32]
    /// The block each list starts in, and the offset of its first run there.
    private let firstBlocks: [Int32]
    private let runOffsets: [UInt16]
    /// How many of the lists are terms; the rest are starts.
    public let termCount: Int

    /// The lists, their names in `names` (terms sorted byte by byte, then starts sorted so too).
    public convenience init(names: [[UInt8]], products: [Int], firstBlocks: [Int], offsets: [Int], termCount: Int) {
        var bytes: [UInt8] = []
        var nameOffsets: [Int32] = [0]
        for name in names {
            bytes += name
            nameOffsets.append(Int32(bytes.count))
        }
        self.init(bytes: bytes, nameOffsets: nameOffsets, products: products.map { Int32(clamping: $0) },
                  firstBlocks: firstBlocks.map { Int32($0) }, runOffsets: offsets.map { UInt16($0) }, termCount: termCount)
    }

    /// The lists as they are kept: names one after another (a few bytes each, where an array a
    /// name would cost some 50 more: hundreds of thousands of terms are tens of megabytes).
    init(bytes: [UInt8], nameOffsets: [Int32], products: [Int32], firstBlocks: [Int32], runOffsets: [UInt16], termCount: Int) {
        self.bytes = bytes
        self.nameOffsets = nameOffsets
        self.products = products
        self.firstBlocks = firstBlocks
        self.runOffsets = runOffsets
        self.termCount = termCount
    }

    /// How many lists there are.
    public var count: Int { nameOffsets.count - 1 }

    /// The name of list `list`.
    public func withName<Result>(_ list: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[Int(nameOffsets[list])..<Int(nameOffsets[list + 1])])) }
    }

    public func name(_ list: Int) -> String {
        withName(list) { String(decoding: $0, as: UTF8.self) }
    }

    /// Products holding list `list`'s name.
    public func products(_ list: Int) -> Int { Int(products[list]) }

    /// The block list `list` starts in.
    public func firstBlock(_ list: Int) -> Int { Int(firstBlocks[list]) }

    /// The offset of list `list`'s first run in ``firstBlock(_:)``.
    public func firstOffset(_ list: Int) -> Int { Int(runOffsets[list]) }

    /// A cursor on list `list` over `store`.
    public func cursor(_ list: Int, store: any PostingStore) throws -> PostingCursor {
        try PostingCursor(list: list, firstBlock: firstBlock(list), offset: firstOffset(list), store: store)
    }

    /// The list of the term `term`; nil when no product has it.
    public func list(ofTerm term: some Collection<UInt8>) -> Int? {
        let index = firstIndex(notBefore: term, in: 0..<termCount)
        guard index < termCount, withName(index, { $0.elementsEqual(term) }) else { return nil }
        return index
    }

    /// The list of the start of terms `start` (one to ``maxPrefixLength`` characters, or
    /// ``longStartLength`` of many terms); nil when it has none.
    public func list(ofStart start: some Collection<UInt8>) -> Int? {
        let index = firstIndex(notBefore: start, in: termCount..<count)
        guard index < count, withName(index, { $0.elementsEqual(start) }) else { return nil }
        return index
    }

    /// The terms alone, as the typo dictionary walks them: their bytes one after another, and
    /// where each starts (and one past the last).
    var termsForDictionary: (bytes: [UInt8], starts: [Int32]) {
        let end = Int(nameOffsets[termCount])
        return (Array(bytes[0..<end]), Array(nameOffsets[0...termCount]))
    }

    /// The terms that start with `start`: one range of lists.
    public func terms(startingWith start: some Collection<UInt8>) -> Range<Int> {
        let lower = firstIndex(notBefore: start, in: 0..<termCount)
        var upper = lower
        // The end: the first term from `lower` that does not start with `start`, found by doubling then halving.
        var step = 1
        while upper + step <= termCount, withName(upper + step - 1, { $0.starts(with: start) }) {
            upper += step
            step *= 2
        }
        while step > 1 {
            step /= 2
            if upper + step <= termCount, withName(upper + step - 1, { $0.starts(with: start) }) { upper += step }
        }
        return lower..<upper
    }

    /// The first term (or, with `isStart`, start) whose name does not come before `key`.
    func firstList(notBefore key: some Collection<UInt8>, isStart: Bool) -> Int {
        firstIndex(notBefore: key, in: isStart ? termCount..<count : 0..<termCount)
    }

    /// The first list of `range` whose name does not come before `key`, byte by byte.
    private func firstIndex(notBefore key: some Collection<UInt8>, in range: Range<Int>) -> Int {
        var low = range.lowerBound
        var high = range.upperBound
        while low < high {
            let middle = (low + high) / 2
            if withName(middle, { $0.lexicographicallyPrecedes(key) }) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The starts of one to `length` characters of `term`, as bytes.
    public static func starts(of term: some Collection<UInt8>, upTo length: Int = maxPrefixLength) -> [ArraySlice<UInt8>] {
        let bytes = Array(term)
        var starts: [ArraySlice<UInt8>] = []
        var end = 0
        while end < bytes.count, starts.count < length {
            end += 1
            // A UTF-8 character goes on while its bytes are continuation bytes.
            while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
            starts.append(bytes[0..<end])
        }
        return starts
    }

    /// How many characters the UTF-8 `bytes` hold: the bytes that do not continue a character.
    static func characters(in bytes: some Collection<UInt8>) -> Int {
        bytes.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    }

    /// The length in bytes of the first ``longStartLength`` characters of `name`; nil when it is shorter.
    static func longStart(of name: UnsafeBufferPointer<UInt8>) -> Int? {
        var end = 0
        for _ in 0..<longStartLength {
            guard end < name.count else { return nil }
            end += 1
            while end < name.count, name[end] & 0xC0 == 0x80 { end += 1 }
        }
        return end
    }

    /// Collects a term list as its lists are written, in list order.
    public struct Builder {
        private var bytes: [UInt8] = []
        private var nameOffsets: [Int32] = [0]
        private var products: [Int32] = []
        private var firstBlocks: [Int32] = []
        private var offsets: [UInt16] = []
        /// The long starts of more than ``TermList/manyTerms`` terms, known once the terms are added
        /// (they come first, in byte order): the long start being counted, and its terms so far.
        private var manyTermStarts = Set<[UInt8]>()
        private var longStart: [UInt8] = []
        private var longStartTerms = 0

        public init() {}

        /// Writes the list named `name` (a term, or a start after every term) with the packed
        /// postings `values` (row order) as the next list.
        public mutating func add(name: UnsafeBufferPointer<UInt8>, isStart: Bool, values: some Collection<UInt64>, to writer: inout PostingBlocks.Writer) throws {
            try add(name: name, isStart: isStart, to: &writer) { emit in
                for value in values { try emit(value) }
            }
        }

        /// Writes the list named `name` (a term, or a start after every term) as the next list,
        /// its packed postings (row order) handed to `emit` one by one by `postings`, so that no
        /// list need be held whole. A start of ``TermList/longStartLength`` characters that no more
        /// than ``TermList/manyTerms`` terms have is left out: its postings are read and dropped.
        public mutating func add(name: UnsafeBufferPointer<UInt8>, isStart: Bool, to writer: inout PostingBlocks.Writer,
                                 postings: (_ emit: (UInt64) throws -> Void) throws -> Void) throws {
            let long = TermList.longStart(of: name)
            if isStart {
                countLongStart(nil)
                if long == name.count, !manyTermStarts.contains(Array(name)) { return try postings { _ in } }
            } else if let long {
                countLongStart(name[0..<long])
            }
            let list = products.count
            var count = 0
            try withoutActuallyEscaping({ (value: UInt64) throws in
                try writer.add(Posting(row: Int64(value >> Posting.fieldBits), fields: UInt8(value & 7)), to: list)
                if count == 0 {
                    firstBlocks.append(Int32(writer.runStart.block))
                    offsets.append(UInt16(writer.runStart.offset))
                }
                count += 1
            }) { emit in try postings(emit) }
            precondition(count > 0, "a list has a posting")
            bytes.append(contentsOf: name)
            nameOffsets.append(Int32(bytes.count))
            products.append(Int32(clamping: count))
        }

        /// Counts a term under its long start `start` (nil once the terms end).
        private mutating func countLongStart(_ start: Slice<UnsafeBufferPointer<UInt8>>?) {
            if let start, start.elementsEqual(longStart) {
                longStartTerms += 1
                return
            }
            if longStartTerms > TermList.manyTerms { manyTermStarts.insert(longStart) }
            longStart = start.map(Array.init) ?? []
            longStartTerms = start == nil ? 0 : 1
        }

        /// The list of the names written, of which the first `termCount` are terms.
        public func termList(termCount: Int) -> TermList {
            TermList(bytes: bytes, nameOffsets: nameOffsets, products: products, firstBlocks: firstBlocks, runOffsets: offsets, termCount: termCount)
        }
    }

    // MARK: - Stored

    /// The list's entries as the stream of blocks of at most `capacity` bytes described above.
    public func encoded(blockCapacity capacity: Int) -> [[UInt8]] {
        var stream: [UInt8] = []
        VarInt.append(UInt64(termCount), to: &stream)
        var previousBlock = 0
        for list in 0..<count {
            let shared = list == 0 || list == termCount ? 0 : withName(list - 1) { before in
                withName(list) { name in zip(before, name).prefix { $0 == $1 }.count }
            }
            withName(list) { name in
                VarInt.append(UInt64(shared), to: &stream)
                VarInt.append(UInt64(name.count - shared), to: &stream)
                stream += name[shared...]
            }
            VarInt.append(UInt64(products[list]), to: &stream)
            VarInt.append(UInt64(Int(firstBlocks[list]) - previousBlock), to: &stream)
            VarInt.append(UInt64(runOffsets[list]), to: &stream)
            previousBlock = Int(firstBlocks[list])
        }
        return stride(from: 0, to: max(stream.count, 1), by: capacity).map { Array(stream[$0..<min($0 + capacity, stream.count)]) }
    }

    /// Reads the list back from its stream's bytes.
    public convenience init(stream: [UInt8]) throws {
        var bytes: [UInt8] = []
        var nameOffsets: [Int32] = [0]
        var products: [Int32] = []
        var firstBlocks: [Int32] = []
        var offsets: [UInt16] = []
        let termCount: Int = try stream.withUnsafeBytes { data in
            var offset = 0
            guard let terms = VarInt.read(data, at: &offset) else { throw PostingBlocks.CorruptBlock() }
            // Where the name before this one is in `bytes` (none after the last term).
            var previous = 0..<0
            var block = 0
            while offset < data.count {
                guard let shared = VarInt.read(data, at: &offset).map(Int.init), let length = VarInt.read(data, at: &offset).map(Int.init),
                      shared <= previous.count, offset + length <= data.count else { throw PostingBlocks.CorruptBlock() }
                let start = bytes.count
                for index in previous.lowerBound..<previous.lowerBound + shared { bytes.append(bytes[index]) }
                bytes.append(contentsOf: data[offset..<offset + length])
                offset += length
                guard let count = VarInt.read(data, at: &offset), let gap = VarInt.read(data, at: &offset),
                      let runStart = VarInt.read(data, at: &offset), runStart <= UInt64(UInt16.max) else { throw PostingBlocks.CorruptBlock() }
                block += Int(gap)
                nameOffsets.append(Int32(bytes.count))
                offsets.append(UInt16(runStart))
                products.append(Int32(clamping: count))
                firstBlocks.append(Int32(block))
                previous = products.count == Int(terms) ? 0..<0 : start..<bytes.count
            }
            return Int(terms)
        }
        self.init(bytes: bytes, nameOffsets: nameOffsets, products: products, firstBlocks: firstBlocks, runOffsets: offsets, termCount: termCount)
    }

    /// Writes the list into its table on `connection` as `segment`'s, replacing what that held.
    public func write(to connection: Connection, blockCapacity: Int, segment: Int64 = 0) throws {
        try connection.execute(Self.createStatement)
        let delete = try connection.prepare("DELETE FROM \(Self.table) WHERE block BETWEEN ?1 AND ?2")
        try delete.bind(1, SegmentRows.blocks(of: segment).lowerBound)
        try delete.bind(2, SegmentRows.blocks(of: segment).upperBound)
        try delete.step()
        try SegmentRows.insert(encoded(blockCapacity: blockCapacity), of: segment, into: Self.table, connection)
    }

    /// Reads `segment`'s list from its table on `connection`.
    public convenience init(connection: Connection, segment: Int64 = 0) throws {
        var stream: [UInt8] = []
        let statement = try connection.prepare("SELECT data FROM \(Self.table) WHERE block BETWEEN ?1 AND ?2 ORDER BY block")
        try statement.bind(1, SegmentRows.blocks(of: segment).lowerBound)
        try statement.bind(2, SegmentRows.blocks(of: segment).upperBound)
        while try statement.step() { statement.withBytes(at: 0) { stream += $0 } }
        try self.init(stream: stream)
    }
}
