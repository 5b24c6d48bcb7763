import ArgumentParser

@main
struct Catalog: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Load product CSV files into a SQLite catalog and search it.",
        discussion: """
            Exit status: 0 on success, 1 when the work failed (the message says why), 2 when the \
            command line is wrong.
            """,
        version: "0.1.0",
        subcommands: [Import.self, Inspect.self, Search.self, Generate.self, Serve.self]
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
            exit(withError: error)
        }
    }
}

/// The options every command that reads or writes a catalog shares.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: "The catalog file.")
    var db = "catalog.sqlite"
}
