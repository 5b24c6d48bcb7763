// Imports a product file into a catalog beside it, showing progress, then pages through a search.
//
//     ImportAndSearch FILE [PREFIX]
import Foundation
import ProductCatalog

let arguments = CommandLine.arguments.dropFirst()
guard let path = arguments.first else {
    print("usage: ImportAndSearch FILE [PREFIX]")
    exit(2)
}
let prefix = arguments.dropFirst().first ?? ""
let catalogPath = FileManager.default.temporaryDirectory.appendingPathComponent("example-catalog.sqlite").path

do {
    // An app that downloaded the file itself hands over the bytes: `.bytes(data, name: "feed.csv")`.
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    let job = CatalogImporter(options: ImportOptions(databasePath: catalogPath)).start(input: .bytes(bytes, name: path))
    for await progress in job.progress {
        let percent = progress.fractionCompleted.map { " \(Int($0 * 100))%" } ?? ""
        print("\(progress.phase.rawValue)\(percent): \(progress.rowsRead) rows read")
    }
    let summary = try await job.summary
    print("\(summary.rowsInserted) products in \(catalogPath), \(summary.rowsRejected) rejected")

    let search = try ProductSearch(databasePath: catalogPath)
    print("\(try search.count(prefix: prefix)) products start with \"\(prefix)\"")
    var cursor: KeysetCursor?
    for pageNumber in 1...3 {
        let page = try search.page(prefix: prefix, after: cursor)
        print("page \(pageNumber): " + page.products.prefix(3).map { "\($0.productId) \($0.title ?? "")" }.joined(separator: "; "))
        guard let next = page.nextCursor else { break }
        cursor = next
    }
} catch {
    print("error: \(error)")
    exit(1)
}
