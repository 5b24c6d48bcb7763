import PostgresNIO

/// What the catalog's schema holds: a catalog this tool made, nothing yet, or a table of someone else's.
enum PostgresCatalogState {
    case missing, catalog, otherTable

    /// Looks for the `products` table in the session's schema and its marker comment.
    static func read(_ session: PostgresSession) async throws -> PostgresCatalogState {
        let rows = try await session.rows("""
            SELECT coalesce(obj_description(c.oid, 'pg_class'), '') FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = \(session.location.schema) AND c.relname = \(PostgresSchema.table)
            """, doing: "look for the catalog table")
        guard let row = rows.first else { return .missing }
        let comment = try row.makeRandomAccess()[0].decode(String.self)
        return comment == PostgresSchema.marker ? .catalog : .otherTable
    }

    /// The live table's columns by lowercased name, as the table spells them.
    static func columns(_ session: PostgresSession) async throws -> [String: String] {
        let rows = try await session.rows("""
            SELECT column_name FROM information_schema.columns
            WHERE table_schema = \(session.location.schema) AND table_name = \(PostgresSchema.table) ORDER BY ordinal_position
            """, doing: "read the catalog's columns")
        var names: [String: String] = [:]
        for row in rows {
            let name = try row.makeRandomAccess()[0].decode(String.self)
            if names[name.lowercased()] == nil { names[name.lowercased()] = name }
        }
        return names
    }
}
