/// Why a collection could not be made, found or changed. The catalog is left as it was.
public enum CollectionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The name cannot name a collection.
    case invalidName(CollectionNameError)
    /// A collection with this name (ASCII case ignored) exists already.
    case exists(name: String)
    /// No collection has this name.
    case notFound(name: String)
    /// Products are put in manual collections only; a smart one lists what its search finds.
    case smart(name: String)
    /// A smart collection was asked for together with a query, filters or a sort: it brings its own.
    case searchGiven(name: String)
    /// The catalog has no column `name` to make collections from; `columns` are those it has.
    case noColumn(name: String, columns: [String])

    public var description: String {
        switch self {
        case .invalidName(let error): error.description
        case .exists(let name): "a collection named \"\(name)\" exists already; choose another name, or delete that one first"
        case .notFound(let name): "no collection is named \"\(name)\""
        case .smart(let name): "\"\(name)\" is a smart collection: it lists what its search finds, so products cannot be put in or taken out by hand"
        case .searchGiven(let name): "\"\(name)\" is a smart collection, which brings its own search, filters and sort; ask for it alone"
        case .noColumn(let name, let columns): "the catalog has no column \"\(name)\"; its columns are \(columns.joined(separator: ", "))"
        }
    }
}
