import CSQLite

/// An open SQLite database connection.
///
/// A connection belongs to one thread or task at a time; it is not `Sendable`. Statements it
/// prepares keep it alive.
public final class Connection {
    /// How to open the file.
    public enum Mode: Sendable {
        /// Read only; the file must exist.
        case readOnly
        /// Read and write; the file must exist.
        case readWrite
        /// Read and write, creating the file when it is missing.
        case create
    }

    let handle: OpaquePointer
    /// The path the connection was opened with.
    public let path: String

    /// Opens the database at `path`.
    public init(path: String, mode: Mode = .create) throws {
        _ = Self.withoutMemoryStatistics
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let error = SQLiteError(connection: db, code: code, path: path)
            sqlite3_close_v2(db)
            throw error
        }
        handle = db
        self.path = path
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Opens the database at `path` for reading only: read-write with every statement that would
    /// write refused (`PRAGMA query_only`), so that the last connection to close folds a file's
    /// write-ahead log back and deletes it and its index (`-wal`, `-shm`), which a read-only one
    /// cannot, and rolls back a killed writer's hot journal; read-only when the file may not be written.
    public static func reading(_ path: String) throws -> Connection {
        let connection: Connection
        do {
            connection = try Connection(path: path, mode: .readWrite)
        } catch let error as SQLiteError where error.isReadOnly || error.isCannotOpen {
            return try Connection(path: path, mode: .readOnly)
        }
        try connection.execute("PRAGMA query_only = 1")
        return connection
    }

    /// Turns off SQLite's count of the memory it uses, once, before its first connection.
    ///
    /// The count takes one process-wide lock at every allocation, which two threads writing two
    /// databases (an import and its word index) contend for: a realistic million-product import
    /// made three million `futex` calls, 4 s of system time. It is a process-wide setting: it only
    /// takes effect if this library opens the process's first connection, and it turns off
    /// `sqlite3_memory_used` and the soft heap limit for every connection of the process.
    private static let withoutMemoryStatistics: Void = {
        _ = csqlite_disable_memory_statistics()
    }()

    /// Runs one or more SQL statements that take no parameters and return no rows you need.
    public func execute(_ sql: String) throws {
        try check(sqlite3_exec(handle, sql, nil, nil, nil), sql: sql)
    }

    /// Throws the connection's error unless `code` is `SQLITE_OK`.
    @inline(__always)
    func check(_ code: Int32, sql: String?) throws {
        guard code == SQLITE_OK else { throw SQLiteError(connection: handle, code: code, sql: sql, path: path) }
    }

    /// Compiles `sql` into a reusable statement.
    public func prepare(_ sql: String) throws -> Statement {
        try Statement(connection: self, sql: sql)
    }

    /// True when the database has a table (or view) named `name`.
    public func hasTable(_ name: String) throws -> Bool {
        let statement = try prepare("SELECT count(*) FROM sqlite_master WHERE name = ?1")
        try statement.bind(1, name)
        return try statement.step() && statement.int64(at: 0) > 0
    }

    /// How many rows table `name` holds; 0 when there is no such table (a catalog older than it).
    func rowCount(ofTableIfPresent name: String) throws -> Int {
        guard try hasTable(name) else { return 0 }
        return Int(try scalarInt("SELECT count(*) FROM \(name)") ?? 0)
    }

    /// Deletes every row of table `name`, if there is one.
    func deleteRows(ofTableIfPresent name: String) throws {
        guard try hasTable(name) else { return }
        try execute("DELETE FROM \(name)")
    }

    /// The first column of the first row `sql` returns, as an integer.
    public func scalarInt(_ sql: String) throws -> Int64? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.isNull(at: 0) ? nil : statement.int64(at: 0)
    }

    /// The first column of the first row `sql` returns, as text.
    public func scalarText(_ sql: String) throws -> String? {
        let statement = try prepare(sql)
        guard try statement.step() else { return nil }
        return statement.text(at: 0)
    }

    /// Rows changed by the most recent INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// The rows inserted, updated or deleted since the connection opened, by triggers too.
    public var totalChanges: Int { Int(sqlite3_total_changes64(handle)) }

    /// Waits up to `milliseconds` for another connection's lock before failing with `SQLITE_BUSY`.
    public func setBusyTimeout(milliseconds: Int32) {
        // Only fails for a closed connection, which this object never holds.
        let code = sqlite3_busy_timeout(handle, milliseconds)
        assert(code == SQLITE_OK)
    }

    /// Stops the statement running on this connection at its next step; safe from any thread.
    public func interrupt() {
        sqlite3_interrupt(handle)
    }

    /// Runs `body`, calling `tick` about every `instructions` steps of SQLite's virtual machine
    /// in the statements it runs (so a long sort, which one step of its statement does whole,
    /// can report progress); once `tick` returns false, the statement stops with `SQLITE_INTERRUPT`.
    public func reportingProgress<T>(every instructions: Int32, _ tick: () -> Bool, _ body: () throws -> T) throws -> T {
        try withoutActuallyEscaping(tick) { tick in
            let box = Unmanaged.passRetained(ProgressTick(tick))
            sqlite3_progress_handler(handle, instructions, { context in
                guard let context else { return 0 }
                return Unmanaged<ProgressTick>.fromOpaque(context).takeUnretainedValue().tick() ? 0 : 1
            }, box.toOpaque())
            defer {
                sqlite3_progress_handler(handle, 0, nil, nil)
                box.release()
            }
            return try body()
        }
    }

    /// The closure ``reportingProgress(every:_:_:)`` hands SQLite's progress handler.
    private final class ProgressTick {
        let tick: () -> Bool
        init(_ tick: @escaping () -> Bool) { self.tick = tick }
    }

    /// Runs `body` inside a transaction: committed when it returns, rolled back when it throws.
    ///
    /// See <https://sqlite.org/lang_transaction.html> for what the kinds mean.
    public func transaction<T>(_ kind: TransactionKind, _ body: () throws -> T) throws -> T {
        try begin(kind)
        do {
            let result = try body()
            try commit()
            return result
        } catch {
            rollBackAfterFailure()
            throw error
        }
    }

    /// Runs `body`, which only reads, inside one read transaction, unless one is open already:
    /// many short statements then take the file's shared lock once, not once each (two system
    /// calls a statement otherwise), and read one state of the file.
    public func reading<T>(_ body: () throws -> T) throws -> T {
        guard sqlite3_get_autocommit(handle) != 0 else { return try body() }
        return try transaction(.deferred, body)
    }

    /// Begins a transaction that spans several calls; end it with ``commit()`` or ``rollback()``.
    public func begin(_ kind: TransactionKind) throws {
        try execute("BEGIN \(kind.rawValue)")
    }

    /// Commits the open transaction.
    public func commit() throws {
        try execute("COMMIT")
    }

    /// Rolls the open transaction back.
    public func rollback() throws {
        try execute("ROLLBACK")
    }

    /// Rolls back after another error, which is the one worth reporting: SQLite may already
    /// have rolled the transaction back itself (after `SQLITE_FULL`, say), and then this fails
    /// with "no transaction is active", which says nothing new.
    func rollBackAfterFailure() {
        if sqlite3_get_autocommit(handle) == 0 { try? rollback() }
    }

    /// True while a transaction is open on this connection.
    public var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Copies every page of `source`'s main database into this connection's, in one write
    /// transaction of this connection (SQLite's backup API): the destination becomes the source,
    /// its readers keep the state they began with, and a reader that begins later sees the copy.
    /// Both must have the same page size when this one is in WAL mode.
    public func replaceContents(with source: Connection) throws {
        guard let backup = sqlite3_backup_init(handle, "main", source.handle, "main") else {
            throw SQLiteError(connection: handle, code: sqlite3_errcode(handle), sql: nil, path: path)
        }
        let stepped = sqlite3_backup_step(backup, -1)
        let finished = sqlite3_backup_finish(backup)
        guard stepped == SQLITE_DONE else { throw SQLiteError(connection: handle, code: stepped, sql: nil, path: path) }
        try check(finished, sql: nil)
    }

    /// How a transaction takes its locks.
    public enum TransactionKind: String, Sendable {
        case deferred = "DEFERRED", immediate = "IMMEDIATE", exclusive = "EXCLUSIVE"
    }
}

/// Quotes `name` as an SQL identifier (`"a""b"`), so any header can be a column name.
public func quoteIdentifier(_ name: String) -> String {
    "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
}
