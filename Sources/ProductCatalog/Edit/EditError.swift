/// Why a product could not be added, changed or deleted. The catalog is left as it was.
public enum EditError: Error, Sendable, CustomStringConvertible {
    /// The product breaks the rules of ``ProductValidation``; each field says what to fix.
    case invalid(ProductValidationError)
    /// Another product already has this productId (compared ignoring ASCII case).
    case duplicate(productId: String)
    /// No product has this productId.
    case notFound(productId: String)
    /// A collection could not be made, found or changed so.
    case collection(CollectionError)
    /// An import replaced the catalog file after this editor opened it; open a new editor.
    case catalogReplaced(path: String)
    /// An import into the catalog is running; an edit now could be lost at its swap.
    case importRunning(path: String)
    /// Another program holds the catalog's write lock; try again in a moment.
    case busy(path: String)
    /// The file is missing or not a catalog.
    case catalog(CatalogError)
    /// SQLite failed.
    case database(path: String, SQLiteError)

    /// What went wrong and what to do.
    public var description: String {
        switch self {
        case .invalid(let error):
            return error.description
        case .duplicate(let productId):
            return "a product with productId \"\(productId)\" already exists; choose another productId or edit that product"
        case .notFound(let productId):
            return "no product has productId \"\(productId)\"; it may have been deleted or replaced by an import"
        case .collection(let error):
            return error.description
        case .catalogReplaced(let path):
            return "\(path) was replaced by an import while it was being edited; try again"
        case .importRunning(let path):
            return "\(path): an import into this catalog is running, and it could discard the change; try again when it has finished"
        case .busy(let path):
            return "\(path): another program is writing the catalog; try again in a moment"
        case .catalog(let error):
            return error.description
        case .database(let path, let error):
            if error.isFull { return "\(path): the disk is full (\(error.message)); free some space and try again" }
            if error.isReadOnly { return "\(path): the catalog or its folder cannot be written (\(error.message))" }
            return "\(path): SQLite could not write the catalog (\(error.message), code \(error.extendedCode))"
        }
    }
}
