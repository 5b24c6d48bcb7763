/// The writes of an upsert, in the live file (``CatalogUpdate``) or in its copy (``CatalogBuild``):
/// inserts that add new products and change the others, and, when asked, the deletes of the
/// products the file does not list (``MissingProducts``).
final class UpsertWriter {
    private let inserter: BatchInserter
    private let missing: MissingProducts?
    private let connection: Connection
    /// The connection's count of changed rows when the writes began.
    private let changesBefore: Int

    /// Readies the catalog on `connection` for rows of `insertColumns` (productId first;
    /// `extraColumns` the file's own, added when the catalog lacks them).
    init(connection: Connection, extraColumns: [String], insertColumns: [String], deletingMissing: DeletionOfMissing?) throws {
        inserter = try Self.inserter(into: connection, extraColumns: extraColumns, insertColumns: insertColumns)
        missing = try deletingMissing.map { try MissingProducts(connection: connection, sparing: $0.spared) }
        self.connection = connection
        changesBefore = connection.totalChanges
    }

    /// True when no write changed a row (every row of the file equal to the stored product):
    /// the caller may roll back, leaving the file as it was, instead of committing.
    var changedNothing: Bool { connection.totalChanges == changesBefore }

    /// Products deleted because the file did not list them.
    var deleted: Int { missing?.deleted ?? 0 }

    /// Writes rows sorted by productId; `parameters` says how each slot of a row is bound.
    func write(_ rows: RowBatch, parameters: UnsafeBufferPointer<EncodedRow.Parameter>) throws {
        try missing?.pass(rows)
        try inserter.insert(rows, parameters: parameters)
    }

    /// Deletes the products after the file's last row, when asked.
    func finish() throws {
        try missing?.finish()
    }

    /// Inserts that add new products and update the others only where the file changes a value:
    /// a row equal to the stored product writes nothing, so its triggers (word index, facets,
    /// edit log) do not fire and the journal does not grow.
    private static func inserter(into connection: Connection, extraColumns: [String], insertColumns: [String]) throws -> BatchInserter {
        try CatalogSchema.upgrade(connection)
        if insertColumns.contains(ProductField.groupId.columnName) { try FamilyIndex.create(connection) }
        var existing = Set<String>()
        let columns = try connection.prepare("SELECT name FROM pragma_table_info('\(CatalogSchema.table)')")
        while try columns.step() { existing.insert(columns.text(at: 0)?.lowercased() ?? "") }
        for name in extraColumns where !existing.contains(name.lowercased()) {
            try connection.execute("ALTER TABLE \(CatalogSchema.table) ADD COLUMN \(quoteIdentifier(name)) TEXT")
        }
        let updated = insertColumns.dropFirst().map(quoteIdentifier)
        guard !updated.isEmpty else {
            return try BatchInserter(connection: connection, columns: insertColumns, conflictClause: "ON CONFLICT (productId) DO NOTHING")
        }
        // `IS NOT` compares NULLs as values; a text column compares with its own collation (BINARY).
        let changed = updated.map { "\($0) IS NOT excluded.\($0)" }
        return try BatchInserter(
            connection: connection, columns: insertColumns,
            conflictClause: "ON CONFLICT (productId) DO UPDATE SET " + updated.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
                + " WHERE " + changed.joined(separator: " OR "))
    }
}
