/// Rows added to or updated in the live catalog, in one transaction.
///
/// For feed updates (`--mode upsert`): products in the file replace those with the same
/// productId (only the columns the file has), new ones are added, others stay. The catalog
/// keeps its rollback journal, so a crash part-way leaves a hot journal that SQLite rolls back
/// on the next open: readers see the catalog before the import or after it, never between.
/// Extra columns the catalog lacks are added first, inside the same transaction.
final class CatalogUpsert: CatalogWriter {
    let livePath: String
    private var connection: Connection?
    private var inserter: BatchInserter?
    private var countBefore = 0

    /// Opens the existing catalog at `livePath` and starts the transaction.
    init(livePath: String, extraColumns: [String], insertColumns: [String]) throws {
        self.livePath = livePath
        switch try CatalogSchema.kind(ofFileAt: livePath) {
        case .catalog: break
        case .missing, .empty: throw ImportError.catalog(.noCatalog(path: livePath))
        case .otherDatabase, .notADatabase: throw ImportError.catalog(.notACatalog(path: livePath))
        }
        let connection = try Self.open(livePath)
        self.connection = connection
        try database {
            connection.setBusyTimeout(milliseconds: 30_000)
            try connection.execute("PRAGMA journal_mode = DELETE; PRAGMA cache_size = -8192; BEGIN IMMEDIATE")
            var existing = Set<String>()
            let columns = try connection.prepare("SELECT name FROM pragma_table_info('\(CatalogSchema.table)')")
            while try columns.step() { existing.insert(columns.text(at: 0)?.lowercased() ?? "") }
            for name in extraColumns where !existing.contains(name.lowercased()) {
                try connection.execute("ALTER TABLE \(CatalogSchema.table) ADD COLUMN \(quoteIdentifier(name)) TEXT")
            }
            countBefore = Int(try connection.scalarInt("SELECT count(*) FROM \(CatalogSchema.table)") ?? 0)
            let updates = insertColumns.dropFirst().map { "\(quoteIdentifier($0)) = excluded.\(quoteIdentifier($0))" }
            inserter = try BatchInserter(
                connection: connection, columns: insertColumns,
                conflictClause: updates.isEmpty
                    ? "ON CONFLICT (productId) DO NOTHING"
                    : "ON CONFLICT (productId) DO UPDATE SET " + updates.joined(separator: ", "))
        }
    }

    private static func open(_ path: String) throws -> Connection {
        do {
            return try Connection(path: path, mode: .readWrite)
        } catch let error as SQLiteError {
            throw ImportError.database(path: path, error)
        }
    }

    /// Products the catalog held before the import.
    var productsBefore: Int { countBefore }

    func insert(_ batch: RowBatch, kinds: UnsafeBufferPointer<Bool>) throws {
        try database { try inserter?.insert(batch, kinds: kinds) }
    }

    /// One transaction for the whole file: nothing to do between batches.
    func commitBatch() throws {}

    func finish() throws -> Int {
        guard let connection else { return 0 }
        return try database {
            inserter = nil
            let count = try connection.scalarInt("SELECT count(*) FROM \(CatalogSchema.table)") ?? 0
            try connection.execute("COMMIT")
            self.connection = nil
            return Int(count)
        }
    }

    /// The commit already made the rows visible.
    func install() throws {}

    func abandon() {
        inserter = nil
        try? connection?.execute("ROLLBACK")
        connection = nil
    }
}
