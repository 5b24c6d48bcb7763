/// The catalog's sort orders by price and by title, precomputed: what a sorted search walks
/// instead of an index the import would have to build on its writing thread.
///
/// ```sql
/// CREATE TABLE sort_lists (block INTEGER PRIMARY KEY, data BLOB NOT NULL);
/// CREATE TABLE sort_changes (productId TEXT PRIMARY KEY COLLATE NOCASE) WITHOUT ROWID;
/// ```
///
/// **Lists.** Four lists (``List``): the products with a price in (price, productId) order, those
/// without one in productId order, and the same two for the title. A list is a sequence of
/// *keys*, byte strings whose byte order is the sort's (``priceKey(_:productId:)``,
/// ``titleKey(_:productId:)``), each ending with the product's productId folded as `NOCASE`
/// folds it, by which the product is read, and its place in the word index (``appendPlace(_:to:)``).
/// The dearest first is the price list read backwards.
///
/// **Blocks.** A list is packed into rows of about a page, in order: block `n` of list `l` has
/// the rowid `l << 32 | n`; its `data` is `varint(count)` then each key as
/// `varint(bytes shared with the key before) · varint(rest's length) · rest`, the first sharing
/// nothing, so a reader finds a position by a binary search over the blocks' first keys.
///
/// **Built** from the products in productId order (``SortListsWriter``): by a replacing import on a
/// thread of its own beside the word index's, into a file of its own copied in before the swap
/// (``WordIndexBuild``); by a rebuild of the word index, with it (``WordListsWriter``).
///
/// **Changes.** Each write after the build adds the keys of the products it changed to its segment
/// of the index (``SegmentManifest``): every segment keeps the four lists of its own products, and a
/// sorted search merges the segments' lists, passing over the keys of products a later segment
/// holds again or deletes (``IndexView``).
enum SortLists {
    public static let table = "sort_lists"

    /// The lists kept, and the number in their blocks' rowids.
    public enum List: Int64, CaseIterable, Sendable {
        /// Products with a price (their sale price, else their list price), cheapest first, ties by productId.
        case price = 1
        /// Products without a price, by productId.
        case priceMissing = 2
        /// Products with a title that is not empty, by title ignoring ASCII case, ties by productId.
        case title = 3
        /// Products without a title, by productId.
        case titleMissing = 4

        /// The first rowid of the list's blocks.
        var firstBlock: Int64 { rawValue << 32 }
    }

    static let createStatement = "CREATE TABLE IF NOT EXISTS \(table) (block INTEGER PRIMARY KEY, data BLOB NOT NULL)"

    /// The fields whose changes move a product in a list.
    static let sortedFields: [ProductField] = [.title, .listPrice, .salesPrice]

    /// True when the catalog on `connection` keeps the lists.
    public static func exists(_ connection: Connection) throws -> Bool {
        try connection.hasTable(table)
    }

    // MARK: - Keys

    /// The key of a product with a price: the price as 8 big-endian bytes, its sign bit flipped
    /// (so negative prices come first), then the folded productId.
    public static func priceKey(_ price: Int64, productId: UnsafeRawBufferPointer) -> [UInt8] {
        var key: [UInt8] = []
        appendPriceKey(price, productId: productId, to: &key)
        return key
    }

    /// The key of a product with a title: the title folded, a zero byte (text holds none), then
    /// the folded productId; so titles compare as `NOCASE` compares them, a prefix first.
    public static func titleKey(_ title: UnsafeRawBufferPointer, productId: UnsafeRawBufferPointer) -> [UInt8] {
        var key: [UInt8] = []
        appendTitleKey(title, productId: productId, to: &key)
        return key
    }

    /// The key of a product without the list's value: its folded productId.
    public static func missingKey(productId: UnsafeRawBufferPointer) -> [UInt8] {
        var key: [UInt8] = []
        appendFolded(productId, to: &key)
        return key
    }

    /// Appends ``priceKey(_:productId:)`` to `key` (an import reuses one buffer for every product's).
    static func appendPriceKey(_ price: Int64, productId: UnsafeRawBufferPointer, to key: inout [UInt8]) {
        let biased = UInt64(bitPattern: price) ^ (1 << 63)
        for shift in stride(from: 56, through: 0, by: -8) { key.append(UInt8(truncatingIfNeeded: biased >> UInt64(shift))) }
        appendFolded(productId, to: &key)
    }

    /// Appends ``titleKey(_:productId:)`` to `key`.
    static func appendTitleKey(_ title: UnsafeRawBufferPointer, productId: UnsafeRawBufferPointer, to key: inout [UInt8]) {
        appendFolded(title, to: &key)
        key.append(0)
        appendFolded(productId, to: &key)
    }

    /// Appends ``missingKey(productId:)`` to `key`.
    static func appendMissingKey(productId: UnsafeRawBufferPointer, to key: inout [UInt8]) {
        appendFolded(productId, to: &key)
    }

    /// The bytes a stored key ends with (``appendPlace(_:to:)``).
    static let placeBytes = 6

    /// Ends a stored key with its product's place: a zero byte (a productId holds none), then the
    /// place in 5 bytes, big-endian. So a sorted search tells a key a later segment took by a bit
    /// of the place, never by finding its productId (``IndexView``), and a product's keys sort
    /// after its position (``position(after:)``).
    static func appendPlace(_ place: Int64, to key: inout [UInt8]) {
        key.append(0)
        for shift in stride(from: 32, through: 0, by: -8) { key.append(UInt8(truncatingIfNeeded: place >> Int64(shift))) }
    }

    /// The place a stored key ends with.
    static func place(in key: [UInt8]) -> Int64 {
        key.suffix(5).reduce(0) { $0 << 8 | Int64($1) }
    }

    /// Where a walk forwards after the product of position `key` (``priceKey(_:productId:)`` and
    /// the like, without a place) starts: past every stored key of that product.
    static func position(after key: [UInt8]) -> [UInt8] {
        key + [0, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
    }

    /// The folded productId a stored key of `list` holds.
    public static func productId(in key: [UInt8], of list: List) -> ArraySlice<UInt8> {
        let end = max(key.count - placeBytes, 0)
        switch list {
        case .price: return key[min(8, end)..<end]
        case .title: return key.firstIndex(of: 0).map { key[min($0 + 1, end)..<end] } ?? key[end..<end]
        case .priceMissing, .titleMissing: return key[..<end]
        }
    }

    private static func appendFolded(_ bytes: UnsafeRawBufferPointer, to key: inout [UInt8]) {
        for byte in bytes { key.append(ProductIdOrder.fold(byte)) }
    }

    // MARK: - Blocks

    /// Packs a list's keys, given in order, into blocks of at most `capacity` bytes.
    struct BlockWriter {
        let list: List
        private let segment: Int64
        private let capacity: Int
        private var bytes: [UInt8] = []
        private var count = 0
        private var previous: [UInt8] = []
        /// Blocks written so far.
        private(set) var blocks: Int64 = 0
        private let emit: (_ block: Int64, _ data: [UInt8]) throws -> Void

        /// Writes `list` of `segment` (its rows, ``SegmentRows/sortBlock(_:_:_:)``), after its
        /// first `blocksBefore` blocks (a merge goes on where its last step stopped).
        init(list: List, segment: Int64 = 0, blocksBefore: Int = 0, capacity: Int, emit: @escaping (_ block: Int64, _ data: [UInt8]) throws -> Void) {
            self.list = list
            self.segment = segment
            blocks = Int64(blocksBefore)
            self.capacity = capacity
            self.emit = emit
        }

        mutating func add(_ key: UnsafeRawBufferPointer) throws {
            var shared = 0
            if count > 0 {
                let most = min(previous.count, key.count)
                previous.withUnsafeBytes { before in
                    while shared < most, before[shared] == key[shared] { shared += 1 }
                }
            }
            if count > 0, bytes.count + 10 + key.count - shared + 10 > capacity {
                try close()
                shared = 0
            }
            VarInt.append(UInt64(shared), to: &bytes)
            VarInt.append(UInt64(key.count - shared), to: &bytes)
            bytes += key[shared...]
            previous.removeAll(keepingCapacity: true)
            previous += key
            count += 1
        }

        mutating func add(_ key: [UInt8]) throws {
            try key.withUnsafeBytes { try add($0) }
        }

        /// Writes the last block.
        mutating func finish() throws {
            if count > 0 { try close() }
        }

        private mutating func close() throws {
            var data: [UInt8] = []
            data.reserveCapacity(bytes.count + 5)
            VarInt.append(UInt64(count), to: &data)
            data += bytes
            try emit(SegmentRows.sortBlock(segment, list, Int(blocks)), data)
            blocks += 1
            bytes.removeAll(keepingCapacity: true)
            count = 0
        }
    }

    /// The keys of a block's `data`, in order; only the first `limit` when given.
    static func keys(in data: UnsafeRawBufferPointer, limit: Int = .max) throws -> [[UInt8]] {
        var offset = 0
        guard let count = VarInt.read(data, at: &offset) else { throw CorruptList() }
        var keys: [[UInt8]] = []
        keys.reserveCapacity(min(Int(count), limit))
        var previous: [UInt8] = []
        for _ in 0..<min(Int(count), limit) {
            guard let shared = VarInt.read(data, at: &offset).map(Int.init), let length = VarInt.read(data, at: &offset).map(Int.init),
                  shared <= previous.count, offset + length <= data.count else { throw CorruptList() }
            var key = Array(previous[..<shared])
            key += data[offset..<offset + length]
            offset += length
            keys.append(key)
            previous = key
        }
        return keys
    }

    /// A block that does not decode.
    struct CorruptList: Error {}

    // MARK: - Reading

    /// Reads the blocks of one segment's lists on one connection.
    final class Reader: SortKeyBlocks {
        private let readBlock: Statement
        private let lastBlock: Statement
        private let segment: Int64

        /// Reads `segment`'s lists with statements `prepare` makes (a connection's `prepare`, or a cache of them).
        init(prepare: (String) throws -> Statement, segment: Int64 = 0) throws {
            self.segment = segment
            readBlock = try prepare("SELECT data FROM \(SortLists.table) WHERE block = ?1")
            lastBlock = try prepare("SELECT max(block) FROM \(SortLists.table) WHERE block >= ?1 AND block < ?2")
        }

        /// How many blocks `list` has.
        func blockCount(_ list: List) throws -> Int {
            let first = SegmentRows.sortBlock(segment, list, 0)
            return try lastBlock.using {
                try lastBlock.bind(1, first)
                try lastBlock.bind(2, first + (1 << 32))
                guard try lastBlock.step(), !lastBlock.isNull(at: 0) else { return 0 }
                return Int(lastBlock.int64(at: 0) - first) + 1
            }
        }

        /// The keys of block `index` of `list` (the first `limit` of them when given).
        func keys(_ list: List, block index: Int, limit: Int = .max) throws -> [[UInt8]] {
            try readBlock.using {
                try readBlock.bind(1, SegmentRows.sortBlock(segment, list, index))
                guard try readBlock.step() else { throw CorruptList() }
                return try readBlock.withBytes(at: 0) { try SortLists.keys(in: $0, limit: limit) }
            }
        }
    }

    /// The lists of a segment held in memory (the changes no writer of this library has made a
    /// segment of yet): each list one block of sorted keys.
    struct MemoryKeys: SortKeyBlocks {
        var lists: [List: [[UInt8]]] = [:]

        func blockCount(_ list: List) throws -> Int { lists[list]?.isEmpty == false ? 1 : 0 }

        func keys(_ list: List, block index: Int, limit: Int = .max) throws -> [[UInt8]] {
            Array((lists[list] ?? []).prefix(limit))
        }
    }

    /// Keys of one list read in order, forwards or backwards, from a position found by key.
    struct Cursor {
        let list: List
        let forward: Bool
        private let reader: any SortKeyBlocks
        private let blockCount: Int
        private var block: Int
        private var keys: [[UInt8]] = []
        /// The next key's index in ``keys``.
        private var index = 0

        /// Starts at the first key after `after` (before it when reading backwards), or at the
        /// list's first key (last) without one.
        init(_ list: List, reader: any SortKeyBlocks, forward: Bool, after: [UInt8]?) throws {
            self.list = list
            self.forward = forward
            self.reader = reader
            blockCount = try reader.blockCount(list)
            block = forward ? 0 : blockCount - 1
            guard blockCount > 0 else { return }
            guard let after else {
                try load(block)
                index = forward ? 0 : keys.count - 1
                return
            }
            // The last block whose first key is at most `after` (forwards) or below it (backwards).
            var low = 0, high = blockCount - 1, found = -1
            while low <= high {
                let middle = (low + high) / 2
                let first = try reader.keys(list, block: middle, limit: 1).first ?? []
                let fits = forward ? !ByteOrder.precedes(after, first) : ByteOrder.precedes(first, after)
                if fits { found = middle; low = middle + 1 } else { high = middle - 1 }
            }
            if found < 0 {
                // Every key is past `after`: forwards, all are read; backwards, none.
                block = forward ? 0 : -1
                if forward { try load(0) }
                return
            }
            try load(found)
            if forward {
                index = keys.firstIndex { ByteOrder.precedes(after, $0) } ?? keys.count
            } else {
                index = (keys.lastIndex { ByteOrder.precedes($0, after) }) ?? -1
            }
        }

        private mutating func load(_ number: Int) throws {
            block = number
            keys = try reader.keys(list, block: number, limit: .max)
        }

        /// The next key in the cursor's direction, or nil past the list's end.
        mutating func next() throws -> [UInt8]? {
            while true {
                guard block >= 0, block < blockCount else { return nil }
                if index >= 0, index < keys.count {
                    defer { index += forward ? 1 : -1 }
                    return keys[index]
                }
                let following = block + (forward ? 1 : -1)
                guard following >= 0, following < blockCount else {
                    block = following
                    return nil
                }
                try load(following)
                index = forward ? 0 : keys.count - 1
            }
        }
    }
}

/// Where a sorted search reads one segment's sort lists from: blocks of keys, in order.
protocol SortKeyBlocks {
    /// How many blocks `list` has.
    func blockCount(_ list: SortLists.List) throws -> Int
    /// The keys of block `index` of `list` (the first `limit` of them when given).
    func keys(_ list: SortLists.List, block index: Int, limit: Int) throws -> [[UInt8]]
}
