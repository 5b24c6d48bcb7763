/// A catalog that keeps collections beside its products: manual ones, lists of products, and
/// smart ones, saved searches (``ProductCollection``).
///
/// ```swift
/// let collections = try catalog.keptCollections()      // throws EngineError.notKept when it keeps none
/// let made = try await collections.createCollection("Summer", search: nil)
/// ```
public protocol CollectionKeeping: CatalogEngine {
    /// Every collection, by name: manual ones with their counts.
    func collections() async throws -> [ProductCollection]
    /// The collection named `name` (ASCII case ignored), if any.
    func collection(named name: String) async throws -> ProductCollection?
    /// Up to `limit` productIds of the manual collection `name`, in productId order, after `productId`.
    func members(of name: String, after productId: String?, limit: Int) async throws -> [String]
    /// Makes a collection: smart with `search`, else manual and empty.
    func createCollection(_ name: String, search: SavedSearch?) async throws -> ProductCollection
    /// Deletes a collection; its products stay.
    func deleteCollection(_ name: String) async throws
    /// Puts `productIds` in a manual collection, or with `removing` takes them out.
    func changeCollection(_ name: String, adding productIds: [String], removing: Bool) async throws -> CollectionChange
    /// Puts each product into the manual collections its `column` names, the values separated by
    /// `separator`, making those the catalog lacks (see ``CatalogEditor/collectionsFromColumn(_:separator:)``).
    func collectionsFromColumn(_ column: String, separator: Character) async throws -> ColumnCollections
    /// Puts the products a `collection,productId` file names into manual collections (see
    /// ``CollectionImporter``); rejected records go to `rejectsPath`, or by default beside the catalog file or the file read.
    func importCollections(from source: InputSource, mode: ImportMode, rejectsPath: String?) async throws -> CollectionImportSummary
}
