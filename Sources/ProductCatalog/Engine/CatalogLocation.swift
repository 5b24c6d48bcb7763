/// Where a catalog is: a SQLite file, or a database on a PostgreSQL server.
///
/// The library reads the location; opening it is the caller's one choice of engine
/// (``SQLiteCatalog`` here, `PostgresCatalog` in ProductCatalogPostgres), so an app that only
/// embeds files never links a PostgreSQL client.
public enum CatalogLocation: Sendable, Equatable {
    /// A catalog file at this path (it need not exist yet).
    case file(path: String)
    /// A catalog on a PostgreSQL server, as a `postgres://` or `postgresql://` URL.
    case postgres(url: String)

    /// The location `text` names: a URL of a PostgreSQL scheme, else a file path.
    public init(_ text: String) {
        self = Self.isPostgresURL(text) ? .postgres(url: text) : .file(path: text)
    }

    /// Whether `text` starts as a PostgreSQL URL does.
    public static func isPostgresURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }
}
