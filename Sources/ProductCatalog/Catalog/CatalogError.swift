/// A catalog-level failure: the file to read or write is not what it should be.
public enum CatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing at the path: import something first.
    case noCatalog(path: String)
    /// The file exists but is not a catalog this tool made; it is never overwritten.
    case notACatalog(path: String)

    public var description: String {
        switch self {
        case .noCatalog(let path):
            "\(path): no catalog here yet; create one with `catalog import FILE --db \(path)`"
        case .notACatalog(let path):
            "\(path): this file is not a product catalog made by this tool; it is left untouched (choose another --db path)"
        }
    }
}
