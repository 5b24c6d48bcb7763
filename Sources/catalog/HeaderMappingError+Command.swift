import ProductCatalog

extension HeaderMappingError {
    /// What the command line says: the library's facts and the `--column` or `--delimiter` that fixes them.
    var commandMessage: String {
        switch self {
        case .missingProductId:
            "\(description). Name the key column with --column productId=HEADER."
        case .ambiguous(let field, let headers):
            "\(description); choose one with " + headers.map { "--column \(field.rawValue)=\"\($0)\"" }.joined(separator: " or ")
        case .overrideNotFound(let field, let header, _):
            "--column \(field.rawValue)=\"\(header)\": \(description)"
        case .overrideTwice(let header):
            "column \"\(header)\" is named by more than one --column"
        case .tooManyColumns:
            "\(description). Remove the columns you do not need, or check that --delimiter is right."
        case .controlCharacter:
            description
        }
    }
}
