import PostgresNIO
import ProductCatalog

/// What the catalog's schema holds: a catalog this tool made, one an earlier version made, nothing yet, or a table of someone else's.
enum PostgresCatalogState {
    case missing, catalog, earlierLayout, otherTable

    /// Looks for the `products` table in the session's schema and its marker comment.
    static func read(_ session: PostgresSession) async throws -> PostgresCatalogState {
        let rows = try await session.rows("""
            SELECT coalesce(obj_description(c.oid, 'pg_class'), '') FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = \(session.location.schema) AND c.relname = \(PostgresSchema.table)
            """, doing: "look for the catalog table")
        guard let row = rows.first else { return .missing }
        let comment = try row.makeRandomAccess()[0].decode(String.self)
        switch comment {
        case PostgresSchema.marker: return .catalog
        default: return PostgresSchema.earlierMarkers.contains(comment) ? .earlierLayout : .otherTable
        }
    }

    /// Throws unless the session's schema holds a catalog of this layout: what a search or an edit needs.
    static func requireCatalog(_ session: PostgresSession, creating: Bool = false) async throws -> PostgresCatalogState {
        let state = try await read(session)
        let location = session.location.description
        switch state {
        case .catalog:
            try await addMissingFieldColumns(session)
            return state
        case .missing: if creating { return state } else { throw CatalogError.noCatalog(path: location) }
        case .earlierLayout: throw PostgresCatalogError.earlierLayout(location: location)
        case .otherTable: throw PostgresCatalogError.notACatalog(location: location, table: PostgresSchema.table)
        }
    }

    /// Adds the columns of the fields a catalog of this layout made by an earlier build lacks
    /// (`options` came later): empty, which PostgreSQL adds without rewriting the table.
    static func addMissingFieldColumns(_ session: PostgresSession) async throws {
        let live = try await columns(session)
        for column in PostgresSchema.fieldColumns where live[column.name.lowercased()] == nil {
            let type = PostgresSchema.type(isInteger: column.isInteger)
            try await session.execute("ALTER TABLE \(PostgresSchema.table) ADD COLUMN IF NOT EXISTS \(PostgresSchema.quote(column.name)) \(type)",
                                      doing: "add the column \(column.name)")
        }
    }

    /// The live table's product columns (not its words) by lowercased name, as the table spells them.
    static func columns(_ session: PostgresSession) async throws -> [String: String] {
        var names: [String: String] = [:]
        for name in try await orderedColumns(session) where names[name.lowercased()] == nil {
            names[name.lowercased()] = name
        }
        return names
    }

    /// The table's columns in their order, the word index's own left out.
    static func orderedColumns(_ session: PostgresSession) async throws -> [String] {
        let rows = try await session.rows("""
            SELECT column_name FROM information_schema.columns
            WHERE table_schema = \(session.location.schema) AND table_name = \(PostgresSchema.table) ORDER BY ordinal_position
            """, doing: "read the catalog's columns")
        return try rows.map { try $0.makeRandomAccess()[0].decode(String.self) }.filter { !PostgresSchema.wordColumns.contains($0) }
    }
}
