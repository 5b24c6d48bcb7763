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
    /// `catalog` keeps no `what` (collections, stock by store): its engine does not.
    case notKept(catalog: String, what: CatalogFeature)

    public var description: String {
        switch self {
        case .noCatalog(let catalog): "\(catalog): no catalog here yet"
        case .unreachable(let catalog, let reason): "\(catalog) cannot be reached (\(reason))"
        case .serverFailed(let catalog, let doing, let message): "\(catalog): the server could not \(doing) (\(message)); nothing was changed"
        case .keptChanging(let catalog): "\(catalog) was replaced again and again while being opened"
        case .unreadable(let catalog, let reason): "\(catalog): \(reason)"
        case .notKept(let catalog, let what): "\(catalog) keeps no \(what)"
        }
    }
}

/// What a catalog may keep beside its products, by engine (``CatalogEngine/features``).
public enum CatalogFeature: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Each product's quantity at each store (``StockKeeping``).
    case stockByStore
    /// Manual and smart collections (``CollectionKeeping``).
    case collections

    /// As a sentence names it: "stock by store", "collections".
    public var description: String {
        switch self {
        case .stockByStore: "stock by store"
        case .collections: "collections"
        }
    }
}
