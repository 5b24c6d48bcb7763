extension BatchInserter {
    /// Readies the catalog on `connection` for an upsert of rows of `insertColumns` (productId
    /// first; `extraColumns` the file's own, added when the catalog lacks them) and returns inserts
    /// that add new products and update the others only where the file changes a value: a row
    /// equal to the stored product writes nothing, so its triggers (word index, facets, edit log)
    /// do not fire and the journal does not grow.
    static func upsert(into connection: Connection, extraColumns: [String], insertColumns: [String]) throws -> BatchInserter {
        try CatalogSchema.upgrade(connection)
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
