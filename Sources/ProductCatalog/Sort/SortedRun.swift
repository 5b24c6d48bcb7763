/// A sequence of encoded rows in catalog order, read one at a time by ``RowMerger``.
protocol SortedRun: AnyObject {
    /// The row under the cursor; valid until ``advance()``.
    var current: EncodedRow { get }
    /// ``current``'s key prefix.
    var currentPrefix: KeyPrefix { get }
    /// Moves to the next row; false at the end.
    func advance() throws -> Bool
}

/// The last run, still in the arena: merged straight from memory, never written out.
final class MemoryRun: SortedRun {
    private let arena: RowArena
    private var index = 0

    /// A run over the sorted arena; it must not be empty.
    init(arena: RowArena) {
        precondition(!arena.isEmpty)
        self.arena = arena
    }

    var current: EncodedRow { arena.row(index) }
    var currentPrefix: KeyPrefix { arena.entries[index].prefix }

    func advance() throws -> Bool {
        index += 1
        return index < arena.entries.count
    }
}

/// A sorted run spilled to an unlinked temporary file (``SpillFile``): gone when closed, even after a crash.
final class FileRun: SortedRun {
    private let file: SpillFile
    /// Where ``current`` starts, in the file's buffer.
    private var row: UnsafeRawPointer?
    private(set) var currentPrefix = KeyPrefix(high: 0, low: 0)

    /// Writes the arena's rows, in entry order, to a new file next to `pathPrefix`.
    convenience init(writing arena: RowArena, pathPrefix: String, number: Int, bufferCapacity: Int = 64 << 10) throws {
        try self.init(path: "\(pathPrefix).run\(number)", bufferCapacity: bufferCapacity) { append in
            for index in arena.entries.indices { try append(arena.row(index)) }
        }
    }

    /// Writes the rows `merger` gives, in order, to a new file next to `pathPrefix`: one run in
    /// place of the runs it merges.
    convenience init(merging merger: RowMerger, pathPrefix: String, number: Int, bufferCapacity: Int = 64 << 10) throws {
        try self.init(path: "\(pathPrefix).run\(number)", bufferCapacity: bufferCapacity) { append in
            try merger.forEach(append)
        }
    }

    /// Creates the file at `path`, writes the rows `rows` hands to its argument, and reads the
    /// first one back.
    private init(path: String, bufferCapacity: Int, rows: ((EncodedRow) throws -> Void) throws -> Void) throws {
        let file = try SpillFile(path: path, cutShort: "a spilled run ends inside a row", capacity: bufferCapacity)
        self.file = file
        try rows { row in try file.append(UnsafeRawBufferPointer(start: row.base, count: row.totalSize)) }
        try file.finishWriting()
        guard try load() else { throw ByteSourceError(source: path, reason: "an empty run was written") }
    }

    var current: EncodedRow { EncodedRow(row!) }

    func advance() throws -> Bool {
        try load()
    }

    /// Reads the next whole row; false at the end of the file.
    private func load() throws -> Bool {
        let header = try file.peek(count: MemoryLayout<UInt32>.size)
        guard let base = header.baseAddress, !header.isEmpty else { return false }
        guard header.count == MemoryLayout<UInt32>.size else { throw ByteSourceError(source: file.path, reason: "a spilled run ends inside a row") }
        row = try file.read(count: EncodedRow(base).totalSize).baseAddress
        currentPrefix = current.keyPrefix
        return true
    }
}
