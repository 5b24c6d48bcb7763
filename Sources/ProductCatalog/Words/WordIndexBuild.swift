/// The word index and sort lists of a replacing import (see ``WordLists``, ``SortLists``), built
/// on the core the writing leaves idle.
///
/// The import's writing thread hands each batch's productIds, titles, brands, types and prices over in
/// chunks (about a megabyte, at most two waiting), in productId order, which is place order. The
/// index's thread writes the index from them (``WordListsWriter``) into a file of its own
/// (`<build>.lists`, no journal), and the lists' thread the sort lists (``SortListsWriter``) into
/// another (`<build>.sorts`); the writing thread copies both into the build when it is done with
/// the products. Two threads, not one, so that the machine's two cores share the three tasks.
final class WordIndexBuild {
    /// The file the index is built in.
    let path: String
    /// The file the sort lists are built in.
    let sortsPath: String
    private let queue = BlockingQueue<ProductWords>(capacity: 2)
    private let sortsQueue = BlockingQueue<ProductWords>(capacity: 2)
    private let worker: Worker<Void>
    private let sortsWorker: Worker<Void>
    /// Where productId, title, brand and type are among a batch's values (nil for a column the file lacks).
    private let columns: [Int?]
    /// Where the sale price and the list price are (for ``SortLists``).
    private let salePriceColumn: Int?
    private let listPriceColumn: Int?
    private var chunk = ProductWords()

    /// Postings held in memory before a segment is spilled, in bytes.
    static let memoryBudget = 8 << 20

    /// Starts the index's thread for a build whose rows fill `insertColumns`, its pages `pageSize` bytes.
    init(path: String, insertColumns: [String], pageSize: Int) throws {
        self.path = path
        columns = [0] + WordLists.fields.map { insertColumns.firstIndex(of: $0.columnName) }
        salePriceColumn = insertColumns.firstIndex(of: ProductField.salesPrice.columnName)
        listPriceColumn = insertColumns.firstIndex(of: ProductField.listPrice.columnName)
        sortsPath = path + ".sorts"
        try FileSystem.removeIfPresent(path)
        try FileSystem.removeIfPresent(sortsPath)
        let (queue, sortsQueue, sortsPath) = (queue, sortsQueue, sortsPath)
        let budget = Self.memoryBudget
        worker = Worker {
            do {
                try Self.build(at: path, pageSize: pageSize, budget: budget, from: queue)
            } catch {
                queue.close(throwing: error)
                throw error
            }
        }
        sortsWorker = Worker {
            do {
                // 2 MiB of keys in memory for each of the sort lists' two orders (price, title).
                try Self.buildSorts(at: sortsPath, pageSize: pageSize, budget: budget / 4, from: sortsQueue)
            } catch {
                sortsQueue.close(throwing: error)
                throw error
            }
        }
    }

    /// Keeps the productId, words and price of each row of `rows` (sorted by productId, after every row before).
    func add(_ rows: CheckedRows) throws {
        var texts: [UnsafeRawBufferPointer?] = Array(repeating: nil, count: columns.count)
        for index in 0..<rows.count {
            for slot in texts.indices { texts[slot] = nil }
            var column = 0
            var sale: Int64?, list: Int64?
            rows.forEachValue(inRow: index) { value in
                defer { column += 1 }
                switch value {
                case .text(let bytes):
                    for (slot, wanted) in columns.enumerated() where wanted == column { texts[slot] = bytes }
                case .integer(let number):
                    if column == salePriceColumn { sale = number } else if column == listPriceColumn { list = number }
                case .null:
                    break
                }
            }
            chunk.append(texts, price: sale ?? list)
            if chunk.text.count >= ProductWords.bytes { try flush() }
        }
    }

    /// Hands the words kept since the last call to the index's thread.
    func flush() throws {
        guard !chunk.entries.isEmpty else { return }
        guard queue.put(chunk) else {
            try worker.join()
            throw SortError.stopped
        }
        guard sortsQueue.put(chunk) else {
            try sortsWorker.join()
            throw SortError.stopped
        }
        chunk = ProductWords()
    }

    /// Hands the last words to the index's thread, which then completes the index.
    func finishWriting() throws {
        try flush()
        queue.close()
        sortsQueue.close()
    }

    /// Waits for the index and copies it into the build on `connection`, which must be outside a
    /// transaction (SQLite attaches files only there).
    func finish(into connection: Connection) throws {
        try finishWriting()
        try worker.join()
        try sortsWorker.join()
        for (file, schema) in [(path, "word_build"), (sortsPath, "sort_build")] {
            let attach = try connection.prepare("ATTACH DATABASE ?1 AS \(schema)")
            try attach.bind(1, file)
            try attach.using { _ = try attach.step() }
        }
        try connection.begin(.deferred)
        try WordLists.adopt(from: "word_build", connection)
        try connection.execute("DELETE FROM main.\(SortLists.table); INSERT INTO main.\(SortLists.table) SELECT * FROM sort_build.\(SortLists.table);")
        try connection.commit()
        try connection.execute("DETACH DATABASE word_build; DETACH DATABASE sort_build;")
        try FileSystem.removeIfPresent(path)
        try FileSystem.removeIfPresent(sortsPath)
    }

    /// Stops the threads and deletes their files.
    func abandon() {
        queue.close(throwing: SortError.stopped)
        sortsQueue.close(throwing: SortError.stopped)
        _ = try? worker.join()
        _ = try? sortsWorker.join()
        try? FileSystem.removeIfPresent(path)
        try? FileSystem.removeIfPresent(sortsPath)
    }

    /// A file of a thread's own, which nobody reads before it is complete (a crash leaves it to
    /// the next import to delete), with the tables `statements` create.
    private static func buildFile(at path: String, pageSize: Int, _ statements: String) throws -> Connection {
        let connection = try Connection(path: path, mode: .create)
        try connection.execute("""
            PRAGMA page_size = \(pageSize);
            PRAGMA journal_mode = OFF;
            PRAGMA synchronous = OFF;
            PRAGMA locking_mode = EXCLUSIVE;
            PRAGMA secure_delete = OFF;
            PRAGMA cache_size = -2048;
            \(statements)
            """)
        try connection.begin(.deferred)
        return connection
    }

    /// The lists' thread: every product's price and title keys, sorted in bounded memory.
    private static func buildSorts(at path: String, pageSize: Int, budget: Int, from queue: BlockingQueue<ProductWords>) throws {
        let connection = try buildFile(at: path, pageSize: pageSize, SortLists.createStatement)
        var writer = try SortListsWriter(connection: connection, capacity: SQLitePostingStore.blockCapacity(pageSize: pageSize),
                                         spillPath: path, budget: budget)
        while let chunk = try queue.take() {
            try chunk.text.withUnsafeBytes { text in
                for entry in chunk.entries {
                    let start = Int(entry.start), idLength = Int(entry.lengths.0), titleLength = Int(entry.lengths.1)
                    let productId = UnsafeRawBufferPointer(rebasing: text[start..<start + idLength])
                    let title = titleLength < 0 ? nil : UnsafeRawBufferPointer(rebasing: text[start + idLength..<start + idLength + titleLength])
                    try writer.add(productId: productId, price: entry.hasPrice ? entry.price : nil, title: title)
                }
            }
        }
        try writer.finish()
        try connection.commit()
    }

    /// The index's thread: places and folds every product, spilling segments, then merges them.
    private static func build(at path: String, pageSize: Int, budget: Int, from queue: BlockingQueue<ProductWords>) throws {
        let connection = try buildFile(at: path, pageSize: pageSize, WordLists.createStatements)
        var writer = try WordListsWriter(connection: connection, spillPath: path, budget: budget, sorting: false)
        var fields: [UnsafeRawBufferPointer?] = [nil, nil, nil]
        while let chunk = try queue.take() {
            try chunk.text.withUnsafeBytes { text in
                for entry in chunk.entries {
                    var start = Int(entry.start)
                    let productId = UnsafeRawBufferPointer(rebasing: text[start..<start + Int(entry.lengths.0)])
                    start += Int(entry.lengths.0)
                    for field in 0..<3 {
                        let length = Int(entry.length(of: field + 1))
                        if length < 0 {
                            fields[field] = nil
                        } else {
                            fields[field] = UnsafeRawBufferPointer(rebasing: text[start..<start + length])
                            start += length
                        }
                    }
                    try writer.add(productId: productId, fields: fields, price: nil)
                }
            }
        }
        try writer.finish()
        try connection.commit()
    }
}

/// The productIds and indexed fields of some products, on their way to the index's thread: each
/// product's productId, title, brand and type as UTF-8 one after the other in one buffer.
private struct ProductWords {
    struct Entry {
        /// Where the product's productId starts in ``text``.
        var start: Int32
        /// The productId's length, then each field's in bytes, -1 for NULL.
        var lengths: (Int32, Int32, Int32, Int32)
        /// The product's price (sale, else list), when ``hasPrice``.
        var price: Int64
        var hasPrice: Bool

        func length(of index: Int) -> Int32 {
            switch index {
            case 0: lengths.0
            case 1: lengths.1
            case 2: lengths.2
            default: lengths.3
            }
        }
    }

    /// The text a chunk holds before it is handed over. Up to six chunks are alive at once (one
    /// filling, two queued for each thread, one in each thread's hands): at 1 MiB, with their
    /// entries, they were 5.5 MB of the plain million's heap peak (heaptrack).
    static let bytes = 256 << 10

    var text: [UInt8] = []
    var entries: [Entry] = []

    init() {
        text.reserveCapacity(Self.bytes + (64 << 10))
        // A product's text is rarely under 16 bytes (a productId and a title).
        entries.reserveCapacity(Self.bytes / 16)
    }

    /// Appends a product: its productId then its title, brand and type (nil when missing), and its price.
    mutating func append(_ values: [UnsafeRawBufferPointer?], price: Int64?) {
        let start = Int32(text.count)
        for value in values { if let value { text.append(contentsOf: value) } }
        func length(_ index: Int) -> Int32 { values[index].map { Int32($0.count) } ?? -1 }
        entries.append(Entry(start: start, lengths: (max(0, length(0)), length(1), length(2), length(3)),
                             price: price ?? 0, hasPrice: price != nil))
    }
}
