import CSQLite

/// A compiled SQL statement, reused across executions; finalized when released.
///
/// Parameter indices are 1-based and column indices 0-based, as in SQLite's C API.
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
            throw SQLiteError(connection: connection.handle, code: code, sql: sql)
        }
        handle = statement
        self.connection = connection
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    // MARK: - Binding

    /// Binds UTF-8 bytes as TEXT without copying them: they must stay valid until the next ``step()``.
    @inline(__always)
    public func bindText(_ index: Int32, unsafeBytes bytes: UnsafeBufferPointer<UInt8>) {
        // A nil pointer would bind NULL; an empty field is the empty string.
        let base = bytes.baseAddress.map(UnsafeRawPointer.init) ?? UnsafeRawPointer(bitPattern: 1)!
        sqlite3_bind_text(handle, index, base.assumingMemoryBound(to: CChar.self), Int32(bytes.count), csqlite_static())
    }

    /// Binds a string as TEXT (copied).
    public func bind(_ index: Int32, _ text: String?) {
        guard let text else { return bindNull(index) }
        sqlite3_bind_text(handle, index, text, -1, csqlite_transient())
    }

    /// Binds an integer.
    @inline(__always)
    public func bind(_ index: Int32, _ value: Int64?) {
        guard let value else { return bindNull(index) }
        sqlite3_bind_int64(handle, index, value)
    }

    /// Binds NULL.
    @inline(__always)
    public func bindNull(_ index: Int32) {
        sqlite3_bind_null(handle, index)
    }

    // MARK: - Running

    /// Runs the statement to its next row: `true` when a row is ready to read, `false` when done.
    @discardableResult
    @inline(__always)
    public func step() throws -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = SQLiteError(connection: connection.handle, code: code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Makes the statement ready to run again; bindings are kept.
    @inline(__always)
    public func reset() {
        sqlite3_reset(handle)
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

    /// Column `index` of the current row as text, or nil when it is NULL.
    public func text(at index: Int32) -> String? {
        guard let pointer = sqlite3_column_text(handle, index) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }
}
