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
        case .unsupportedSort:
            "--sort needs a catalog file: a catalog on PostgreSQL lists matches in productId order."
        case .unreadable(_, let reason):
            reason
        }
    }

    /// A request the options could never satisfy (exit status 2), rather than a failure of the work (1).
    var isCommandLineMistake: Bool {
        if case .unsupportedSort = self { true } else { false }
    }
}
