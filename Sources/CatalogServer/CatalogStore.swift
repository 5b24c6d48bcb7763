import ProductCatalog

/// The catalog as the server sees it: this actor owns the SQLite connections for searching and editing.
///
/// An import renames a new file over the catalog, and a connection keeps reading the file it
/// opened. So before each request the store compares the identity (device and inode) of the file
/// at the path with the one its connections opened, and reopens them when they differ: requests
/// see the old catalog until the swap and the new one right after, whoever imported it (this
/// server, or `catalog import` from a shell). ``catalogReplaced()`` drops the connections at once
/// when this server's own import finishes. Writes go through ``CatalogEditor``, which re-checks
/// the file under its write lock. Counts of matches are kept per prefix until the file's
/// `PRAGMA data_version` says someone committed a change.
public actor CatalogStore {
    /// The catalog's path.
    public let databasePath: String
    private var search: ProductSearch?
    private var searchIdentity: CatalogFileIdentity?
    private var editor: CatalogEditor?
    /// A connection that only watches `PRAGMA data_version`, which changes whenever another
    /// connection (this server's editor, or another program) commits to the file.
    private var watcher: Connection?
    /// Match counts by prefix, valid while the file and its data version stay the same.
    private var counts: [String: Int] = [:]
    private var countsVersion: Int64?

    /// A store for the catalog at `databasePath`, which need not exist yet.
    public init(databasePath: String) {
        self.databasePath = databasePath
    }

    /// A page of products whose productId starts with `prefix`, and how many match in all.
    public func page(prefix: String, after cursor: KeysetCursor?, limit: Int) throws -> (page: SearchPage, count: Int) {
        guard let search = try currentSearch() else { return (SearchPage(products: [], nextCursor: nil), 0) }
        let page = try search.page(prefix: prefix, after: cursor, limit: limit)
        let version = try watcher?.scalarInt("PRAGMA data_version")
        if version != countsVersion {
            counts.removeAll()
            countsVersion = version
        }
        if let count = counts[prefix] { return (page, count) }
        let count = try search.count(prefix: prefix)
        if counts.count >= 256 { counts.removeAll() }
        counts[prefix] = count
        return (page, count)
    }

    /// The product with this productId (ASCII case ignored), if any.
    public func product(id: String) throws -> Product? {
        try currentSearch()?.product(id: id)
    }

    /// Adds `product`, creating an empty catalog first when there is none yet.
    public func add(_ product: Product) throws -> Product {
        try withEditor(creatingCatalog: true) { try $0.add(product) }
    }

    /// Replaces the product with `productId` by `product`.
    public func replace(productId: String, with product: Product) throws -> Product {
        try withEditor(creatingCatalog: false) { try $0.replace(productId: productId, with: product) }
    }

    /// Deletes the product with `productId`.
    public func delete(productId: String) throws {
        try withEditor(creatingCatalog: false) { try $0.delete(productId: productId) }
    }

    /// Forgets the open connections so the next request opens the file now at the path.
    public func catalogReplaced() {
        search = nil
        searchIdentity = nil
        editor = nil
        watcher = nil
        counts.removeAll()
        countsVersion = nil
    }

    // MARK: - Connections

    /// The search on the file now at the path; nil when there is no catalog yet.
    private func currentSearch() throws -> ProductSearch? {
        for _ in 0..<3 {
            let identity = CatalogFileIdentity.ofFile(at: databasePath)
            if let search, identity == searchIdentity { return search }
            catalogReplaced()
            guard let identity else { return nil }
            let opened: ProductSearch
            do {
                opened = try ProductSearch(databasePath: databasePath)
            } catch CatalogError.noCatalog {
                continue
            } catch let error as CatalogError {
                // An empty file is a catalog about to be created; anything else is not ours to read.
                if try CatalogSchema.kind(ofFileAt: databasePath) == .empty { return nil }
                throw APIError(.internalServerError, error.description)
            }
            // The file may have been swapped between the stat and the open: keep the search only
            // when the path names the same file before and after.
            let watcher = try Connection(path: databasePath, mode: .readOnly)
            if CatalogFileIdentity.ofFile(at: databasePath) == identity {
                search = opened
                searchIdentity = identity
                self.watcher = watcher
                return opened
            }
        }
        throw APIError(.serviceUnavailable, "The catalog file is being replaced again and again; try again in a moment.")
    }

    /// Runs `body` with an editor on the file now at the path, reopening it when an import replaced the file.
    private func withEditor<T>(creatingCatalog: Bool, _ body: (CatalogEditor) throws -> T) throws -> T {
        for _ in 0..<3 {
            if editor?.isCurrent != true {
                editor = nil
                if creatingCatalog { try CatalogEditor.createCatalogIfMissing(at: databasePath) }
                do {
                    editor = try CatalogEditor(databasePath: databasePath)
                } catch EditError.catalogReplaced {
                    continue
                } catch EditError.catalog(.noCatalog) {
                    throw APIError(.notFound, "There is no catalog at \(databasePath) yet: import a CSV file or add a product first.")
                }
            }
            guard let editor else { continue }
            do {
                return try body(editor)
            } catch EditError.catalogReplaced {
                self.editor = nil
            }
        }
        throw EditError.catalogReplaced(path: databasePath)
    }
}
