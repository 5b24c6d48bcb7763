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

                --vocabulary sample (the default) writes the six columns of the bundled sample, \
                with titles made of a few hundred words. --vocabulary realistic writes what \
                search should be measured on: titles of 2 to 12 words drawn from --words \
                distinct words of six languages (600,000 by default; the most common in about 6% \
                of titles, most of the rest rare), brands, product types, families of variants \
                sharing a groupId, and with --descriptions a description of 20 to 120 words.
                """
        )

        enum Vocabulary: String, ExpressibleByArgument, CaseIterable {
            case sample, realistic
        }

        @Option(help: "Write this many products.")
        var rows: Int

        @Option(help: "Pick the products with this seed; the same seed gives the same file.")
        var seed: UInt64 = 1

        @Option(name: [.short, .long], help: "Write to this file instead of standard output.")
        var output: String?

        @Option(help: "sample (six columns, a few hundred words) or realistic (a large vocabulary in six languages).")
        var vocabulary: Vocabulary = .sample

        @Option(help: "With --vocabulary realistic: how many distinct words titles are drawn from.")
        var words = 600_000

        @Flag(help: "With --vocabulary realistic: give each product a description of 20 to 120 words.")
        var descriptions = false

        func validate() throws {
            guard rows >= 0 else {
                throw ValidationError("--rows must be 0 or more; pass how many products to write, such as --rows 1000.")
            }
            guard words >= 1_000 else { throw ValidationError("--words must be 1000 or more.") }
            if vocabulary == .sample && (descriptions || words != 600_000) {
                throw ValidationError("--words and --descriptions go with --vocabulary realistic.")
            }
        }

        func run() async throws {
            // A write error says what failed and what to do; it ends the command with status 1.
            let generator: any GeneratedFeed = switch vocabulary {
            case .sample: ProductGenerator(rows: rows, seed: seed)
            case .realistic: RealisticProductGenerator(
                rows: rows, seed: seed, descriptions: descriptions, vocabulary: RealisticVocabulary(words: words, seed: seed))
            }
            if let output {
                try generator.write(toPath: output)
            } else {
                try generator.write(toFileDescriptor: STDOUT_FILENO)
            }
        }
    }
}
