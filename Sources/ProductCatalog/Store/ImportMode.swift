/// How an import treats the products already in the catalog.
public enum ImportMode: String, Sendable, CaseIterable {
    /// The file's products replace the catalog's, swapped in atomically at the end.
    case replace
    /// The file's products are added, or update those with the same productId, in one transaction.
    case upsert
}
