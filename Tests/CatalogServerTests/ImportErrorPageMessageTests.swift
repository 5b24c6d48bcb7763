@testable import ProductCatalog
import Testing
@testable import CatalogServer

/// Every import error as the page says it: about the file, with what to do on the page, never a
/// command-line option or a server path.
@Suite struct ImportErrorPageMessageTests {
    static let path = "/srv/work/import-3.csv"
    static let sqliteError = SQLiteError(extendedCode: 13, message: "database or disk is full", sql: nil)

    static let cases: [(ImportError, String)] = [
        (.source(ByteSourceError(source: path, reason: "gzip data is corrupt")), "could not be read (gzip data is corrupt)"),
        (.emptyInput(source: path), "The file is empty"),
        (.notText(source: path, .png), "not a CSV file"),
        (.malformedHeader(source: path, CSVMalformation(kind: .unterminatedQuote, column: 3, line: 1, byteOffset: 0)), "header line is not valid CSV"),
        (.noDataRows(source: path), "no products"),
        (.nothingImported(rowsRead: 4, invalidUTF8: 4, rejectsPath: path), "save the file as CSV (UTF-8)"),
        (.nothingImported(rowsRead: 4, invalidUTF8: 0, rejectsPath: path), "can be downloaded below"),
        (.header(source: path, .missingProductId(found: ["Handle"])), "no productId column"),
        (.header(source: path, .ambiguous(field: .productId, headers: ["ID", "SKU"])), "Rename all but one"),
        (.header(source: path, .overrideNotFound(field: .title, header: "Name", found: ["Title"])), "No column is named “Name”"),
        (.header(source: path, .overrideTwice(header: "Name")), "more than one field"),
        (.header(source: path, .tooManyColumns(count: 3000, limit: 2014)), "3000 columns"),
        (.header(source: path, .controlCharacter(column: 2)), "Column 2 of the header"),
        (.tooManyRejects(limit: 10, line: 99, rejectsPath: path), "stopped at line 99"),
        (.duplicate(productId: "A1", firstLine: 2, line: 9), "on line 2 and again on line 9"),
        (.catalog(.database(path: "/srv/catalog.sqlite", sqliteError)), "disk is full"),
        (.catalog(.readOnly(path: "/srv/catalog.sqlite")), "read-only"),
        (.cancelled, "cancelled"),
    ]

    @Test(arguments: 0..<cases.count) func eachErrorIsSaidInThePagesWords(index: Int) {
        let (error, says) = Self.cases[index]
        let message = error.pageMessage
        #expect(message.contains(says), "\(message)")
        #expect(!message.contains("--") && !message.contains("/srv/"), "\(message)")
    }
}
