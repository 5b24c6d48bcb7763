import ArgumentParser
import Foundation
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
                sharing a groupId (with --families, families of 1 to 20 variants as fashion and \
                home catalogs have them, named by an options column: Color: Navy; Size: M), and with --descriptions a description of 20 to 120 words. \
                With --word-list FILE (once per list), the words come from real word lists \
                instead (one word a line, such as Debian's wngerman, wfrench, wspanish, \
                witalian, wpolish and wamerican in /usr/share/dict): as many from each list, \
                with the dense near neighbours of real languages that typo tolerance meets.
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

        @Flag(help: "With --vocabulary realistic: families of 1 to 20 variants, with an options column naming what tells them apart.")
        var families = false

        @Option(name: .customLong("word-list"), help: ArgumentHelp(
            "With --vocabulary realistic: draw the words from this file of real words, one a line (repeat for several languages).",
            valueName: "file"))
        var wordLists: [String] = []

        func validate() throws {
            guard rows >= 0 else {
                throw ValidationError("--rows must be 0 or more; pass how many products to write, such as --rows 1000.")
            }
            guard words >= 1_000 else { throw ValidationError("--words must be 1000 or more.") }
            if vocabulary == .sample && (descriptions || families || words != 600_000 || !wordLists.isEmpty) {
                throw ValidationError("--words, --word-list, --families and --descriptions go with --vocabulary realistic.")
            }
        }

        /// The generated vocabulary, or the one of the word lists given.
        private func vocabularyToUse() throws -> RealisticVocabulary {
            guard !wordLists.isEmpty else { return RealisticVocabulary(words: words, seed: seed) }
            var lists: [[String]] = []
            for path in wordLists {
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw ValidationError("Cannot read the word list \(path): check the path (Debian's word lists are in /usr/share/dict).")
                }
                lists.append(String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).map(String.init))
            }
            let total = lists.reduce(0) { $0 + $1.count }
            guard total >= 1_000 else {
                throw ValidationError("The word lists hold \(total) lines; give lists of at least 1,000 words in all.")
            }
            return RealisticVocabulary(wordLists: lists, words: words, seed: seed)
        }

        func run() async throws {
            // A write error says what failed and what to do; it ends the command with status 1.
            let generator: any GeneratedFeed = switch vocabulary {
            case .sample: ProductGenerator(rows: rows, seed: seed)
            case .realistic: RealisticProductGenerator(rows: rows, seed: seed, descriptions: descriptions, families: families, vocabulary: try vocabularyToUse())
            }
            if let output {
                try generator.write(toPath: output)
            } else {
                try generator.write(toFileDescriptor: STDOUT_FILENO)
            }
        }
    }
}
