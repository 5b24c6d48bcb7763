import ArgumentParser
import ProductCatalog
import ProductCatalogPostgres

@main
struct Catalog: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Load product CSV files into a catalog (a SQLite file or PostgreSQL) and search it.",
        discussion: """
            Exit status: 0 on success, 1 when the work failed (the message says why), 2 when the \
            command line is wrong.
            """,
        version: "0.1.0",
        subcommands: [Import.self, ImportStock.self, Collections.self, Inspect.self, Search.self, Export.self, Optimize.self, Backup.self, Generate.self, Serve.self]
    )

    /// Runs the command, with exit status 2 (not ArgumentParser's 64) for a wrong command line.
    static func main() async {
        LargeAllocations.alwaysReturned()
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            if let message = commandMessage(for: error) {
                Terminal.standardError.write("Error: " + message + "\n")
                exit(withError: ExitCode(1))
            }
            let code = exitCode(for: error)
            if code == .validationFailure {
                Terminal.standardError.write(fullMessage(for: error) + "\n")
                exit(withError: ExitCode(2))
            }
            if code != .success {
                // Messages may quote the input (a header, a path, a value): shown with controls escaped.
                Terminal.standardError.write(fullMessage(for: error) + "\n")
                exit(withError: code)
            }
            exit(withError: error)
        }
    }
}

/// The options every command that reads or writes a catalog shares.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The catalog: a SQLite file, or a PostgreSQL database as postgres://user:password@host:port/database.",
        discussion: "What a postgres:// URL leaves out comes from PGHOST, PGPORT, PGUSER, PGPASSWORD and PGDATABASE, as for psql; ?schema=NAME keeps the catalog in a schema of its own."))
    var db = "catalog.sqlite"

    /// The catalog `--db` names, on its engine.
    func catalog() throws -> any CatalogEngine {
        try Self.engine(for: db)
    }

    /// The catalog `db` names, on its engine: the one place the command line chooses one.
    static func engine(for db: String) throws -> any CatalogEngine {
        switch CatalogLocation(db) {
        case .file(let path):
            return SQLiteCatalog(databasePath: path)
        case .postgres(let url):
            do {
                // Pictures uploaded to `catalog serve` stay on this machine, in the folder it was started in.
                return PostgresCatalog(location: try PostgresLocation(url: url), imagesFolder: "catalog.images")
            } catch {
                throw ValidationError(error.description)
            }
        }
    }

    /// Throws when `output` (an export's file) names the catalog file or a file that belongs to it.
    func check(output: String?) throws {
        guard let output, case .file(let path) = CatalogLocation(db) else { return }
        try CatalogCompanions(catalogPath: path).check(output: output)
    }

    /// ``withCatalog(_:)`` with its collections; says the catalog keeps none when its engine does not.
    func withCollections<T>(_ body: (any CollectionKeeping) async throws -> T) async throws -> T {
        try await withCatalog { try await body(try $0.keptCollections()) }
    }

    /// Runs `body` with the catalog `--db` names, which must exist, and closes its connections
    /// after, however `body` ends.
    func withCatalog<T>(_ body: (any CatalogEngine) async throws -> T) async throws -> T {
        let catalog = try catalog()
        do {
            try await catalog.checkOpenable(requiringCatalog: true)
            let result = try await body(catalog)
            await catalog.close()
            return result
        } catch {
            await catalog.close()
            throw error
        }
    }
}
