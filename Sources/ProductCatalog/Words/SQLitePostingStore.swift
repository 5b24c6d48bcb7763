/// A word index's blocks in SQLite tables, beside whatever else the file holds:
///
/// ```sql
/// CREATE TABLE word_lists (block INTEGER PRIMARY KEY, data BLOB NOT NULL);
/// CREATE TABLE word_list_starts (list INTEGER NOT NULL, row INTEGER NOT NULL, block INTEGER NOT NULL,
///   PRIMARY KEY (list, row)) WITHOUT ROWID;
/// ```
///
/// A block is one row of a rowid table, whose rows may fill a whole page (a `WITHOUT ROWID` row
/// past a quarter of one goes to overflow pages); the directory has one small row a block, keyed
/// as the reader seeks it. Both are written in key order, so every insert appends. A segment's
/// blocks and lists are numbered from 1 and 0 within it, its number above them (``SegmentRows``).
@_spi(WordIndex) public final class SQLitePostingStore: PostingStore {
    public static let blocksTable = "word_lists"
    public static let startsTable = "word_list_starts"

    /// The statements that create the empty tables.
    public static let createStatements = """
        CREATE TABLE IF NOT EXISTS \(blocksTable) (block INTEGER PRIMARY KEY, data BLOB NOT NULL);
        CREATE TABLE IF NOT EXISTS \(startsTable) (list INTEGER NOT NULL, row INTEGER NOT NULL, block INTEGER NOT NULL,
          PRIMARY KEY (list, row)) WITHOUT ROWID;
        """

    /// The most bytes a block holds on pages of `pageSize`: what a rowid table's row keeps on its
    /// own leaf page (the page less its header, cell pointer, and the row's own header).
    public static func blockCapacity(pageSize: Int) -> Int {
        pageSize - 64
    }

    private let readBlock: Statement
    private let findStart: Statement
    let segment: Int64

    /// Reads the blocks of `segment` of the catalog on `connection`.
    public init(connection: Connection, segment: Int64 = 0) throws {
        self.segment = segment
        readBlock = try connection.prepare("SELECT data FROM \(Self.blocksTable) WHERE block = ?1")
        findStart = try connection.prepare(
            "SELECT block FROM \(Self.startsTable) WHERE list = ?1 AND row <= ?2 ORDER BY row DESC LIMIT 1")
    }

    public func withBlock(_ number: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        try readBlock.using {
            try readBlock.bind(1, SegmentRows.block(segment, number))
            guard try readBlock.step() else { return false }
            try readBlock.withBytes(at: 0, body)
            return true
        }
    }

    public func block(of list: Int, atOrBefore row: Int64) throws -> Int? {
        try findStart.using {
            try findStart.bind(1, SegmentRows.list(segment, list))
            try findStart.bind(2, row)
            return try findStart.step() ? Int(findStart.int64(at: 0)) : nil
        }
    }

    /// Writes blocks as a ``PostingBlocks/Writer`` emits them, into the tables on `connection`, as `segment`'s.
    public final class Appender {
        private let insertBlock: Statement
        private let insertStart: Statement
        private let segment: Int64
        /// Blocks written.
        public private(set) var blocks = 0

        public init(connection: Connection, segment: Int64 = 0) throws {
            self.segment = segment
            try connection.execute(SQLitePostingStore.createStatements)
            insertBlock = try connection.prepare("INSERT INTO \(SQLitePostingStore.blocksTable) (block, data) VALUES (?1, ?2)")
            insertStart = try connection.prepare("INSERT INTO \(SQLitePostingStore.startsTable) (list, row, block) VALUES (?1, ?2, ?3)")
        }

        public func append(_ block: Int, _ data: [UInt8], _ entry: PostingBlocks.Entry) throws {
            try insertBlock.using {
                try insertBlock.bind(1, SegmentRows.block(segment, block))
                try insertBlock.bind(2, blob: data)
                _ = try insertBlock.step()
            }
            blocks += 1
            try insertStart.using {
                try insertStart.bind(1, SegmentRows.list(segment, entry.list))
                try insertStart.bind(2, entry.row)
                try insertStart.bind(3, Int64(entry.block))
                _ = try insertStart.step()
            }
        }
    }
}
