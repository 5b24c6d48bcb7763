import PostgresNIO

/// Why a catalog on a PostgreSQL server could not be reached, read or written. The catalog is left as it was.
public enum PostgresCatalogError: Error, Sendable, CustomStringConvertible {
    /// The `--db` URL cannot be read.
    case invalidURL(String, reason: String)
    /// No server answered, or it refused the login.
    case cannotConnect(location: String, reason: String)
    /// The server refused a statement.
    case server(location: String, doing: String, message: String, sqlState: String?)
    /// A catalog table exists but is not one this tool made.
    case notACatalog(location: String, table: String)
    /// The catalog was made by an earlier version of this tool, whose layout this one does not read.
    case earlierLayout(location: String)

    public var description: String {
        switch self {
        case .invalidURL(let text, let reason):
            "the PostgreSQL address \(text): \(reason). Write it as postgres://user:password@host:port/database (a missing part comes from PGHOST, PGPORT, PGUSER, PGPASSWORD or PGDATABASE)."
        case .cannotConnect(let location, let reason):
            "\(location): cannot connect to the PostgreSQL server (\(reason)). Check that it runs and that the host, port, user, password and database are right; `psql` with the same settings shows what the server says."
        case .server(let location, let doing, let message, let sqlState):
            "\(location): PostgreSQL refused to \(doing): \(message)\(sqlState.map { " (SQLSTATE \($0))" } ?? ""). The catalog was not changed."
        case .notACatalog(let location, let table):
            "\(location): the table \(table) is not a product catalog made by this tool; it is left untouched. Use another database, or another ?schema=."
        case .earlierLayout(let location):
            "\(location): this catalog was made by an earlier version of this tool, which kept its words differently. Import the feed again, replacing the catalog, to search and edit it with this version."
        }
    }

    /// The server's SQLSTATE, when the server refused a statement.
    public var sqlState: String? {
        if case .server(_, _, _, let state) = self { return state }
        return nil
    }

    /// Wraps an error of postgres-nio: what the server said, or why no connection was made.
    static func wrap(_ error: any Error, location: PostgresLocation, doing: String) -> any Error {
        if error is PostgresCatalogError || error is CancellationError { return error }
        guard let error = error as? PSQLError else { return error }
        if let info = error.serverInfo {
            let message = info[.message] ?? "an error without a message"
            let state = info[.sqlState]
            // 28xxx: the login was refused; 3D000: no such database.
            if let state, state.hasPrefix("28") || state == "3D000" {
                return PostgresCatalogError.cannotConnect(location: location.description, reason: message)
            }
            return PostgresCatalogError.server(location: location.description, doing: doing, message: message, sqlState: state)
        }
        let reason = error.underlying.map { String(describing: $0) } ?? String(describing: error.code)
        return PostgresCatalogError.cannotConnect(location: location.description, reason: reason)
    }
}
