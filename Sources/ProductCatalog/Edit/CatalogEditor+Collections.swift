extension CatalogEditor {
    /// Makes a collection named `name`: smart when `search` is given (evaluated when browsed),
    /// else manual and empty. Returns it as stored.
    @discardableResult
    public func createCollection(_ name: String, search: SavedSearch? = nil) throws -> ProductCollection {
        let name = try Self.checked(name)
        return try write {
            try connection.execute(CollectionTable.createStatements)
            if let existing = try CollectionTable.named(name, connection) { throw EditError.collection(.exists(name: existing.name)) }
            let statement = try connection.prepare("INSERT INTO \(CollectionTable.table) (name, search) VALUES (?1, ?2)")
            try statement.bind(1, name)
            if let search { try statement.bind(2, search.parameters) } else { try statement.bindNull(2) }
            try statement.step()
            return ProductCollection(name: name, search: search, products: search == nil ? 0 : nil)
        }
    }

    /// Deletes the collection named `name` (its products stay in the catalog).
    public func deleteCollection(_ name: String) throws {
        try write {
            let collection = try existing(name)
            let statement = try connection.prepare("DELETE FROM \(CollectionTable.table) WHERE name = ?1")
            try statement.bind(1, collection.name)
            try statement.step()
        }
    }

    /// Puts `productIds` in the manual collection `name`, or with `removing` takes them out.
    /// Products already there (or not there) are left; productIds the catalog does not hold are
    /// returned, and nothing else is refused.
    @discardableResult
    public func changeCollection(_ name: String, adding productIds: [String], removing: Bool = false) throws -> CollectionChange {
        try write {
            let collection = try existing(name)
            guard collection.isManual else { throw EditError.collection(.smart(name: collection.name)) }
            let statement = try connection.prepare(removing
                ? "DELETE FROM \(CollectionTable.membersTable) WHERE collection = ?1 AND productId = ?2"
                : """
                  INSERT OR IGNORE INTO \(CollectionTable.membersTable) (collection, productId)
                    SELECT ?1, productId FROM \(CatalogSchema.table) WHERE productId = ?2
                  """)
            let exists = try connection.prepare("SELECT 1 FROM \(CatalogSchema.table) WHERE productId = ?1")
            var change = CollectionChange()
            for productId in productIds {
                try statement.using {
                    try statement.bind(1, collection.name)
                    try statement.bind(2, productId)
                    try statement.step()
                }
                if connection.changes > 0 {
                    change.changed += 1
                } else if try !exists.using({ try exists.bind(1, productId); return try exists.step() }) {
                    change.unknown.append(productId)
                }
            }
            return change
        }
    }

    /// Puts each product into the manual collections its `column` names, the values separated by
    /// `separator` (as Shopify's and WooCommerce's `Tags` are: `summer, linen`), making those the
    /// catalog lacks; `column` is a field (`productType`, `brand`…) or an extra column, ASCII case
    /// ignored. Values that cannot name a collection, and smart collections, are passed over. One
    /// transaction, reading the products in productId order.
    public func collectionsFromColumn(_ column: String, separator: Character = ",") throws -> ColumnCollections {
        let stored = try connection.prepare("SELECT name FROM pragma_table_info('\(CatalogSchema.table)')")
        var names: [String] = []
        while try stored.step() { names.append(stored.text(at: 0) ?? "") }
        let wanted = ProductField(rawValue: column)?.columnName ?? column
        guard let name = names.first(where: { $0.lowercased() == wanted.lowercased() }), name.lowercased() != "productid" else {
            // Named as feeds and the API name them: listPrice, not the column listPriceMilli.
            let shown = names.filter { $0.lowercased() != "productid" }.map { name in
                ProductField.allCases.first { $0.columnName.lowercased() == name.lowercased() }?.rawValue ?? name
            }
            throw EditError.collection(.noColumn(name: column, columns: shown))
        }
        return try write {
            try connection.execute(CollectionTable.createStatements)
            let read = try connection.prepare("""
                SELECT productId, \(quoteIdentifier(name)) FROM \(CatalogSchema.table) WHERE ifnull(\(quoteIdentifier(name)), '') != '' ORDER BY productId
                """)
            let add = try connection.prepare("INSERT OR IGNORE INTO \(CollectionTable.membersTable) (collection, productId) VALUES (?1, ?2)")
            let create = try connection.prepare("INSERT INTO \(CollectionTable.table) (name) VALUES (?1)")
            var result = ColumnCollections()
            /// By folded name: a manual collection's stored name, or nil for a smart one.
            var known: [String: String?] = [:]
            while try read.step() {
                let productId = read.text(at: 0) ?? ""
                for value in (read.text(at: 1) ?? "").split(separator: separator) {
                    guard case .success(let checked) = ProductCollection.checkedName(String(value)) else { continue }
                    let key = String(decoding: checked.utf8.map(ProductIdOrder.fold), as: UTF8.self)
                    if known[key] == nil {
                        if let existing = try CollectionTable.named(checked, connection) {
                            known[key] = .some(existing.isManual ? existing.name : nil)
                        } else {
                            try create.using {
                                try create.bind(1, checked)
                                try create.step()
                            }
                            known[key] = .some(checked)
                            result.created += 1
                        }
                    }
                    guard case .some(.some(let collection)) = known[key] else { continue }
                    try add.using {
                        try add.bind(1, collection)
                        try add.bind(2, productId)
                        try add.step()
                    }
                    result.added += connection.changes
                }
            }
            result.collections = known.count
            return result
        }
    }

    /// The collection named `name`, or ``CollectionError/notFound(name:)``.
    private func existing(_ name: String) throws -> ProductCollection {
        guard let collection = try CollectionTable.named(try Self.checked(name), connection) else {
            throw EditError.collection(.notFound(name: ProductRules.trimmed(name)))
        }
        return collection
    }

    private static func checked(_ name: String) throws -> String {
        switch ProductCollection.checkedName(name) {
        case .success(let name): return name
        case .failure(let error): throw EditError.collection(.invalidName(error))
        }
    }
}

/// What ``CatalogEditor/changeCollection(_:adding:removing:)`` did.
public struct CollectionChange: Sendable, Hashable {
    /// Products put in (or taken out).
    public var changed = 0
    /// The productIds the catalog does not hold, as given.
    public var unknown: [String] = []

    public init() {}
}

/// What ``CatalogEditor/collectionsFromColumn(_:separator:)`` did.
public struct ColumnCollections: Sendable, Hashable {
    /// Products put in a collection (a product and a collection counted once).
    public var added = 0
    /// Collections the column named.
    public var collections = 0
    /// Of those, collections made by it.
    public var created = 0

    public init() {}
}
