import Foundation
import ProductCatalog

// Types product titles into ProductSearch letter by letter, as a person types into the page's
// search box, and times each keystroke: the first page of 20 and its count (capped at 10,000, as
// `catalog serve` counts), in-process. Prints the percentiles and the slowest keystrokes.
//
//   swift run -c release Keystrokes CATALOG [--titles 1000] [--seed 1] [--typo] [--exact] [--variants]
//
// Titles are sampled evenly from the catalog's products in productId order (every n-th), so the
// same catalog and seed give the same keystrokes. With --typo, each title gets one typo (two
// neighbouring letters swapped) in a word of 5 or more letters, if it has one. With --exact, the
// searches match words as typed (typos: false), to see what typo tolerance costs. With
// --variants, every variant is listed and counted, where a search lists each family once.

struct Options {
    var catalog = ""
    var titles = 1_000
    var seed = 1
    var typo = false
    var exact = false
    var listing = ResultListing.families
    var slowest = 12
    var queries: [String] = []

    init(_ arguments: [String]) {
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            switch argument {
            case "--titles": titles = Int(rest.popFirst() ?? "") ?? titles
            case "--seed": seed = Int(rest.popFirst() ?? "") ?? seed
            case "--typo": typo = true
            case "--exact": exact = true
            case "--variants": listing = .variants
            case "--slowest": slowest = Int(rest.popFirst() ?? "") ?? slowest
            case "--query": queries.append(rest.popFirst() ?? "")
            default: catalog = argument
            }
        }
    }
}

let options = Options(CommandLine.arguments)
guard !options.catalog.isEmpty else {
    FileHandle.standardError.write(Data("usage: Keystrokes CATALOG [--titles N] [--seed N] [--typo] [--exact] [--variants]\n".utf8))
    exit(2)
}

/// The titles to type: every n-th product's, in productId order, starting at an offset from the seed.
func sampleTitles() throws -> [String] {
    let connection = try Connection(path: options.catalog, mode: .readOnly)
    let total = Int(try connection.scalarInt("SELECT count(*) FROM products") ?? 0)
    let step = max(1, total / options.titles)
    let statement = try connection.prepare("SELECT title FROM products ORDER BY productId")
    var titles: [String] = []
    var index = 0
    while try statement.step(), titles.count < options.titles {
        if index % step == options.seed % step, let title = statement.text(at: 0), !title.isEmpty { titles.append(title) }
        index += 1
    }
    return titles
}

/// `title` with two neighbouring letters swapped in its first word of 5 or more letters.
func misspelled(_ title: String) -> String {
    var words = title.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
    guard let index = words.firstIndex(where: { $0.count >= 5 && $0.allSatisfy(\.isLetter) }) else { return title }
    var letters = Array(words[index])
    letters.swapAt(1, 2)
    words[index] = String(letters)
    return words.joined(separator: " ")
}

/// Every text typed on the way to `title`, one character more each time, without repeating a
/// text whose words did not change (a space, a comma).
func keystrokes(_ title: String) -> [String] {
    var texts: [String] = []
    var typed = ""
    var lastWords: [String] = []
    for character in title {
        typed.append(character)
        let words = WordQuery(typed).words
        if words != lastWords, !words.isEmpty { texts.append(typed) }
        lastWords = words
    }
    return texts
}

let search = try ProductSearch(databasePath: options.catalog)
// Typo tolerance walks the term list in memory, read once per process (`catalog serve` reads it
// when it starts and after each import): timed apart from the keystrokes.
if !options.exact {
    let read = ContinuousClock().measure { try? search.loadTermList() }
    print(String(format: "term list read in %.1f ms, once", Double(read.components.attoseconds) / 1e15 + Double(read.components.seconds) * 1e3))
}
// With --query, each query's page and count alone, the median of 21 runs of each.
if !options.queries.isEmpty {
    let clock = ContinuousClock()
    func median(_ body: () throws -> Void) rethrows -> Double {
        var runs: [Double] = []
        for _ in 0..<21 {
            let elapsed = try clock.measure(body)
            runs.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3)
        }
        return runs.sorted()[10]
    }
    for query in options.queries {
        let page = try median { _ = try search.page(query: query, typos: !options.exact, listing: options.listing) }
        let count = try median { _ = try search.countMatches(query: query, typos: !options.exact, listing: options.listing, upTo: 10_001) }
        let both = try median {
            _ = try search.page(query: query, typos: !options.exact, listing: options.listing)
            _ = try search.countMatches(query: query, typos: !options.exact, listing: options.listing, upTo: 10_001)
        }
        let matches = try search.countMatches(query: query, typos: !options.exact, listing: options.listing, upTo: 10_001)
        print(String(format: "%@: page %.2f ms, count alone %.2f ms, page then count %.2f ms (%d%@ matches)",
                     "\"\(query)\"", page, count, both, matches.count, matches.isComplete ? "" : "+"))
    }
    exit(0)
}
let titles = try sampleTitles().map { options.typo ? misspelled($0) : $0 }
var timings: [(ms: Double, text: String, count: Int, complete: Bool)] = []
let clock = ContinuousClock()
for title in titles {
    for text in keystrokes(title) {
        var count = MatchCount(count: 0, isComplete: true)
        let elapsed = try clock.measure {
            _ = try search.page(query: text, typos: !options.exact, listing: options.listing)
            count = try search.countMatches(query: text, typos: !options.exact, listing: options.listing, upTo: 10_001)
        }
        let ms = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3
        timings.append((ms, text, count.count, count.isComplete))
    }
}
let sorted = timings.sorted { $0.ms < $1.ms }
func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))].ms }
print("\(titles.count) titles, \(sorted.count) keystrokes\(options.typo ? ", one typo each" : "")\(options.exact ? ", words as typed (--exact)" : "") on \(options.catalog)")
print(String(format: "p50 %.2f ms · p90 %.2f ms · p99 %.2f ms · worst %.2f ms · mean %.2f ms",
             percentile(0.5), percentile(0.9), percentile(0.99), sorted.last?.ms ?? 0,
             sorted.map(\.ms).reduce(0, +) / Double(max(1, sorted.count))))
print("slowest:")
for timing in sorted.suffix(options.slowest).reversed() {
    print(String(format: "  %7.2f ms  %@  (%d%@ matches)", timing.ms, "\"\(timing.text)\"", timing.count, timing.complete ? "" : "+"))
}
