import Foundation
import InProcessTiming
import ProductCatalog

// Times what opening a family costs, in-process, as `catalog serve` answers
// `GET /api/products/{id}/variants`: a family's variants read by its groupId, for --families
// families drawn evenly from the catalog (every n-th groupId in order), each read once (the first
// read of a family, its pages maybe on disk) and then --runs times. Prints the percentiles.
//
//   swift run -c release --package-path Benchmarks FamilyVariants CATALOG [--families 200] [--runs 5]

let arguments = TimingArguments(CommandLine.arguments, usage: "FamilyVariants CATALOG [--families N] [--runs N]")
let options = (catalog: arguments.catalog, families: arguments.int("families", default: 200), runs: arguments.int("runs", default: 5))

// The groupIds to open: every n-th of the catalog's families, by groupId.
var groups: [String] = []
var families = 0
do {
    let connection = try Connection(path: options.catalog, mode: .readOnly)
    families = Int(try connection.scalarInt("SELECT count(DISTINCT groupId) FROM products WHERE groupId > ''") ?? 0)
    let step = max(1, families / options.families)
    let statement = try connection.prepare("SELECT DISTINCT groupId FROM products WHERE groupId > '' ORDER BY groupId")
    var index = 0
    while try statement.step(), groups.count < options.families {
        if index % step == 0, let group = statement.text(at: 0) { groups.append(group) }
        index += 1
    }
}
let search = try ProductSearch(databasePath: options.catalog)
var first: [Double] = []
var again: [Double] = []
var variants = 0
let clock = ContinuousClock()
for group in groups {
    first.append(milliseconds(try clock.measure { variants += try search.variants(groupId: group).count }))
    again += try timings(runs: options.runs) { _ = try search.variants(groupId: group) }
}
say("\(groups.count) of \(families) families, \(variants) variants in all, on \(options.catalog)")
say("first read  \(Percentiles(first).line)")
say("again       \(Percentiles(again).line)")
