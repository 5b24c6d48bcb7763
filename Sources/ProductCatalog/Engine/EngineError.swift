/// What only an engine can report: the catalog's server is away, a file keeps changing under
/// the reader, or what it holds is no catalog. Each interface says it in its own words.
public enum EngineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// There is no catalog yet at `catalog`.
    case noCatalog(catalog: String)
    /// The server holding `catalog` cannot be reached now; `reason` is what the connection said.
    case unreachable(catalog: String, reason: String)
    /// The server holding `catalog` refused to `doing` with `message`; nothing was changed.
    case serverFailed(catalog: String, doing: String, message: String)
    /// The catalog file was replaced again and again while it was being opened.
    case keptChanging(catalog: String)
    /// `catalog` exists but cannot be read as a catalog: `reason` says why.
    case unreadable(catalog: String, reason: String)
    /// `catalog` keeps no `what` (collections): only catalog files do, for now.
    case notKept(catalog: String, what: String)

    public var description: String {
        switch self {
        case .noCatalog(let catalog): "\(catalog): no catalog here yet"
        case .unreachable(let catalog, let reason): "\(catalog) cannot be reached (\(reason))"
        case .serverFailed(let catalog, let doing, let message): "\(catalog): the server could not \(doing) (\(message)); nothing was changed"
        case .keptChanging(let catalog): "\(catalog) was replaced again and again while being opened"
        case .unreadable(let catalog, let reason): "\(catalog): \(reason)"
        case .notKept(let catalog, let what): "\(catalog) keeps no \(what): only catalog files do, for now"
        }
    }
}
