import ProductCatalog

extension CollectionError {
    /// What the command line says: the library's words, and the command that helps.
    var commandMessage: String {
        switch self {
        case .notFound: "\(description); `catalog collections list` shows their names"
        default: description
        }
    }
}
