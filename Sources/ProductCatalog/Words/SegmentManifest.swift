/// The word index as segments: which are live, in which order, and the counters that give each
/// new segment, place and generation its number.
///
/// ```sql
/// CREATE TABLE word_segments (segment INTEGER PRIMARY KEY, position INTEGER NOT NULL UNIQUE,
///   holdsImport INTEGER NOT NULL, products INTEGER NOT NULL, postings INTEGER NOT NULL, mentions INTEGER NOT NULL);
/// ```
///
/// **Segments.** A replacing import builds segment 0, the *base*: every product's postings, its
/// sort keys, and the place map that gives each product its place (``PlaceMap``). Every write
/// after it adds a small segment of its own (``SegmentWriter``): the products it added or changed
/// as they are now, at their places, and the places it deleted. Segments are never changed once
/// written; merges (``SegmentMerge``) replace a run of neighbours by one, and one that takes in
/// the base becomes the base. A segment's blocks, term list, places and sort lists are rows of the
/// index's tables whose keys begin with the segment's number (``SegmentRows``).
///
/// **Order.** A segment's `position` orders it among the live ones, oldest first: a product's
/// postings in a segment are live unless a later segment mentions its place (holds it again, or
/// deletes it). A merge takes the position of the newest segment it merges.
///
/// **Counters** (in `word_lists_meta`): `generation`, one more at every change of the segments,
/// which a search's view is read at (``IndexView``); `nextPlace`, the place the next product
/// added gets (places are given once and never again, see ``ChangeNotes``); `nextSegment`.
enum SegmentManifest {
    static let table = "word_segments"

    static let createStatement = """
        CREATE TABLE IF NOT EXISTS \(table) (segment INTEGER PRIMARY KEY, position INTEGER NOT NULL UNIQUE,
          holdsImport INTEGER NOT NULL, products INTEGER NOT NULL, postings INTEGER NOT NULL, mentions INTEGER NOT NULL)
        """

    /// One live segment.
    struct Entry: Equatable, Sendable {
        var segment: Int64
        var position: Int64
        /// True for the base: it holds every place of the import's place map it does not delete.
        var holdsImport: Bool
        var products: Int
        var postings: Int
        /// Places it holds and deletes: what it takes from the segments before it.
        var mentions: Int
    }

    /// True when the catalog on `connection` keeps its index as segments (layout 8).
    static func exists(_ connection: Connection) throws -> Bool {
        try connection.hasTable(table)
    }

    /// The live segments, oldest first; one base segment 0 for a catalog of layout 7.
    static func entries(_ connection: Connection) throws -> [Entry] {
        guard try exists(connection) else {
            return [Entry(segment: 0, position: 0, holdsImport: true, products: 0, postings: 0, mentions: 0)]
        }
        let statement = try connection.prepare("SELECT segment, position, holdsImport, products, postings, mentions FROM \(table) ORDER BY position")
        var entries: [Entry] = []
        while try statement.step() {
            entries.append(Entry(segment: statement.int64(at: 0), position: statement.int64(at: 1), holdsImport: statement.int64(at: 2) != 0,
                                 products: Int(statement.int64(at: 3)), postings: Int(statement.int64(at: 4)), mentions: Int(statement.int64(at: 5))))
        }
        return entries
    }

    /// Adds `entry` to the live segments.
    static func add(_ entry: Entry, _ connection: Connection) throws {
        let insert = try connection.prepare("INSERT INTO \(table) (segment, position, holdsImport, products, postings, mentions) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
        try insert.bind(1, entry.segment)
        try insert.bind(2, entry.position)
        try insert.bind(3, Int64(entry.holdsImport ? 1 : 0))
        try insert.bind(4, Int64(entry.products))
        try insert.bind(5, Int64(entry.postings))
        try insert.bind(6, Int64(entry.mentions))
        try insert.step()
    }

    /// Takes `segments` out of the live ones.
    static func remove(_ segments: [Int64], _ connection: Connection) throws {
        let delete = try connection.prepare("DELETE FROM \(table) WHERE segment = ?1")
        for segment in segments {
            try delete.using {
                try delete.bind(1, segment)
                try delete.step()
            }
        }
    }

    // MARK: - Counters

    static func counter(_ name: String, _ connection: Connection) throws -> Int64? {
        guard try connection.hasTable(WordLists.metaTable) else { return nil }
        let statement = try connection.prepare("SELECT value FROM \(WordLists.metaTable) WHERE name = ?1")
        try statement.bind(1, name)
        return try statement.step() ? statement.int64(at: 0) : nil
    }

    static func setCounter(_ name: String, _ value: Int64, _ connection: Connection) throws {
        let statement = try connection.prepare("INSERT OR REPLACE INTO \(WordLists.metaTable) (name, value) VALUES (?1, ?2)")
        try statement.bind(1, name)
        try statement.bind(2, value)
        try statement.step()
    }

    /// The number of the index's current state of segments.
    static func generation(_ connection: Connection) throws -> Int64 {
        try counter("generation", connection) ?? 0
    }

    /// Counts one more change of the segments.
    static func advanceGeneration(_ connection: Connection) throws {
        try setCounter("generation", try generation(connection) + 1, connection)
    }

    /// The place the next product added gets.
    static func nextPlace(_ connection: Connection) throws -> Int64 {
        if let next = try counter("nextPlace", connection) { return next }
        return try WordLists.maxPlace(connection) + 1
    }

    /// A new segment's number.
    static func takeSegmentNumber(_ connection: Connection) throws -> Int64 {
        let next = try counter("nextSegment", connection) ?? 1
        try setCounter("nextSegment", next + 1, connection)
        return next
    }

    /// The position after every live segment's.
    static func nextPosition(_ connection: Connection) throws -> Int64 {
        (try connection.scalarInt("SELECT max(position) FROM \(table)") ?? 0) + 1
    }

    /// Records a base just built (by an import or a rebuild): segment 0, holding `products` at
    /// places 1 to `products`, the only live segment.
    static func startWithBase(products: Int, postings: Int, _ connection: Connection) throws {
        try connection.execute(createStatement + "; DELETE FROM \(table);")
        try add(Entry(segment: 0, position: 0, holdsImport: true, products: products, postings: postings, mentions: 0), connection)
        try setCounter("generation", 1, connection)
        try setCounter("nextPlace", Int64(products) + 1, connection)
        try setCounter("nextSegment", 1, connection)
    }
}

/// Where a segment's rows are: every table of the index keys its rows by the segment's number
/// above their own, so the base (segment 0) has the keys an import has always written, and a
/// segment's rows are one range, deleted with one statement when it is merged away.
enum SegmentRows {
    /// A posting block's row in `word_lists`, and a term list block's in `word_list_terms`
    /// and a places block's in `word_segment_places` (`block` from 1).
    static func block(_ segment: Int64, _ block: Int) -> Int64 { segment << 32 | Int64(block) }
    /// A list's number in the directory `word_list_starts`.
    static func list(_ segment: Int64, _ list: Int) -> Int64 { segment << 32 | Int64(list) }
    /// The range of a segment's rows in a table keyed by ``block(_:_:)``.
    static func blocks(of segment: Int64) -> ClosedRange<Int64> { (segment << 32)...(segment << 32 | 0xFFFF_FFFF) }
    /// A sort list block's row in `sort_lists` (see ``SortLists/List/firstBlock``).
    static func sortBlock(_ segment: Int64, _ list: SortLists.List, _ block: Int) -> Int64 { segment << 36 | list.firstBlock | Int64(block) }
    /// The range of a segment's rows in `sort_lists`.
    static func sortBlocks(of segment: Int64) -> ClosedRange<Int64> { (segment << 36)...(segment << 36 | 0xF_FFFF_FFFF) }

    /// Inserts `blocks` as the rows of `segment` in `table` (`block`, `data`), numbered from 1.
    static func insert(_ blocks: [[UInt8]], of segment: Int64, into table: String, _ connection: Connection) throws {
        let insert = try connection.prepare("INSERT INTO \(table) (block, data) VALUES (?1, ?2)")
        for (index, block) in blocks.enumerated() {
            try insert.using {
                try insert.bind(1, Self.block(segment, index + 1))
                try insert.bind(2, blob: block)
                _ = try insert.step()
            }
        }
    }
}
