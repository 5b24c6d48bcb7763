import ArgumentParser

@main
struct Catalog: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Load product CSV files into a SQLite catalog and search it.",
        subcommands: [Import.self, Search.self, Generate.self]
    )
}
