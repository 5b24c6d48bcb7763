/// Why an import stopped. The catalog is left exactly as it was before the import began.
public enum ImportError: Error, Sendable, CustomStringConvertible {
    /// The input could not be opened or read.
    case source(ByteSourceError)
    /// The input has no header line.
    case emptyInput(source: String)
    /// The input is not text: a picture, a spreadsheet workbook, a PDF, UTF-16 text.
    case notText(source: String, FileSignature)
    /// The header line itself is not valid CSV.
    case malformedHeader(source: String, CSVMalformation)
    /// The file has a header but no data rows; replacing would empty the catalog.
    case noDataRows(source: String)
    /// A stock file has a header but no data rows; replacing would empty the stock.
    case noStockRows(source: String)
    /// Every data row was rejected, so the import would keep nothing.
    case nothingImported(rowsRead: Int, invalidUTF8: Int, rejectsPath: String)
    /// The header cannot be mapped to product fields.
    case header(source: String, HeaderMappingError)
    /// A stock file's header lacks a column a stock import needs.
    case stockHeader(source: String, StockLayoutError)
    /// A collection file's header lacks a `collection` or a `productId` column.
    case collectionsHeader(source: String, header: [String])
    /// More rows were rejected than `maxErrors` allows.
    case tooManyRejects(limit: Int, line: Int, rejectsPath: String)
    /// An upsert deleting what its file omits would delete more products than ``ImportOptions/maxDeletes`` allows.
    case tooManyDeletes(wouldDelete: Int, catalogProducts: Int, limit: DeleteLimit)
    /// With ``DuplicatePolicy/fail``, a productId came again.
    case duplicate(productId: String, firstLine: Int, line: Int)
    /// The catalog could not be opened, written or swapped: it is not a catalog, it is
    /// read-only or in use, or the disk is full.
    case catalog(CatalogError)
    /// The caller cancelled the import.
    case cancelled

    /// What happened and where, without naming any interface's options: the CLI and the page
    /// each add what to do in their own words.
    public var description: String {
        switch self {
        case .source(let error):
            return "cannot read \(error)"
        case .emptyInput(let source):
            return "\(source): the file is empty; a product CSV starts with a header line such as productId,title,listPrice"
        case .notText(let source, let signature):
            return "\(source) is \(signature.displayName), not a CSV file. \(signature.advice)"
        case .malformedHeader(let source, let malformation):
            return "\(source): the header line is not valid CSV: \(malformation)"
        case .noDataRows(let source):
            return "\(source) has a header line but no data rows; importing it would empty the catalog, so the catalog was not changed."
        case .noStockRows(let source):
            return "\(source) has a header line but no data rows; importing it would empty the stock, so the stock was not changed."
        case .nothingImported(let rowsRead, let invalidUTF8, let rejectsPath):
            var text = "none of the \(rowsRead) data rows could be imported (each is in \(rejectsPath) with the reason), so the catalog was not changed."
            if invalidUTF8 * 2 > rowsRead {
                text += " Most rows are not valid UTF-8: the file may have been saved as Latin-1 or Windows-1252 (as Excel does)."
            }
            return text
        case .header(let source, let error):
            return "\(source): \(error)"
        case .stockHeader(let source, let error):
            return "\(source): \(error)"
        case .collectionsHeader(let source, let header):
            return "\(source): a collection file needs the columns collection and productId; its header has \(header.joined(separator: ", "))"
        case .tooManyRejects(let limit, let line, let rejectsPath):
            return "stopped at line \(line): more than \(limit) rows were rejected (see \(rejectsPath)). The catalog was not changed."
        case .tooManyDeletes(let wouldDelete, let catalogProducts, let limit):
            return "the file leaves out \(wouldDelete) of the catalog's \(catalogProducts) products, more than the \(limit) an upsert may delete, so the catalog was not changed."
        case .duplicate(let productId, let firstLine, let line):
            return "productId \"\(productId)\" appears on line \(firstLine) and again on line \(line), and duplicates were to fail the import. The catalog was not changed."
        case .catalog(let error):
            return error.description
        case .cancelled:
            return "the import was cancelled. The catalog was not changed."
        }
    }
}

extension ImportError {
    /// The import's reading of an error from the sort.
    init(_ error: SortError) {
        switch error {
        case .duplicate(let productId, let firstLine, let line): self = .duplicate(productId: productId, firstLine: firstLine, line: line)
        case .stopped: self = .cancelled
        }
    }
}
