import ArgumentParser
import Foundation
import ProductCatalog

extension Catalog {
    struct Backup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy the catalog into a new file, consistent while it is being written.",
            discussion: """
                The copy holds the catalog as of one moment: edits, imports' upserts and merges \
                by catalog serve or other programs go on while it is made, and none is half in \
                it. It is one file (no -wal beside it), a catalog like any other: search or serve \
                it with --db. --output must not exist; a backup never replaces a file.

                To put a backup back: stop the servers using the catalog, move the catalog file \
                away, and back the backup up to the catalog's path: \
                catalog backup --db backup.sqlite --output catalog.sqlite.

                A catalog on PostgreSQL is backed up by PostgreSQL's own tools (pg_dump), which \
                the command names.
                """)

        @OptionGroup var database: DatabaseOptions

        @Option(help: ArgumentHelp("The new file to write.", valueName: "path"))
        var output: String

        func run() async throws {
            guard case .file(let path) = CatalogLocation(database.db) else {
                Terminal.standardError.write("Error: a catalog on PostgreSQL is backed up by PostgreSQL: pg_dump --format=custom --file=catalog.dump \"$URL\" (with --schema=NAME for a catalog in a schema of its own), restored by pg_restore.\n")
                Foundation.exit(1)
            }
            let output = self.output
            let started = ContinuousClock.now
            let summary = try await Task.detached { try CatalogBackup.copy(catalogAt: path, to: output) }.value
            Terminal.standardOutput.write("Copied \(path) (\(Formatting.count(summary.products)) products) to \(output), \(Formatting.bytes(summary.bytes)), in \(Formatting.seconds(ContinuousClock.now - started)).\n")
        }
    }
}
