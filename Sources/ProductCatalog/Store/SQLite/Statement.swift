import CSQLite

/// A compiled SQL statement, reused across executions; finalized when released.
///
/// Parameter indices are 1-based and column indices 0-based, as in SQLite's C API. Every call
/// into SQLite is checked: a failure throws ``SQLiteError`` with the code, SQLite's message, this
/// statement's SQL and the database's path.
public final class Statement {
    let handle: OpaquePointer
    /// Kept so the connection outlives its statements.
    let connection: Connection
    /// The SQL the statement was compiled from.
    public let sql: String

    init(connection: Connection, sql: String) throws {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw SQLiteError(connection: connection.handle, code: code, sql: sql, path: connection.path)
        }
        handle = statement
        self.connection = connection
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    @inline(__always)
    private func check(_ code: Int32) throws {
        if code != SQLITE_OK { try connection.check(code, sql: sql) }
    }

    // MARK: - Binding

    /// Binds a string as TEXT (SQLite keeps its own copy).
    public func bind(_ index: Int32, _ text: String?) throws {
        guard let text else { return try bindNull(index) }
        try check(sqlite3_bind_text(handle, index, text, -1, csqlite_transient()))
    }

    /// Binds UTF-8 bytes as TEXT (SQLite keeps its own copy).
    public func bind(_ index: Int32, utf8 bytes: [UInt8]) throws {
        try bytes.withUnsafeBufferPointer { bytes in
            let base = bytes.baseAddress.map(UnsafeRawPointer.init) ?? UnsafeRawPointer(bitPattern: 1)!
            try check(sqlite3_bind_text(handle, index, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), csqlite_transient()))
        }
    }

    /// Binds `bytes` as a BLOB, compared byte by byte (SQLite keeps its own copy).
    public func bind(_ index: Int32, blob bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { buffer in
            let base = buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
            try check(sqlite3_bind_blob(handle, index, base, Int32(buffer.count), csqlite_transient()))
        }
    }

    /// Binds an integer.
    @inline(__always)
    public func bind(_ index: Int32, _ value: Int64?) throws {
        guard let value else { return try bindNull(index) }
        try check(sqlite3_bind_int64(handle, index, value))
    }

    /// Binds a pointer of the kind `type` names (`sqlite3_bind_pointer`), for an extension's
    /// interface such as FTS5's; `type` must stay valid while the statement uses the binding.
    func bindPointer(_ index: Int32, _ pointer: UnsafeMutableRawPointer, type: UnsafePointer<CChar>) throws {
        try check(sqlite3_bind_pointer(handle, index, pointer, type, nil))
    }

    /// Binds NULL.
    @inline(__always)
    public func bindNull(_ index: Int32) throws {
        try check(sqlite3_bind_null(handle, index))
    }

    /// The parameters of one ``execute(_:)``, which may bind bytes without copying them.
    ///
    /// It exists only inside ``execute(_:)``'s closure (it can be neither copied nor kept), and
    /// the statement's bindings are cleared before ``execute(_:)`` returns: bytes bound here are
    /// read by SQLite only while the caller's buffer is certainly alive.
    public struct Bindings: ~Copyable {
        fileprivate let statement: Statement

        /// Binds UTF-8 bytes as TEXT without copying them.
        @inline(__always)
        public func bindText(_ index: Int32, unsafeBytes bytes: UnsafeBufferPointer<UInt8>) throws {
            // A nil pointer would bind NULL; an empty field is the empty string.
            let base = bytes.baseAddress.map(UnsafeRawPointer.init) ?? UnsafeRawPointer(bitPattern: 1)!
            try statement.check(sqlite3_bind_text(
                statement.handle, index, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), csqlite_static()))
        }

        /// Binds an integer.
        @inline(__always)
        public func bind(_ index: Int32, _ value: Int64) throws {
            try statement.check(sqlite3_bind_int64(statement.handle, index, value))
        }

        /// Binds NULL.
        @inline(__always)
        public func bindNull(_ index: Int32) throws {
            try statement.check(sqlite3_bind_null(statement.handle, index))
        }
    }

    // MARK: - Running

    /// Binds the parameters with `bind`, runs the statement to completion (for writes), then
    /// resets it and clears every binding.
    // Not inlined: Swift 6.3's optimizer crashes (signal 6 in EarlyPerfInliner) inlining a
    // closure that borrows the noncopyable Bindings. One call per 32 rows costs nothing.
    @inline(never)
    public func execute(_ bind: (borrowing Bindings) throws -> Void) throws {
        try using {
            try bind(Bindings(statement: self))
            while try step() {}
        }
    }

    /// Runs `body`, which binds, steps and reads rows, then resets the statement and clears its
    /// bindings, so it is ready for the next use and holds no value of this one.
    @inline(__always)
    public func using<T>(_ body: () throws -> T) throws -> T {
        let result: T
        do {
            result = try body()
        } catch {
            // The reset repeats the failed step's error, already thrown.
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
            throw error
        }
        try check(sqlite3_reset(handle))
        try check(sqlite3_clear_bindings(handle))
        return result
    }

    /// Runs the statement to its next row: `true` when a row is ready to read, `false` when done.
    @discardableResult
    @inline(__always)
    public func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteError(connection: connection.handle, code: code, sql: sql, path: connection.path)
        }
    }

    // MARK: - Reading columns

    /// The number of columns in each result row.
    public var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The name of result column `index`.
    public func columnName(at index: Int32) -> String {
        String(cString: sqlite3_column_name(handle, index))
    }

    /// True when column `index` of the current row is NULL.
    public func isNull(at index: Int32) -> Bool {
        sqlite3_column_type(handle, index) == SQLITE_NULL
    }

    /// Column `index` of the current row as an integer.
    public func int64(at index: Int32) -> Int64 {
        sqlite3_column_int64(handle, index)
    }

    /// Calls `body` with the bytes of column `index` of the current row (UTF-8 for text; empty
    /// for NULL), valid only during the call.
    public func withBytes<T>(at index: Int32, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let pointer = sqlite3_column_text(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        return try body(UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
    }

    /// Column `index` of the current row as text, or nil when it is NULL.
    public func text(at index: Int32) -> String? {
        guard let pointer = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }
}

extension Statement {
    /// Calls `body` with the bytes of each column of `columns` of the current row (nil for NULL),
    /// valid only during the call.
    public func withColumns<T>(_ columns: ClosedRange<Int>, _ body: ([UnsafeRawBufferPointer?]) throws -> T) throws -> T {
        var views: [UnsafeRawBufferPointer?] = []
        views.reserveCapacity(columns.count)
        func next(_ column: Int) throws -> T {
            guard column <= columns.upperBound else { return try body(views) }
            if isNull(at: Int32(column)) {
                views.append(nil)
                return try next(column + 1)
            }
            return try withBytes(at: Int32(column)) { bytes in
                views.append(bytes)
                return try next(column + 1)
            }
        }
        return try next(columns.lowerBound)
    }
}
