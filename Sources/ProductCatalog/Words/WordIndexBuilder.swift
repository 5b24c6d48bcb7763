/// The word index of a replacing import, built on a core of its own.
///
/// FTS5's inserts are the largest part of an import (on a realistic million, 10 s of 17 s in
/// SQLite), and one database file has one writer. So the import's thread places each product
/// (its word row and title key, ``WordPlacement``) as it writes it, and hands the indexed words
/// to a second thread, which builds the FTS5 index and its term lists in a file of its own,
/// `<build>.words`, while the products are written. At the end the index's tables are copied
/// into the build (``WordIndex/adoptIndex(from:_:)``) and the file is deleted.
///
/// The words travel in chunks of at most one transaction's rows and about a megabyte, sorted by
/// word row, so that FTS5 adds each chunk as a few segments in rowid order; at most two chunks
/// wait, which bounds memory.
final class WordIndexBuilder {
    /// The path of the file the index is built in.
    let path: String
    private let queue = BlockingQueue<WordChunk>(capacity: 2)
    private let worker: Worker<Void>
    private let placement: WordPlacement
    /// Where productId, title, brand and type are among a batch's values (nil for a column the file lacks).
    private let columns: [Int?]
    private let insertRow: Statement
    private var place: Int64 = 1
    private var chunk = WordChunk()

    /// Starts the index's thread for a replacing import into the build on `connection`, whose
    /// rows fill `insertColumns`; the index is built at `path`.
    init(path: String, insertColumns: [String], connection: Connection) throws {
        self.path = path
        columns = [0] + WordIndex.columns.map { insertColumns.firstIndex(of: $0.columnName) }
        placement = try WordPlacement(connection: connection)
        insertRow = try connection.prepare(
            "INSERT INTO \(WordIndex.rowsTable) (wordRow, productId, titleKey) VALUES (?1, ?2, ?3)")
        try FileSystem.removeIfPresent(path)
        let queue = queue
        worker = Worker {
            do {
                try Self.build(at: path, from: queue)
            } catch {
                queue.close(throwing: error)
                throw error
            }
        }
    }

    /// Places each row of `rows` (sorted by productId, after every row placed before) in the
    /// word index's order, and keeps its words for the index.
    func add(_ rows: CheckedRows) throws {
        var texts: [UnsafeRawBufferPointer?] = Array(repeating: nil, count: columns.count)
        for index in 0..<rows.count {
            rows.texts(inRow: index, columns: columns, into: &texts)
            let productId = texts[0] ?? UnsafeRawBufferPointer(start: nil, count: 0)
            let fields = texts.dropFirst()
            let shape = try placement.shape(ofTitle: fields.first! ?? UnsafeRawBufferPointer(start: nil, count: 0))
            let row = WordPlacement.row(class: shape.wordClass, place: place)
            place += 1
            try insertRow.execute { statement in
                try statement.bind(1, row)
                try statement.bindText(2, unsafeBytes: productId.assumingMemoryBound(to: UInt8.self))
                try statement.bind(3, shape.key)
            }
            chunk.append(row: row, fields: fields)
            if chunk.text.count >= WordChunk.bytes { try flush() }
        }
    }

    /// Hands the words kept since the last call to the index's thread.
    func flush() throws {
        guard !chunk.entries.isEmpty else { return }
        chunk.entries.sort { $0.row < $1.row }
        guard queue.put(chunk) else {
            try worker.join()
            throw SortError.stopped
        }
        chunk = WordChunk()
    }

    /// Hands the last words to the index's thread, which then completes the index.
    func finishWriting() throws {
        try flush()
        queue.close()
    }

    /// Waits for the index to be complete and copies it into the build on `connection`, which
    /// must be outside a transaction (SQLite attaches files only there).
    func finish(into connection: Connection) throws {
        try finishWriting()
        try worker.join()
        let attach = try connection.prepare("ATTACH DATABASE ?1 AS word_build")
        try attach.bind(1, path)
        try attach.using { _ = try attach.step() }
        try connection.begin(.deferred)
        try WordIndex.setNextPlace(place, connection)
        try WordIndex.adoptIndex(from: "word_build", connection)
        try connection.commit()
        try connection.execute("DETACH DATABASE word_build")
        try FileSystem.removeIfPresent(path)
    }

    /// Stops the index's thread and deletes its file.
    func abandon() {
        queue.close(throwing: SortError.stopped)
        _ = try? worker.join()
        try? FileSystem.removeIfPresent(path)
    }

    /// The index's thread: adds each chunk in a transaction of its own, then merges the
    /// segments and lists the terms.
    private static func build(at path: String, from queue: BlockingQueue<WordChunk>) throws {
        let connection = try Connection(path: path, mode: .create)
        // Nobody reads this file before it is complete; a crash leaves it to the next import to delete.
        try connection.execute("""
            PRAGMA page_size = 16384;
            PRAGMA journal_mode = OFF;
            PRAGMA synchronous = OFF;
            PRAGMA locking_mode = EXCLUSIVE;
            PRAGMA cache_size = -2048;
            \(WordIndex.createIndexStatements)
            INSERT INTO \(WordIndex.table) (\(WordIndex.table), rank) VALUES ('automerge', 0);
            """)
        let insert = try connection.prepare(
            "INSERT INTO \(WordIndex.table) (rowid, \(WordIndex.columnList)) VALUES (?1, ?2, ?3, ?4)")
        while let chunk = try queue.take() {
            try connection.begin(.deferred)
            try chunk.insert(with: insert)
            try connection.commit()
        }
        try WordIndex.mergeSegments(connection)
        try WordIndex.countTerms(connection)
    }
}

/// The indexed words of some products, on their way to the index's thread: each product's word
/// row and its title, brand and type, as UTF-8 one after the other in one buffer.
private struct WordChunk {
    struct Entry {
        var row: Int64
        /// Where the product's first field starts in ``text``.
        var start: Int32
        /// Each field's length in bytes, -1 for NULL.
        var lengths: (Int32, Int32, Int32)

        func length(of field: Int) -> Int32 {
            field == 0 ? lengths.0 : field == 1 ? lengths.1 : lengths.2
        }
    }

    /// The text a chunk holds before it is handed over.
    static let bytes = 1 << 20

    var text: [UInt8] = []
    var entries: [Entry] = []

    init() {
        text.reserveCapacity(Self.bytes + (64 << 10))
    }

    mutating func append(row: Int64, fields: ArraySlice<UnsafeRawBufferPointer?>) {
        let start = Int32(text.count)
        for field in fields { if let field { text.append(contentsOf: field) } }
        func length(_ offset: Int) -> Int32 { fields[fields.startIndex + offset].map { Int32($0.count) } ?? -1 }
        entries.append(Entry(row: row, start: start, lengths: (length(0), length(1), length(2))))
    }

    /// Inserts every entry, in order, with `insert` (rowid and the three fields).
    func insert(with insert: Statement) throws {
        try text.withUnsafeBufferPointer { text in
            for entry in entries {
                try insert.execute { statement in
                    try statement.bind(1, entry.row)
                    var start = Int(entry.start)
                    for field in 0..<3 {
                        let length = Int(entry.length(of: field))
                        if length < 0 {
                            try statement.bindNull(Int32(2 + field))
                        } else {
                            try statement.bindText(Int32(2 + field), unsafeBytes: UnsafeBufferPointer(rebasing: text[start..<start + length]))
                            start += length
                        }
                    }
                }
            }
        }
    }
}
