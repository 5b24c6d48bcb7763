/// The products of a word index by place: place `n` is the `n`th productId of the replacing import
/// that built the index, in the catalog's order (`NOCASE`), so the map is sorted both by place and
/// by productId, and one structure answers both ways.
///
/// ```sql
/// CREATE TABLE word_places (place INTEGER PRIMARY KEY, firstId TEXT NOT NULL, data BLOB NOT NULL);
/// ```
///
/// A row holds consecutive places from `place` on: `data` is `varint(count)` then each productId
/// as `varint(bytes shared with the one before) varint(rest's length) rest`, the first sharing
/// nothing. Rows stop at a page's worth of bytes; `firstId` is the first productId, by which a
/// reader finds a product's place without reading the others.
@_spi(WordIndex) public enum PlaceMap {
    public static let table = "word_places"
    public static let createStatement = "CREATE TABLE IF NOT EXISTS \(table) (place INTEGER PRIMARY KEY, firstId TEXT NOT NULL, data BLOB NOT NULL)"

    /// Packs productIds, place after place from 1, into rows of at most `capacity` bytes.
    public struct Writer {
        private let capacity: Int
        private var bytes: [UInt8] = []
        private var count = 0
        private var first: (place: Int64, id: [UInt8])?
        private var previous: [UInt8] = []
        /// The next place.
        public private(set) var nextPlace: Int64 = 1
        private let emit: (_ place: Int64, _ firstId: [UInt8], _ data: [UInt8]) throws -> Void

        public init(capacity: Int, emit: @escaping (_ place: Int64, _ firstId: [UInt8], _ data: [UInt8]) throws -> Void) {
            self.capacity = capacity
            self.emit = emit
        }

        /// Gives the next place to `productId` (UTF-8) and returns it.
        @discardableResult
        public mutating func add(_ productId: UnsafeRawBufferPointer) throws -> Int64 {
            let shared = first == nil ? 0 : zip(previous, productId).prefix { $0 == $1 }.count
            let size = VarInt.size(UInt64(shared)) + VarInt.size(UInt64(productId.count - shared)) + productId.count - shared
            if first != nil, bytes.count + size + 4 > capacity { try close() }
            let place = nextPlace
            if first == nil {
                first = (place, Array(productId))
                previous = []
            }
            let sharing = first!.place == place ? 0 : shared
            VarInt.append(UInt64(sharing), to: &bytes)
            VarInt.append(UInt64(productId.count - sharing), to: &bytes)
            bytes += productId[sharing...]
            previous = Array(productId)
            count += 1
            nextPlace += 1
            return place
        }

        /// Writes the last row.
        public mutating func finish() throws {
            if first != nil { try close() }
        }

        private mutating func close() throws {
            guard let first else { return }
            var data: [UInt8] = []
            VarInt.append(UInt64(count), to: &data)
            data += bytes
            try emit(first.place, first.id, data)
            bytes.removeAll(keepingCapacity: true)
            count = 0
            self.first = nil
        }
    }

    /// A row's productIds, decoded into one run of bytes: two allocations a row, not one a productId.
    public struct DecodedRow {
        /// The productIds one after the other.
        private var bytes: [UInt8] = []
        /// Where each productId ends in ``bytes``.
        private var ends: [Int32] = []

        /// Decodes a row's `data`: `varint(count)`, then each productId front-coded.
        ///
        /// Two passes: the first checks the lengths and sums them, the second copies each
        /// productId's shared start and its own bytes into a buffer of that size (a byte at a
        /// time into a growing array cost a search 20 µs a row).
        public init(_ data: UnsafeRawBufferPointer) throws {
            var offset = 0
            guard let count = VarInt.read(data, at: &offset).map(Int.init), count <= data.count else { throw PostingBlocks.CorruptBlock() }
            let start = offset
            var total = 0
            var previousCount = 0
            ends.reserveCapacity(count)
            for _ in 0..<count {
                guard let shared = VarInt.read(data, at: &offset).map(Int.init), let length = VarInt.read(data, at: &offset).map(Int.init),
                      shared <= previousCount, length <= data.count - offset else { throw PostingBlocks.CorruptBlock() }
                offset += length
                total += shared + length
                ends.append(Int32(total))
                previousCount = shared + length
            }
            offset = start
            bytes = [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
                var previousStart = 0
                var written = 0
                for _ in 0..<count {
                    // Checked in the first pass.
                    let shared = Int(VarInt.read(data, at: &offset)!), length = Int(VarInt.read(data, at: &offset)!)
                    let base = buffer.baseAddress!
                    if shared > 0 { (base + written).initialize(from: base + previousStart, count: shared) }
                    if length > 0 { UnsafeMutableRawPointer(base + written + shared).copyMemory(from: data.baseAddress! + offset, byteCount: length) }
                    offset += length
                    previousStart = written
                    written += shared + length
                }
                initialized = written
            }
        }

        /// How many productIds the row holds.
        public var count: Int { ends.count }

        /// The productId at `index` (0-based) of a row's `data`, decoding only the productIds
        /// before it into one buffer; nil past the row's end.
        static func productId(in data: UnsafeRawBufferPointer, at index: Int) throws -> [UInt8]? {
            var offset = 0
            guard let count = VarInt.read(data, at: &offset).map(Int.init), count <= data.count else { throw PostingBlocks.CorruptBlock() }
            guard index < count else { return nil }
            var id: [UInt8] = []
            id.reserveCapacity(64)
            for _ in 0...index {
                guard let shared = VarInt.read(data, at: &offset).map(Int.init), let length = VarInt.read(data, at: &offset).map(Int.init),
                      shared <= id.count, length <= data.count - offset else { throw PostingBlocks.CorruptBlock() }
                id.removeLast(id.count - shared)
                id.append(contentsOf: UnsafeRawBufferPointer(rebasing: data[offset..<offset + length]))
                offset += length
            }
            return id
        }

        /// The productId at `index` (0-based), as UTF-8.
        public subscript(index: Int) -> ArraySlice<UInt8> {
            bytes[(index == 0 ? 0 : Int(ends[index - 1]))..<Int(ends[index])]
        }

        /// The index of the productId whose folded bytes (``ProductIdOrder/fold(_:)``) are `key`,
        /// by binary search: a row's productIds are in that order.
        func index(ofFolded key: [UInt8]) -> Int? {
            var low = 0
            var high = count
            while low < high {
                let middle = (low + high) / 2
                let id = self[middle]
                if id.lazy.map(ProductIdOrder.fold).lexicographicallyPrecedes(key) {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            guard low < count, self[low].lazy.map(ProductIdOrder.fold).elementsEqual(key) else { return nil }
            return low
        }
    }

    /// The productIds of a row's `data`, in place order.
    public static func productIds(in data: UnsafeRawBufferPointer) throws -> [[UInt8]] {
        let row = try DecodedRow(data)
        return (0..<row.count).map { Array(row[$0]) }
    }

    /// Reads a catalog's map: place to productId, and productId to place.
    public final class Reader {
        private let connection: Connection
        private let byPlace: Statement
        /// The rows read lately, by first place: a search walks each class of titles in place
        /// order, so it comes back to a row once per class it walks.
        private var rows: [Int64: DecodedRow] = [:]
        /// The row read last, for ``place(of:)``.
        private var cached: (place: Int64, ids: DecodedRow)?
        /// How many decoded rows ``rows`` keeps before it starts again (about 1 MB at 64-byte productIds).
        static let keptRows = 64
        /// Every row's first place and first productId (folded), read at the first ``place(of:)``.
        private var directory: [(place: Int64, firstId: [UInt8])]?

        public init(connection: Connection) throws {
            self.connection = connection
            byPlace = try connection.prepare("SELECT place, data FROM \(PlaceMap.table) WHERE place <= ?1 ORDER BY place DESC LIMIT 1")
        }

        /// The productId at `place`; nil when no product had it.
        public func productId(at place: Int64) throws -> String? {
            guard let (first, kept) = try row(holding: place) else { return nil }
            let ids: DecodedRow
            if let kept {
                ids = kept
            } else {
                guard let read = try readRow(atOrBefore: place), read.place == first else { return nil }
                ids = read.ids
                if rows.count >= Self.keptRows { rows.removeAll(keepingCapacity: true) }
                rows[first] = ids
            }
            cached = (first, ids)
            guard place - first < Int64(ids.count) else { return nil }
            return String(decoding: ids[Int(place - first)], as: UTF8.self)
        }

        /// ``productId(at:)`` for places far apart, such as a count's sample: the row is read and
        /// decoded only up to the place, and not kept (decoding and keeping every row was a tenth
        /// of a keystroke's time when counting families).
        public func productId(atSampled place: Int64) throws -> String? {
            guard let (first, kept) = try row(holding: place) else { return nil }
            if let kept { return place - first < Int64(kept.count) ? String(decoding: kept[Int(place - first)], as: UTF8.self) : nil }
            return try byPlace.using { () -> String? in
                try byPlace.bind(1, place)
                guard try byPlace.step(), byPlace.int64(at: 0) == first else { return nil }
                return try byPlace.withBytes(at: 1) { try DecodedRow.productId(in: $0, at: Int(place - first)) }.map { String(decoding: $0, as: UTF8.self) }
            }
        }

        /// The first place of the row that holds `place` (nil when no row starts at or before it),
        /// and that row decoded when it is kept.
        private func row(holding place: Int64) throws -> (first: Int64, kept: DecodedRow?)? {
            if let cached, place >= cached.place, place < cached.place + Int64(cached.ids.count) { return (cached.place, cached.ids) }
            let directory = try self.directory ?? readDirectory()
            guard let row = Self.row(holding: place, in: directory) else { return nil }
            let first = directory[row].place
            return (first, rows[first])
        }

        /// The place of `productId` (ASCII case ignored); nil when the map does not hold it.
        ///
        /// The rows are in productId order as well as in place order, so the last row whose
        /// first productId does not come after it holds it, if any does: found in the rows'
        /// directory (a row's place and first productId, read once), then read.
        public func place(of productId: String) throws -> Int64? {
            let key = productId.utf8.map(ProductIdOrder.fold)
            let directory = try self.directory ?? readDirectory()
            var low = 0
            var high = directory.count
            while low < high {
                let middle = (low + high) / 2
                if directory[middle].firstId.lexicographicallyPrecedes(key) || directory[middle].firstId == key { low = middle + 1 } else { high = middle }
            }
            guard low > 0 else { return nil }
            let first = directory[low - 1].place
            guard let found = try self.productId(at: first), !found.isEmpty, let ids = cached?.ids,
                  let index = ids.index(ofFolded: key) else { return nil }
            return first + Int64(index)
        }

        private func readRow(atOrBefore place: Int64) throws -> (place: Int64, ids: DecodedRow)? {
            try byPlace.using { () -> (Int64, DecodedRow)? in
                try byPlace.bind(1, place)
                guard try byPlace.step() else { return nil }
                return (byPlace.int64(at: 0), try byPlace.withBytes(at: 1) { try DecodedRow($0) })
            }
        }

        /// The index in `directory` of the row that holds `place`, if any row starts at or before it.
        private static func row(holding place: Int64, in directory: [(place: Int64, firstId: [UInt8])]) -> Int? {
            var low = 0
            var high = directory.count
            while low < high {
                let middle = (low + high) / 2
                if directory[middle].place <= place { low = middle + 1 } else { high = middle }
            }
            return low > 0 ? low - 1 : nil
        }

        private func readDirectory() throws -> [(place: Int64, firstId: [UInt8])] {
            let statement = try connection.prepare("SELECT place, firstId FROM \(PlaceMap.table) ORDER BY place")
            var read: [(place: Int64, firstId: [UInt8])] = []
            while try statement.step() { read.append((statement.int64(at: 0), statement.withBytes(at: 1) { $0.map(ProductIdOrder.fold) })) }
            directory = read
            return read
        }
    }
}
