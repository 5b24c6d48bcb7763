@testable import ProductCatalog

/// Imports CSV text into a catalog in a temporary folder, and reads it back.
struct CatalogFixture {
    let directory: TemporaryDirectory
    var options: ImportOptions

    init() throws {
        directory = try TemporaryDirectory()
        options = ImportOptions(databasePath: directory.file("catalog.sqlite"))
        // Small enough that most tests sort in several runs and merge them from disk.
        options.sortMemory = 1 << 10
    }

    var databasePath: String { options.databasePath }

    /// Imports `csv` (served in small reads, to cross chunk boundaries) and returns the summary.
    @discardableResult
    func importCSV(_ csv: String, progress: (ImportProgress) -> Void = { _ in }) throws -> ImportSummary {
        var options = self.options
        options.reading.chunkSize = 64
        return try CatalogImporter(options: options).run(source: MemoryByteSource(csv), progress: progress)
    }

    /// Every product in the catalog (each variant), in search order, read page by page.
    func allProducts(prefix: String = "", pageSize: Int = 7) throws -> [Product] {
        let search = try ProductSearch(databasePath: databasePath)
        var products: [Product] = []
        var cursor: KeysetCursor?
        repeat {
            let page = try search.page(prefix: prefix, listing: .variants, after: cursor, limit: pageSize)
            products += page.products
            cursor = page.nextCursor
        } while cursor != nil
        return products
    }

    /// The rejects file as records: line, reason, then the original fields.
    func rejects() throws -> [[String]] {
        guard let text = directory.read("catalog.sqlite.rejects.csv") else { return [] }
        return try readRecords(from: MemoryByteSource(text)).map(\.fields)
    }
}
