/// What a segment says about places (see ``SegmentManifest``): the places of the products it
/// holds, the productId of those the import's place map does not name, and the places it deletes.
///
/// ```sql
/// CREATE TABLE word_segment_places (block INTEGER PRIMARY KEY, data BLOB NOT NULL);  -- SegmentRows.block
/// ```
///
/// Stored as one stream cut into blocks: `varint(held)` then each held place as the gap from the
/// one before; `varint(moved)` then each `varint(place gap) varint(length) productId`; `varint(deleted)`
/// then each deleted place's gap. The base lists no held places: it holds every place of the
/// import's map but those it deletes (``SegmentManifest/Entry/holdsImport``).
struct SegmentPlaces: Sendable {
    static let table = "word_segment_places"
    static let createStatement = "CREATE TABLE IF NOT EXISTS \(table) (block INTEGER PRIMARY KEY, data BLOB NOT NULL)"

    /// The places of the products the segment holds, ascending (empty for the base).
    private(set) var held: [Int64]
    /// The productIds of held places that the import's place map does not give (products added
    /// since, or renamed), by place.
    private(set) var moved: [Int64: String]
    /// The places the segment deletes, ascending.
    private(set) var deleted: [Int64]

    init(held: [Int64] = [], moved: [Int64: String] = [:], deleted: [Int64] = []) {
        self.held = held.sorted()
        self.moved = moved
        self.deleted = deleted.sorted()
    }

    /// How many places the segment takes from those before it.
    var mentions: Int { held.count + deleted.count }

    /// True when the segment holds the product at `place` (never for the base: ask its place map).
    func holds(_ place: Int64) -> Bool { Self.contains(held, place) }

    /// True when the segment deletes `place`.
    func deletes(_ place: Int64) -> Bool { Self.contains(deleted, place) }

    private static func contains(_ sorted: [Int64], _ place: Int64) -> Bool {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < place { low = middle + 1 } else { high = middle }
        }
        return low < sorted.count && sorted[low] == place
    }

    // MARK: - Stored

    /// The stream of blocks of at most `capacity` bytes described above.
    func encoded(blockCapacity capacity: Int) -> [[UInt8]] {
        var stream: [UInt8] = []
        func appendPlaces(_ places: [Int64]) {
            VarInt.append(UInt64(places.count), to: &stream)
            var previous: Int64 = 0
            for place in places {
                VarInt.append(UInt64(place - previous), to: &stream)
                previous = place
            }
        }
        appendPlaces(held)
        VarInt.append(UInt64(moved.count), to: &stream)
        var previous: Int64 = 0
        for (place, productId) in moved.sorted(by: { $0.key < $1.key }) {
            VarInt.append(UInt64(place - previous), to: &stream)
            VarInt.append(UInt64(productId.utf8.count), to: &stream)
            stream += productId.utf8
            previous = place
        }
        appendPlaces(deleted)
        return stride(from: 0, to: max(stream.count, 1), by: capacity).map { Array(stream[$0..<min($0 + capacity, stream.count)]) }
    }

    /// Reads the places back from their stream.
    init(stream: [UInt8]) throws {
        var held: [Int64] = []
        var moved: [Int64: String] = [:]
        var deleted: [Int64] = []
        try stream.withUnsafeBytes { data in
            var offset = 0
            func number() throws -> Int64 {
                guard let value = VarInt.read(data, at: &offset) else { throw PostingBlocks.CorruptBlock() }
                return Int64(value)
            }
            func places() throws -> [Int64] {
                let count = try number()
                guard count <= Int64(data.count) else { throw PostingBlocks.CorruptBlock() }
                var read: [Int64] = []
                read.reserveCapacity(Int(count))
                var place: Int64 = 0
                for _ in 0..<count {
                    place += try number()
                    read.append(place)
                }
                return read
            }
            guard !data.isEmpty else { return }
            held = try places()
            let count = try number()
            guard count <= Int64(data.count) else { throw PostingBlocks.CorruptBlock() }
            var place: Int64 = 0
            for _ in 0..<count {
                place += try number()
                let length = Int(try number())
                guard length <= data.count - offset else { throw PostingBlocks.CorruptBlock() }
                moved[place] = String(decoding: UnsafeRawBufferPointer(rebasing: data[offset..<offset + length]), as: UTF8.self)
                offset += length
            }
            deleted = try places()
        }
        self.init(held: held, moved: moved, deleted: deleted)
    }

    /// Writes the places of `segment` into their table on `connection`.
    func write(segment: Int64, to connection: Connection, blockCapacity: Int) throws {
        try connection.execute(Self.createStatement)
        try SegmentRows.insert(encoded(blockCapacity: blockCapacity), of: segment, into: Self.table, connection)
    }

    /// Reads the places of `segment` from their table on `connection` (none for a segment that has no rows there).
    init(segment: Int64, connection: Connection) throws {
        guard try connection.hasTable(Self.table) else {
            self.init()
            return
        }
        var stream: [UInt8] = []
        let statement = try connection.prepare("SELECT data FROM \(Self.table) WHERE block BETWEEN ?1 AND ?2 ORDER BY block")
        try statement.bind(1, SegmentRows.blocks(of: segment).lowerBound)
        try statement.bind(2, SegmentRows.blocks(of: segment).upperBound)
        while try statement.step() { statement.withBytes(at: 0) { stream += $0 } }
        try self.init(stream: stream)
    }
}
