import Testing
@testable import ProductCatalog

/// The SQLite wrapper: every failure is a typed error with its context, bindings never outlive a
/// use, and one transaction API serves every writer.
@Suite struct SQLiteLayerTests {
    let directory: TemporaryDirectory
    let path: String
    let connection: Connection

    init() throws {
        directory = try TemporaryDirectory()
        path = directory.file("layer.sqlite")
        connection = try Connection(path: path, mode: .create)
        try connection.execute("CREATE TABLE t (a TEXT, b INTEGER NOT NULL DEFAULT 0, UNIQUE (a))")
    }

    func values() throws -> [String?] {
        let statement = try connection.prepare("SELECT a FROM t ORDER BY rowid")
        return try statement.using {
            var values: [String?] = []
            while try statement.step() { values.append(statement.text(at: 0)) }
            return values
        }
    }

    @Test func aFailedBindIsATypedErrorWithCodeMessageSQLAndPath() throws {
        let statement = try connection.prepare("INSERT INTO t (a) VALUES (?1)")
        let error = try #require(throws: SQLiteError.self) { try statement.bind(2, "out of range") }
        #expect(error.code == 25)  // SQLITE_RANGE
        #expect(error.sql == "INSERT INTO t (a) VALUES (?1)")
        #expect(error.path == path)
        #expect(!error.message.isEmpty && error.description.contains(path))
    }

    @Test func anExecutionClearsItsBindingsSoBorrowedBytesAreNeverReadAgain() throws {
        let statement = try connection.prepare("INSERT INTO t (a) VALUES (?1)")
        try Array("borrowed".utf8).withUnsafeBufferPointer { bytes in
            try statement.execute { try $0.bindText(1, unsafeBytes: bytes) }
        }
        // Run again binding nothing: a cleared parameter is NULL, not the bytes of the last run.
        try statement.execute { _ in }
        #expect(try values() == ["borrowed", nil])
    }

    @Test func aStatementThatFailedIsReadyForItsNextUse() throws {
        let statement = try connection.prepare("INSERT INTO t (a) VALUES (?1)")
        try statement.using { try statement.bind(1, "x"); try statement.step() }
        let error = try #require(throws: SQLiteError.self) {
            try statement.using { try statement.bind(1, "x"); try statement.step() }
        }
        #expect(error.isConstraint)
        try statement.using { try statement.bind(1, "y"); try statement.step() }
        #expect(try values() == ["x", "y"])
    }

    @Test func aTransactionCommitsWhatItsBodyDidOrRollsItAllBack() throws {
        try connection.transaction(.deferred) { try connection.execute("INSERT INTO t (a) VALUES ('kept')") }
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            try connection.transaction(.immediate) {
                try connection.execute("INSERT INTO t (a) VALUES ('undone')")
                throw Stop()
            }
        }
        #expect(try values() == ["kept"])
    }

    @Test func anImmediateTransactionKeepsOtherWritersOutButNotReaders() throws {
        let other = try Connection(path: path, mode: .readWrite)
        try connection.transaction(.immediate) {
            let error = try #require(throws: SQLiteError.self) { try other.begin(.immediate) }
            #expect(error.isBusy && error.path == path)
            #expect(try other.scalarInt("SELECT count(*) FROM t") == 0)
        }
        try other.transaction(.immediate) { try other.execute("INSERT INTO t (a) VALUES ('after')") }
        #expect(try values() == ["after"])
    }
}
