import Dispatch
import Logging
import NIOCore
import NIOSSL
import PostgresNIO
import Synchronization

/// One connection to the server holding a catalog, with its `search_path` set to the catalog's schema.
///
/// Every statement names the catalog's tables without a schema, so the search path picks the
/// catalog; errors come out as ``PostgresCatalogError`` naming the location and what was being done.
final class PostgresSession: Sendable {
    let location: PostgresLocation
    let connection: PostgresConnection
    /// postgres-nio logs only at debug level and below; a library must not print.
    static let logger = Logger(label: "ProductCatalogPostgres", factory: { _ in SwiftLogNoOpLogHandler() })
    private static let nextID = Atomic(1)

    private init(location: PostgresLocation, connection: PostgresConnection) {
        self.location = location
        self.connection = connection
    }

    /// Connects to `location` and sets the search path to its schema.
    static func open(_ location: PostgresLocation) async throws -> PostgresSession {
        let configuration: PostgresConnection.Configuration
        do {
            configuration = try makeConfiguration(location)
        } catch {
            throw PostgresCatalogError.cannotConnect(location: location.description, reason: "TLS could not be set up: \(error)")
        }
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                configuration: configuration, id: nextID.add(1, ordering: .relaxed).oldValue, logger: logger)
        } catch {
            throw PostgresCatalogError.wrap(error, location: location, doing: "connect")
        }
        let session = PostgresSession(location: location, connection: connection)
        do {
            try await session.execute("SET search_path TO \(PostgresSchema.quote(location.schema))", doing: "choose the schema")
            try await session.checkClientConnection()
        } catch {
            await session.close()
            throw error
        }
        return session
    }

    /// Asks the server to check every second, during a long statement, that this client is still
    /// there, and to end the statement when it is not: a killed import's last statement (an upsert's
    /// `INSERT … ON CONFLICT` may run for seconds) then stops at once and gives up the import lock,
    /// instead of holding it until it completes. PostgreSQL 14 and later; earlier servers lack the
    /// setting and keep running such a statement to its end.
    private func checkClientConnection() async throws {
        do {
            try await execute("SET client_connection_check_interval = '1s'", doing: "set the client check")
        } catch let error as PostgresCatalogError where error.sqlState == "42704" {
            // undefined_object: a server before PostgreSQL 14.
        }
    }

    private static func makeConfiguration(_ location: PostgresLocation) throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        if let socket = location.socketPath {
            configuration = .init(unixSocketPath: socket, username: location.user, password: location.password, database: location.database)
        } else {
            var tls = TLSConfiguration.makeClientConfiguration()
            let mode: PostgresConnection.Configuration.TLS
            switch location.sslMode {
            case "disable":
                mode = .disable
            case "allow", "prefer":
                tls.certificateVerification = .none
                mode = .prefer(try NIOSSLContext(configuration: tls))
            case "require":
                tls.certificateVerification = .none
                mode = .require(try NIOSSLContext(configuration: tls))
            case "verify-ca":
                tls.certificateVerification = .noHostnameVerification
                mode = .require(try NIOSSLContext(configuration: tls))
            default:
                mode = .require(try NIOSSLContext(configuration: tls))
            }
            configuration = .init(host: location.host, port: location.port, username: location.user,
                                  password: location.password, database: location.database, tls: mode)
        }
        configuration.options.connectTimeout = .seconds(10)
        return configuration
    }

    /// Runs one statement and drops what it returns.
    func execute(_ sql: String, doing: String) async throws {
        _ = try await rows(PostgresQuery(unsafeSQL: sql), doing: doing)
    }

    /// Runs `statement` and drops what it returns.
    func execute(_ statement: PostgresStatement, doing: String) async throws {
        _ = try await rows(statement.query, doing: doing)
    }

    /// Runs `query` and collects its rows.
    func rows(_ query: PostgresQuery, doing: String) async throws -> [PostgresRow] {
        do {
            return try await connection.query(query, logger: Self.logger).collect()
        } catch {
            throw PostgresCatalogError.wrap(error, location: location, doing: doing)
        }
    }

    /// The first column of the first row of `query`, decoded as `T`; nil when there is no row or it is NULL.
    func scalar<T: PostgresDecodable>(_ query: PostgresQuery, as type: T.Type, doing: String) async throws -> T? where T._DecodableType == T {
        guard let row = try await rows(query, doing: doing).first else { return nil }
        do {
            return try row.makeRandomAccess()[0].decode(T?.self)
        } catch {
            throw PostgresCatalogError.wrap(error, location: location, doing: doing)
        }
    }

    /// Closes the connection; the server rolls back an open transaction and drops session locks.
    func close() async {
        try? await connection.close()
    }

    /// A session released without ``close()`` (a task that outlived the engine it ran for, such as
    /// a warm-up started after a request) closes its connection on the way out, rather than
    /// leaving it open on the server until the process ends. The closing holds the connection.
    deinit {
        let connection = connection
        connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
    }
}

/// Runs `body` in a task and waits for it on the calling thread, which must not be one of the
/// concurrency pool's: for the synchronous ``CatalogSink`` calls, made on an import's own thread.
func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
    let result = Mutex<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let outcome: Result<T, any Error>
        do {
            outcome = .success(try await body())
        } catch {
            outcome = .failure(error)
        }
        result.withLock { $0 = outcome }
        done.signal()
    }
    done.wait()
    return try result.withLock { $0! }.get()
}
