import ProductCatalogPostgres

extension PostgresCatalogError {
    /// What the command line says, naming its own options and commands.
    var commandMessage: String {
        switch self {
        case .invalidURL: "--db: \(description)"
        case .earlierLayout(let location): "\(description) (`catalog import FILE --db \(location)`)"
        default: description
        }
    }
}
