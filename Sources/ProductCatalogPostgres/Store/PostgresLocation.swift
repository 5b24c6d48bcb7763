import Foundation
import ProductCatalog

/// Where a catalog lives on a PostgreSQL server: `--db postgres://user:password@host:port/database`.
///
/// As with `psql`, what the URL leaves out comes from `PGHOST`, `PGPORT`, `PGUSER`,
/// `PGPASSWORD`, `PGDATABASE` and `PGSSLMODE`, then from the defaults: the server's socket in
/// `/var/run/postgresql`, port 5432, and the user and database named after the login. A host
/// starting with `/` is the folder of the server's Unix socket (`?host=/tmp` does the same in
/// the URL). `?schema=NAME` keeps the catalog's tables in a schema of their own (default
/// `public`), so one database can hold several catalogs.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    /// A host name or address, or the folder of a Unix socket when it starts with `/`.
    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String
    /// The schema holding the catalog's tables.
    public var schema: String
    /// `disable`, `prefer` or `require` (as libpq's `sslmode`; `verify-ca` and `verify-full` also verify the certificate).
    public var sslMode: String

    /// True when `text` names a PostgreSQL catalog rather than a file.
    public static func isURL(_ text: String) -> Bool {
        CatalogLocation.isPostgresURL(text)
    }

    /// Reads a `postgres://` or `postgresql://` URL, filling what it leaves out from `environment`.
    public init(url text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(PostgresCatalogError) {
        guard Self.isURL(text), let components = URLComponents(string: text) else {
            throw .invalidURL(text, reason: "it is not a postgres://user@host:port/database URL")
        }
        func setting(_ name: String) -> String? {
            environment[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
        let known: Set = ["host", "port", "user", "password", "dbname", "sslmode", "schema", "application_name", "connect_timeout"]
        if let unknown = query.keys.sorted().first(where: { !known.contains($0) }) {
            throw .invalidURL(Self.redacted(text), reason: "it has the setting \(unknown)=, which this tool does not know (it knows \(known.sorted().joined(separator: ", ")))")
        }
        let login = ProcessInfo.processInfo.userName
        host = components.percentEncodedHost.flatMap { $0.isEmpty ? nil : $0.removingPercentEncoding } ?? query["host"] ?? setting("PGHOST") ?? "/var/run/postgresql"
        if let given = components.port ?? query["port"].flatMap(Int.init) ?? setting("PGPORT").flatMap(Int.init) {
            guard (1...65_535).contains(given) else { throw .invalidURL(Self.redacted(text), reason: "port \(given) is not between 1 and 65535") }
            port = given
        } else {
            port = 5432
        }
        user = components.user.flatMap { $0.isEmpty ? nil : $0 } ?? query["user"] ?? setting("PGUSER") ?? login
        password = components.password ?? query["password"] ?? setting("PGPASSWORD")
        let path = String(components.path.drop { $0 == "/" })
        database = path.isEmpty ? query["dbname"] ?? setting("PGDATABASE") ?? user : path
        schema = query["schema"].flatMap { $0.isEmpty ? nil : $0 } ?? "public"
        sslMode = query["sslmode"] ?? setting("PGSSLMODE") ?? (host.hasPrefix("/") ? "disable" : "prefer")
        guard ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"].contains(sslMode) else {
            throw .invalidURL(Self.redacted(text), reason: "sslmode=\(sslMode) is not one of disable, allow, prefer, require, verify-ca, verify-full")
        }
    }

    /// The path of the Unix socket, when ``host`` names a folder.
    public var socketPath: String? {
        host.hasPrefix("/") ? (host.hasSuffix("/") ? host : host + "/") + ".s.PGSQL.\(port)" : nil
    }

    /// The location as a URL without its password, for messages.
    public var description: String {
        let hostPart = host.hasPrefix("/") ? "" : (host.contains(":") ? "[\(host)]" : host) + ":\(port)"
        var text = "postgres://\(user)@\(hostPart)/\(database)"
        var settings: [String] = []
        if host.hasPrefix("/") { settings.append("host=\(host)&port=\(port)") }
        if schema != "public" { settings.append("schema=\(schema)") }
        if !settings.isEmpty { text += "?" + settings.joined(separator: "&") }
        return text
    }

    /// `text` with any password replaced by `***`.
    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text) else { return text }
        if components.password != nil { components.password = "***" }
        if let items = components.queryItems, items.contains(where: { $0.name == "password" }) {
            components.queryItems = items.map { $0.name == "password" ? URLQueryItem(name: "password", value: "***") : $0 }
        }
        return components.string ?? text
    }
}
