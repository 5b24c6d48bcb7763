import ArgumentParser
import FeedGenerator
import ProductCatalog

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Catalog {
    struct Generate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a realistic product CSV file.",
            discussion: """
                The same seed and row count always give the same bytes. ProductIds are unique \
                ignoring case and come in shuffled order; some titles hold commas, quotes and \
                non-ASCII letters.
                """
        )

        @Option(help: "Write this many products.")
        var rows: Int

        @Option(help: "Pick the products with this seed; the same seed gives the same file.")
        var seed: UInt64 = 1

        @Option(name: [.short, .long], help: "Write to this file instead of standard output.")
        var output: String?

        func validate() throws {
            guard rows >= 0 else {
                throw ValidationError("--rows must be 0 or more; pass how many products to write, such as --rows 1000.")
            }
        }

        func run() async throws {
            // A write error says what failed and what to do; it ends the command with status 1.
            let generator = ProductGenerator(rows: rows, seed: seed)
            if let output {
                try generator.write(toPath: output)
            } else {
                try generator.write(toFileDescriptor: STDOUT_FILENO)
            }
        }
    }
}
