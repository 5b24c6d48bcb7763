import ProductCatalog

extension EngineError {
    /// What the command line says, naming its own options.
    var commandMessage: String {
        switch self {
        case .noCatalog(let catalog):
            "\(catalog): no catalog here yet; create one with `catalog import FILE --db \(catalog)`"
        case .unreachable(let catalog, let reason):
            "\(catalog): cannot connect to the database server (\(reason)). Check that it runs and that --db names its host, port, user, password and database."
        case .serverFailed(let catalog, let doing, let message):
            "\(catalog): the server could not \(doing) (\(message)); nothing was changed. Try again."
        case .keptChanging(let catalog):
            "\(catalog) was replaced again and again while it was being opened; try again when the imports into it have finished."
        case .unreadable(_, let reason):
            reason
        case .notKept(let catalog, let what):
            "\(catalog) keeps no \(what): only a catalog file does, for now. Use --db with a .sqlite file."
        }
    }
}
