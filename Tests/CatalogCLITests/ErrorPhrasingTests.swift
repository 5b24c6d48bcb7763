@testable import ProductCatalog
import Testing
@testable import catalog

/// Every library error as the command line says it: the library's facts, and the option that
/// changes the outcome where one does.
@Suite struct ErrorPhrasingTests {
    static let sqliteError = SQLiteError(extendedCode: 13, message: "database or disk is full", sql: nil)

    /// Each case, and what the command line's sentence must hold.
    static let cases: [(any Error, [String])] = [
        (ImportError.source(ByteSourceError(source: "feed.csv", reason: "no such file")), ["feed.csv: no such file"]),
        (ImportError.emptyInput(source: "feed.csv"), ["feed.csv: the file is empty"]),
        (ImportError.notText(source: "feed.csv", .png), ["feed.csv is", "not a CSV file"]),
        (ImportError.malformedHeader(source: "feed.csv", CSVMalformation(kind: .unterminatedQuote, column: 3, line: 1, byteOffset: 0)), ["header line", "line 1"]),
        (ImportError.noDataRows(source: "feed.csv"), ["no data rows", "--allow-empty"]),
        (ImportError.nothingImported(rowsRead: 4, invalidUTF8: 4, rejectsPath: "r.csv"), ["r.csv", "--encoding latin1"]),
        (ImportError.nothingImported(rowsRead: 4, invalidUTF8: 0, rejectsPath: "r.csv"), ["r.csv", "--allow-empty"]),
        (ImportError.header(source: "feed.csv", .missingProductId(found: ["Handle"])), ["\"Handle\"", "--column productId=HEADER"]),
        (ImportError.header(source: "feed.csv", .ambiguous(field: .productId, headers: ["ID", "SKU"])), ["--column productId=\"SKU\""]),
        (ImportError.header(source: "feed.csv", .overrideNotFound(field: .title, header: "Name", found: ["Title"])), ["--column title=\"Name\"", "\"Title\""]),
        (ImportError.header(source: "feed.csv", .overrideTwice(header: "Name")), ["more than one --column"]),
        (ImportError.header(source: "feed.csv", .tooManyColumns(count: 3000, limit: 2014)), ["3000 columns", "--delimiter"]),
        (ImportError.header(source: "feed.csv", .controlCharacter(column: 2)), ["header column 2"]),
        (ImportError.tooManyRejects(limit: 10, line: 99, rejectsPath: "r.csv"), ["line 99", "--max-errors"]),
        (ImportError.duplicate(productId: "A1", firstLine: 2, line: 9), ["\"A1\"", "--on-duplicate fail"]),
        (ImportError.catalog(.readOnly(path: "c.sqlite")), ["chmod u+w c.sqlite", "--db"]),
        (ImportError.cancelled, ["cancelled"]),
        (CatalogError.noCatalog(path: "c.sqlite"), ["no catalog here yet", "catalog import FILE --db c.sqlite"]),
        (CatalogError.notACatalog(path: "c.sqlite"), ["not a product catalog", "--db"]),
        (CatalogError.notAFile(path: "c.sqlite", kind: "a directory"), ["a directory", "Give --db"]),
        (CatalogError.readOnly(path: "c.sqlite"), ["read-only", "chmod u+w"]),
        (CatalogError.unfinishedWrite(path: "c.sqlite"), ["catalog search --db c.sqlite"]),
        (CatalogError.inUse(path: "c.sqlite"), ["write-ahead-log", "import again"]),
        (CatalogError.importRunning(path: "c.sqlite"), ["another import"]),
        (CatalogError.cannotWrite(ByteSourceError(source: "c.sqlite.lock", reason: "permission denied")), ["c.sqlite.lock", "--db path"]),
        (CatalogError.database(path: "c.sqlite", sqliteError), ["disk is full"]),
        (EngineError.noCatalog(catalog: "postgres://h/db"), ["catalog import FILE --db postgres://h/db"]),
        (EngineError.unreachable(catalog: "postgres://h/db", reason: "refused"), ["cannot connect", "refused", "--db"]),
        (EngineError.serverFailed(catalog: "postgres://h/db", doing: "add the product", message: "deadlock"), ["could not add the product", "deadlock"]),
        (EngineError.keptChanging(catalog: "c.sqlite"), ["again and again"]),
        (EngineError.unreadable(catalog: "postgres://h/db", reason: "the table is not a catalog"), ["the table is not a catalog"]),
    ]

    @Test(arguments: 0..<cases.count) func eachErrorNamesTheCommandLinesOptions(index: Int) throws {
        let (error, holds) = Self.cases[index]
        let message = try #require(commandMessage(for: error))
        for part in holds { #expect(message.contains(part), "\(message)") }
    }

    @Test func theLibrarysOwnWordsNameNoOption() {
        for (error, _) in Self.cases {
            let description = String(describing: error)
            #expect(!description.contains("--"), "\(description)")
        }
    }
}
