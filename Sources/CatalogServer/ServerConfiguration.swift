import ProductCatalog

/// How `catalog serve` runs: which catalog, where it listens, what it accepts.
public struct ServerConfiguration: Sendable {
    /// The catalog to serve, whatever its engine; it may not exist yet.
    public var catalog: any CatalogEngine
    /// The address to listen on; the default keeps the server to this machine.
    public var host: String
    /// The port to listen on; 0 picks a free one (see ``onListening``).
    public var port: Int
    /// The address people open the page at when it is not the one listened on: a reverse proxy's
    /// `https://catalog.example.com`, or a name the team's DNS gives this machine. Requests may
    /// name its host, and writes may come from its origin (see ``ServedNames``).
    public var publicURL: String?
    /// The largest CSV upload accepted, in bytes (413 past it).
    public var maxUploadBytes: Int
    /// Where uploads and rejects files are kept; nil makes a new temporary folder.
    public var workDirectory: String?
    /// How often an import reports progress.
    public var progressInterval: Duration
    /// How long a connection may take to send a complete request head, after connecting or after
    /// its previous answer, before it is closed (see ``ConnectionGuard``).
    public var headTimeout: Duration = .seconds(10)
    /// How long a connection may send nothing in the middle of a request body before it is closed.
    public var idleTimeout: Duration = .seconds(60)
    /// How long an upload may send nothing before it is dropped with 408.
    public var uploadStallTimeout: Duration = .seconds(30)
    /// Connections served at once; more wait to be accepted, so the server never runs out of file
    /// descriptors. Past three quarters of it, each new connection closes the one that has waited
    /// longest on its client (see ``ConnectionGuard``).
    public var maxConnections = 1_024
    /// Called with the page's address once the server listens.
    public var onListening: (@Sendable (_ url: String) -> Void)?

    /// The configuration `catalog serve` starts with, unless its options say otherwise.
    public init(
        catalog: any CatalogEngine = SQLiteCatalog(databasePath: "catalog.sqlite"),
        host: String = "127.0.0.1",
        port: Int = 8080,
        maxUploadBytes: Int = 1 << 30,
        workDirectory: String? = nil,
        progressInterval: Duration = .milliseconds(100),
        onListening: (@Sendable (_ url: String) -> Void)? = nil
    ) {
        self.catalog = catalog
        self.host = host
        self.port = port
        self.maxUploadBytes = maxUploadBytes
        self.workDirectory = workDirectory
        self.progressInterval = progressInterval
        self.onListening = onListening
    }
}
