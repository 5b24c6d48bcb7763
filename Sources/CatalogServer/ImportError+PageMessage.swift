import ProductCatalog

extension ImportError {
    /// The error as the page says it: about "the file", with what to do on the page, never a
    /// command-line flag. Nil where the command line's wording serves as it is.
    var pageMessage: String? {
        switch self {
        case .emptyInput:
            return "The file is empty. A product CSV starts with a header line such as productId,title,listPrice, then one line per product."
        case .notText(_, let signature):
            return "The file is \(signature.displayName), not a CSV file. \(signature.advice)"
        case .header(_, .missingProductId(let found)):
            return "The file has no productId column (its columns: \(Self.names(found))). Rename the column that identifies each product to productId, id or sku, then import the file again."
        case .header(_, .ambiguous(let field, let headers)):
            return "Columns \(Self.names(headers)) all look like \(field.rawValue). Rename all but one of them, then import the file again."
        case .noDataRows:
            return "The file has a header line but no products. Importing it would empty the catalog, so the catalog was not changed."
        case .nothingImported(let rowsRead, let invalidUTF8, _):
            var text = "None of the file's \(rowsRead) rows could be imported, so the catalog was not changed. The rejected rows, each with its reason, can be downloaded below."
            if invalidUTF8 * 2 > rowsRead {
                text += " Most rows are not UTF-8 text: save the file as CSV (UTF-8) and import it again."
            }
            return text
        case .tooManyRejects(let limit, let line, _):
            return "The import stopped at line \(line): more than \(limit) rows were rejected, so the catalog was not changed. The rejected rows, each with its reason, can be downloaded below."
        default:
            return nil
        }
    }

    /// The first eight names, quoted, and how many more there are.
    private static func names(_ names: [String]) -> String {
        let shown = names.prefix(8).map { "“\($0.prefix(40))”" }.joined(separator: ", ")
        return names.count > 8 ? shown + " and \(names.count - 8) more" : shown
    }
}
