import ProductCatalog

extension ImportError {
    /// The error as the page says it: about "the file", with what to do on the page, never a
    /// command-line flag or a server path.
    var pageMessage: String {
        switch self {
        case .source(let error):
            return "The file could not be read (\(error.reason)). The catalog was not changed."
        case .emptyInput:
            return "The file is empty. A product CSV starts with a header line such as productId,title,listPrice, then one line per product."
        case .notText(_, let signature):
            return "The file is \(signature.displayName), not a CSV file. \(signature.advice)"
        case .malformedHeader(_, let malformation):
            return "The file's header line is not valid CSV: \(malformation). Fix it, then import the file again."
        case .header(_, let error):
            return Self.pageMessage(error)
        case .stockHeader(_, let error):
            return "The file is not a stock file: \(error). The stock was not changed."
        case .collectionsHeader:
            return "The file is not a collection file: it needs the columns collection and productId. No collection was changed."
        case .noDataRows:
            return "The file has a header line but no products. Importing it would empty the catalog, so the catalog was not changed."
        case .noStockRows:
            return "The file has a header line but no stock. Importing it would empty the stock, so the stock was not changed."
        case .nothingImported(let rowsRead, let invalidUTF8, _):
            var text = "None of the file's \(rowsRead) rows could be imported, so the catalog was not changed. The rejected rows, each with its reason, can be downloaded below."
            if invalidUTF8 * 2 > rowsRead {
                text += " Most rows are not UTF-8 text: save the file as CSV (UTF-8) and import it again."
            }
            return text
        case .tooManyRejects(let limit, let line, _):
            return "The import stopped at line \(line): more than \(limit) rows were rejected, so the catalog was not changed. The rejected rows, each with its reason, can be downloaded below."
        case .tooManyDeletes(let wouldDelete, let catalogProducts, let limit):
            return "The file leaves out \(wouldDelete.formatted()) of the catalog's \(catalogProducts.formatted()) products, more than the \(limit) an update may delete, so the catalog was not changed. If the file really is the whole catalog, send it again with maxDeletes=\(wouldDelete) (or a share such as maxDeletes=50%)."
        case .duplicate(let productId, let firstLine, let line):
            return "productId “\(productId.prefix(80))” appears on line \(firstLine) and again on line \(line). The catalog was not changed."
        case .catalog(.database(_, let error)) where error.isFull:
            return "The server's disk is full, so the import stopped and the catalog was not changed. Free some space and import again."
        case .catalog(let error):
            return APIError.catalogMessage(error) + " The catalog was not changed."
        case .cancelled:
            return "The import was cancelled. The catalog was not changed."
        }
    }

    /// A header the catalog cannot map, as the page says it.
    private static func pageMessage(_ error: HeaderMappingError) -> String {
        switch error {
        case .missingProductId(let found):
            return "The file has no productId column (its columns: \(names(found))). Rename the column that identifies each product to productId, id or sku, then import the file again."
        case .ambiguous(let field, let headers):
            return "Columns \(names(headers)) all look like \(field.rawValue). Rename all but one of them, then import the file again."
        case .overrideNotFound(let field, let header, let found):
            return "No column is named “\(header.prefix(40))” (given for \(field.rawValue)); the file's columns: \(names(found))."
        case .overrideTwice(let header):
            return "The column “\(header.prefix(40))” is given for more than one field."
        case .tooManyColumns(let count, let limit):
            return "The file has \(count) columns; a catalog holds at most \(limit). Remove the columns you do not need, or save the file with commas, semicolons or tabs between its fields."
        case .controlCharacter(let column):
            return "Column \(column) of the header holds a line break or another control character; header names must be plain text."
        }
    }

    /// The first eight names, quoted, and how many more there are.
    private static func names(_ names: [String]) -> String {
        let shown = names.prefix(8).map { "“\($0.prefix(40))”" }.joined(separator: ", ")
        return names.count > 8 ? shown + " and \(names.count - 8) more" : shown
    }
}
