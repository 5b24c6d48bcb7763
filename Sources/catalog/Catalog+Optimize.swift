import ArgumentParser
import Foundation
import ProductCatalog

extension Catalog {
    struct Optimize: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Merge the catalog's word index into one segment now.",
            discussion: """
                Every write (an edit, a batch, an upsert) adds a segment to the word index: the \
                products it changed, as they are now. Merges join segments of about one size as \
                they come, in the background of catalog serve and a bounded share after each \
                command that writes, so a search reads a few of them. optimize merges them all \
                into one, and lets go of the products the changes replaced: what a nightly job \
                of a catalog fed only by `catalog import --mode upsert` may run.

                It works a step at a time, each a short write: searches and edits go on \
                meanwhile, and it can be stopped at any moment (even killed) and run again. \
                A catalog on PostgreSQL keeps its word index in its own tables: there is nothing \
                to merge.
                """)

        @OptionGroup var database: DatabaseOptions

        @Flag(help: "Print progress and the result as JSON lines on standard output.")
        var json = false

        func run() async throws {
            guard case .file(let path) = CatalogLocation(database.db) else {
                Terminal.standardOutput.write("\(database.db): PostgreSQL keeps its word index in its own tables; there is nothing to merge.\n")
                return
            }
            guard try CatalogSchema.kind(ofFileAt: path) == .catalog else { throw CatalogError.noCatalog(path: path) }
            let started = ContinuousClock.now
            let json = self.json
            let before = try await Task.detached {
                let editor = try CatalogEditor(databasePath: path)
                return try editor.mergeAllSegments { segments, steps in
                    if json {
                        Terminal.standardOutput.writeExactly(JSONValue.object([
                            "event": .string("progress"), "steps": .int(steps), "segments": .int(segments),
                        ]).serialized + "\n")
                    }
                }
            }.value
            let seconds = (ContinuousClock.now - started).seconds
            if json {
                Terminal.standardOutput.writeExactly(JSONValue.object([
                    "event": .string("finished"), "segmentsBefore": .int(before), "segments": .int(1), "seconds": .double(seconds),
                ]).serialized + "\n")
            } else if before <= 1 {
                Terminal.standardOutput.write("\(path): the word index is one segment already.\n")
            } else {
                Terminal.standardOutput.write("\(path): merged the word index's \(Formatting.count(before)) segments into one in \(String(format: "%.2f", seconds)) s.\n")
            }
        }
    }
}
