import ArgumentParser
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
        subcommands: [Import.self, Inspect.self, Search.self, Export.self, Generate.self, Serve.self]
    )

    /// Runs the command, with exit status 2 (not ArgumentParser's 64) for a wrong command line.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
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

    /// The PostgreSQL catalog `--db` names, nil for a file.
    func postgresLocation() throws -> PostgresLocation? {
        guard PostgresLocation.isURL(db) else { return nil }
        do {
            return try PostgresLocation(url: db)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
