/// The word index's lists packed into page-sized blocks, one SQLite row each: the cost of writing
/// and reading them follows the rows, not the postings.
///
/// Lists are numbered (terms in byte order, then starts of terms, see ``TermList``) and written in
/// that order, each in row order, into one stream of blocks. A block is
///
/// ```
/// varint(first list) then runs: varint(list − previous run's list) posting… 0x00
/// posting: varint(row << 3 | fields), the row absolute for a run's first, else the gap from the one before
/// ```
///
/// A run holds one list's postings within the block; a list longer than the space left goes on in
/// the next block. Every row is at least 1 and every posting has a field, so a posting's varint
/// is never 0, which ends a run. The directory (``Entry``) keeps each block's first list and row,
/// so that a reader finds where a list starts, and skips within a long one, by one seek.
@_spi(WordIndex) public enum PostingBlocks {
    /// Where a block starts: its first posting's list and row.
    public struct Entry: Equatable, Sendable {
        public var list: Int
        public var row: Int64
        public var block: Int

        public init(list: Int, row: Int64, block: Int) {
            self.list = list
            self.row = row
            self.block = block
        }
    }

    /// Packs lists into blocks of at most `capacity` bytes, calling `emit` with each full block
    /// (its number, from 1, its bytes and its directory entry). Lists come in increasing order,
    /// each list's postings in increasing row order.
    public struct Writer {
        public let capacity: Int
        private var bytes: [UInt8] = []
        private var block = 0
        /// The list and row of the block's first posting, once it has one.
        private var first: (list: Int, row: Int64)?
        /// The list of the open run, and its last row.
        private var run: (list: Int, row: Int64)?
        /// The list of the block's last run, for the next run's delta.
        private var lastListInBlock = 0
        /// Where the last run began: its block and the offset of its list's delta there. A list's
        /// first run is where a reader starts (see ``TermList``).
        public private(set) var runStart = (block: 0, offset: 0)
        /// Blocks written so far.
        public var blocksWritten: Int { block }
        private let emit: (_ block: Int, _ data: [UInt8], _ entry: Entry) throws -> Void

        /// A writer of blocks of at most `capacity` bytes (at least 32).
        /// `blocksBefore` blocks were written already (a merge goes on where its last step stopped).
        public init(capacity: Int, blocksBefore: Int = 0, emit: @escaping (_ block: Int, _ data: [UInt8], _ entry: Entry) throws -> Void) {
            precondition(capacity >= 32, "a block holds a few postings at least")
            self.capacity = capacity
            self.emit = emit
            block = blocksBefore
            bytes.reserveCapacity(capacity)
        }

        /// Adds `posting` to list `list`.
        public mutating func add(_ posting: Posting, to list: Int) throws {
            precondition(posting.row >= 1 && posting.fields != 0, "a posting has a row from 1 and a field")
            var continuing = false
            if let run {
                precondition(list > run.list || (list == run.list && posting.row > run.row), "postings come in list, then row order")
                continuing = run.list == list
            }
            let gap = continuing ? posting.row - run!.row : posting.row
            let value = UInt64(gap) << Posting.fieldBits | UInt64(posting.fields)
            // The posting, after a new run's header (the open run's end and the list's delta), and the end after it.
            let header = continuing ? 0 : 1 + VarInt.size(UInt64(list - lastListInBlock))
            if first != nil, bytes.count + header + VarInt.size(value) + 1 > capacity {
                try closeBlock()
                return try add(posting, to: list)
            }
            if first == nil {
                VarInt.append(UInt64(list), to: &bytes)
                first = (list, posting.row)
                lastListInBlock = list
                runStart = (block + 1, bytes.count)
                VarInt.append(0, to: &bytes)
                VarInt.append(value, to: &bytes)
            } else if continuing {
                VarInt.append(value, to: &bytes)
            } else {
                bytes.append(0)
                runStart = (block + 1, bytes.count)
                VarInt.append(UInt64(list - lastListInBlock), to: &bytes)
                lastListInBlock = list
                VarInt.append(value, to: &bytes)
            }
            run = (list, posting.row)
        }

        /// Writes the last block.
        public mutating func finish() throws {
            if first != nil { try closeBlock() }
        }

        private mutating func closeBlock() throws {
            guard let first else { return }
            bytes.append(0)
            block += 1
            try emit(block, bytes, Entry(list: first.list, row: first.row, block: block))
            bytes.removeAll(keepingCapacity: true)
            self.first = nil
            run = nil
        }
    }

    /// Calls `body` with each posting of `block`'s bytes and its list, in order; false from `body` stops.
    /// Throws ``CorruptBlock`` for bytes that are not a block.
    @inline(__always)
    public static func forEach(in data: UnsafeRawBufferPointer, _ body: (_ list: Int, _ posting: Posting) throws -> Bool) throws {
        var offset = 0
        guard var list = VarInt.read(data, at: &offset).map(Int.init) else { throw CorruptBlock() }
        while offset < data.count {
            guard let delta = VarInt.read(data, at: &offset) else { throw CorruptBlock() }
            list += Int(delta)
            var row: Int64 = 0
            var first = true
            while true {
                guard let value = VarInt.read(data, at: &offset) else { throw CorruptBlock() }
                if value == 0 { break }
                let gap = Int64(value >> Posting.fieldBits)
                row = first ? gap : row + gap
                first = false
                guard try body(list, Posting(row: row, fields: UInt8(value & 7))) else { return }
            }
        }
    }

    /// The list of a block's first run.
    @inline(__always)
    public static func firstList(of data: UnsafeRawBufferPointer) throws -> Int {
        var position = 0
        guard let first = VarInt.read(data, at: &position) else { throw CorruptBlock() }
        return Int(first)
    }

    /// Appends to `postings` the run whose list's delta is at `offset` of a block's bytes (nil:
    /// the block's first run), and returns whether that run ends the block, so that its list may
    /// go on in the next one.
    @inline(__always)
    public static func run(in data: UnsafeRawBufferPointer, at offset: Int?, into postings: inout [Posting]) throws -> Bool {
        var position = 0
        if let offset {
            position = offset
        } else {
            guard VarInt.read(data, at: &position) != nil else { throw CorruptBlock() }
        }
        guard VarInt.read(data, at: &position) != nil else { throw CorruptBlock() }
        // Written straight into a buffer of the most postings the bytes can hold (each takes at
        // least one): appending one at a time was a search's hottest loop, checking the array's
        // storage at every posting.
        let room = data.count - position
        var corrupt = false
        let decoded = [Posting](unsafeUninitializedCapacity: room) { buffer, count in
            var row: Int64 = 0
            var isFirst = true
            var written = 0
            while true {
                guard let value = VarInt.read(data, at: &position), written < room else {
                    corrupt = true
                    break
                }
                if value == 0 { break }
                let gap = Int64(value >> Posting.fieldBits)
                row = isFirst ? gap : row + gap
                isFirst = false
                (buffer.baseAddress! + written).initialize(to: Posting(row: row, fields: UInt8(value & 7)))
                written += 1
            }
            count = written
        }
        if corrupt { throw CorruptBlock() }
        if postings.isEmpty { postings = decoded } else { postings += decoded }
        return position == data.count
    }

    /// Bytes that do not decode as a block: a damaged or foreign catalog file.
    public struct CorruptBlock: Error {}
}
