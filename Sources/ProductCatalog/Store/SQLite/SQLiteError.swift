import CSQLite

/// An error reported by SQLite: its extended result code, its message, the SQL that failed and the file.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The extended result code, such as `SQLITE_CONSTRAINT_PRIMARYKEY` (1555).
    public var extendedCode: Int32
    /// SQLite's own explanation.
    public var message: String
    /// The statement that failed, when there was one.
    public var sql: String?
    /// The database file, as the connection was opened.
    public var path: String?

    public init(extendedCode: Int32, message: String, sql: String? = nil, path: String? = nil) {
        self.extendedCode = extendedCode
        self.message = message
        self.sql = sql
        self.path = path
    }

    /// The primary result code, such as `SQLITE_FULL` (13).
    public var code: Int32 { extendedCode & 0xFF }

    /// True when the disk (or the database's `max_page_count`) is full.
    public var isFull: Bool { code == SQLITE_FULL }
    /// True when the file is not a database.
    public var isNotADatabase: Bool { code == SQLITE_NOTADB }
    /// True when a uniqueness or other constraint failed.
    public var isConstraint: Bool { code == SQLITE_CONSTRAINT }
    /// True when the statement was stopped by ``Connection/interrupt()``.
    public var isInterrupted: Bool { code == SQLITE_INTERRUPT }
    /// True when another connection holds the lock past the busy timeout.
    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
    /// True when the file or its folder cannot be written.
    public var isReadOnly: Bool { code == SQLITE_READONLY && !isHotJournal }
    /// True when the file could not be opened.
    public var isCannotOpen: Bool { code == SQLITE_CANTOPEN }
    /// True when a read-only connection met a hot journal it cannot roll back
    /// (`SQLITE_READONLY_ROLLBACK`): a writer was killed mid-transaction.
    public var isHotJournal: Bool { extendedCode == 776 }

    public var description: String {
        var text = "SQLite error \(extendedCode): \(message)"
        if let path { text += " in \(path)" }
        if let sql { text += " (while running: \(sql))" }
        return text
    }

    /// The error the connection holds after a call that returned `code`.
    init(connection: OpaquePointer?, code: Int32, sql: String? = nil, path: String?) {
        let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
        self.init(extendedCode: extended, message: message, sql: sql, path: path)
    }
}
