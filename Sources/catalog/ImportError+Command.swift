import ProductCatalog

extension ImportError {
    /// What the command line says: the library's facts and the option that changes the outcome.
    var commandMessage: String {
        switch self {
        case .source, .emptyInput, .notText, .malformedHeader, .cancelled:
            description
        case .noDataRows:
            "\(description) To empty it on purpose, add --allow-empty (with --delete-missing, also --max-deletes 100%)."
        case .noStockRows:
            "\(description) To empty it on purpose, add --allow-empty."
        case .nothingImported(let rowsRead, let invalidUTF8, let rejectsPath):
            if invalidUTF8 * 2 > rowsRead {
                "none of the \(rowsRead) data rows could be imported (each is in \(rejectsPath) with the reason), so the catalog was not changed. Most rows are not valid UTF-8: if the file was saved as Latin-1 or Windows-1252 (as Excel does), import it again with --encoding latin1 or --encoding windows-1252."
            } else {
                "\(description) Fix the rows and import again; to empty the catalog on purpose, add --allow-empty."
            }
        case .header(let source, let error):
            "\(source): \(error.commandMessage)"
        case .stockHeader(let source, let error):
            "\(source): \(error). Rename the columns, or see `catalog import-stock --help` for the formats it reads. The stock was not changed."
        case .collectionsHeader(let source, let header):
            "\(source): a collection file needs the columns collection and productId (one row per product in a collection); its header has \(header.joined(separator: ", ")). No collection was changed."
        case .tooManyRejects(let limit, let line, let rejectsPath):
            "stopped at line \(line): more than \(limit) rows were rejected (see \(rejectsPath); raise --max-errors to go on). The catalog was not changed."
        case .tooManyDeletes(let wouldDelete, _, _):
            "\(description) If the file really is the whole catalog, run it again with --max-deletes \(wouldDelete) (or a share such as --max-deletes 50%)."
        case .duplicate(let productId, let firstLine, let line):
            "productId \"\(productId)\" appears on line \(firstLine) and again on line \(line) (--on-duplicate fail). The catalog was not changed."
        case .catalog(let error):
            error.commandMessage
        }
    }
}
