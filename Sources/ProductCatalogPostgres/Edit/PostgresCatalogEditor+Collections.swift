import PostgresNIO
import ProductCatalog

/// The collections of a catalog on PostgreSQL, changed as ``CatalogEditor`` changes a file's:
/// the same names, refusals and counts. Each change is one transaction under the import lock.
extension PostgresCatalogEditor {
    /// Makes a collection named `name`: smart when `search` is given, else manual and empty.
    public func createCollection(_ name: String, search: SavedSearch?) async throws -> ProductCollection {
        let name = try Self.checkedName(name)
        return try await write { _ in
            var statement = PostgresStatement()
            let key = statement.bind(name.asciiLowercased)
            let stored = statement.bind(name)
            let saved = search.map { statement.bind($0.parameters) } ?? "NULL"
            statement.sql = """
                INSERT INTO \(PostgresSchema.collectionsTable) ("nameKey", name, search) VALUES (\(key), \(stored), \(saved))
                ON CONFLICT DO NOTHING RETURNING 1
                """
            guard try await !self.session.rows(statement.query, doing: "make the collection").isEmpty else {
                let existing = try await self.storedCollection(name)
                throw EditError.collection(.exists(name: existing?.name ?? name))
            }
            return ProductCollection(name: name, search: search, products: search == nil ? 0 : nil)
        }
    }

    /// Deletes the collection named `name` and its members (its products stay).
    public func deleteCollection(_ name: String) async throws {
        _ = try await write { _ in
            let collection = try await self.existingCollection(name)
            for table in [PostgresSchema.collectionMembersTable, PostgresSchema.collectionsTable] {
                var statement = PostgresStatement()
                statement.sql = "DELETE FROM \(table) WHERE \"\(table == PostgresSchema.collectionsTable ? "nameKey" : "collectionKey")\" = \(statement.bind(collection.name.asciiLowercased))"
                try await self.session.execute(statement, doing: "delete the collection")
            }
            return collection
        }
    }

    /// Puts `productIds` in the manual collection `name`, or with `removing` takes them out;
    /// productIds the catalog does not hold are returned, nothing else is refused.
    public func changeCollection(_ name: String, adding productIds: [String], removing: Bool) async throws -> CollectionChange {
        try await write { _ in
            let collection = try await self.existingCollection(name)
            guard collection.isManual else { throw EditError.collection(.smart(name: collection.name)) }
            var change = CollectionChange()
            for productId in productIds {
                if try await self.changeMember(collection.name.asciiLowercased, productId, byHandle: false, removing: removing) > 0 {
                    change.changed += 1
                } else if try await !self.holds(productId, byHandle: false) {
                    change.unknown.append(productId)
                }
            }
            return change
        }
    }

    /// Puts the products `records` name into manual collections, made when missing; replacing
    /// empties each collection the file names first. One transaction: a failure leaves the
    /// collections as they were.
    public func importCollections(_ records: CollectionRecords, mode: ImportMode) async throws -> CollectionImportSummary {
        try await write { _ in
            var manual: [String: String] = [:]
            var smart: Set<String> = []
            while let member = try records.next() {
                let key = member.collectionKey
                if manual[key] == nil, !smart.contains(key) {
                    if let existing = try await self.storedCollection(member.collection) {
                        if existing.isManual {
                            manual[key] = existing.name
                            if mode == .replace {
                                var empty = PostgresStatement()
                                empty.sql = "DELETE FROM \(PostgresSchema.collectionMembersTable) WHERE \"collectionKey\" = \(empty.bind(key)) RETURNING 1"
                                records.summary.removed += try await self.session.rows(empty.query, doing: "empty the collection").count
                            }
                        } else {
                            smart.insert(key)
                        }
                    } else {
                        var create = PostgresStatement()
                        create.sql = "INSERT INTO \(PostgresSchema.collectionsTable) (\"nameKey\", name) VALUES (\(create.bind(key)), \(create.bind(member.collection)))"
                        try await self.session.execute(create, doing: "make the collection")
                        manual[key] = member.collection
                        records.summary.collectionsCreated += 1
                    }
                }
                guard manual[key] != nil else {
                    try records.reject("\"\(member.collection)\" is a smart collection: it lists what its search finds")
                    continue
                }
                let added = try await self.changeMember(key, member.productId, byHandle: records.byHandle, removing: false)
                if added > 0 {
                    records.summary.added += added
                } else if try await self.holds(member.productId, byHandle: records.byHandle) {
                    records.summary.alreadyThere += 1
                } else {
                    records.summary.unknownProducts += 1
                    try records.reject("no product has productId \"\(member.productId)\" in the catalog")
                }
            }
            records.summary.collections = manual.count + smart.count
            return records.summary
        }
    }

    /// Puts each product into the manual collections its `column` (a field or an extra column,
    /// ASCII case ignored) names, the values separated by `separator`, making those the catalog
    /// lacks; values that cannot name a collection, and smart collections, are passed over. One
    /// transaction, reading the products 1,000 at a time in productId order.
    public func collectionsFromColumn(_ column: String, separator: Character) async throws -> ColumnCollections {
        try await write { columns in
            let wanted = (ProductField(rawValue: column)?.columnName ?? column).lowercased()
            guard let name = columns[wanted], wanted != "productid" else {
                // Named in the table's order, as feeds and the API name them: listPrice, not listPriceMilli.
                let ordered = try await PostgresCatalogState.orderedColumns(self.session)
                let shown = ordered.filter { $0.lowercased() != "productid" }.map { name in
                    ProductField.allCases.first { $0.columnName.lowercased() == name.lowercased() }?.rawValue ?? name
                }
                throw EditError.collection(.noColumn(name: column, columns: shown))
            }
            var result = ColumnCollections()
            /// By folded name: a manual collection's key, or nil for a smart one.
            var known: [String: String?] = [:]
            var after = ""
            while true {
                var page = PostgresStatement()
                let last = page.bind(after)
                page.sql = """
                    SELECT \(PostgresSchema.key), \(PostgresSchema.quote(name))::text FROM products
                    WHERE \(PostgresSchema.key) > \(last) AND coalesce(\(PostgresSchema.quote(name))::text, '') <> ''
                    ORDER BY \(PostgresSchema.key) LIMIT 1000
                    """
                let rows = try await self.session.rows(page.query, doing: "read the column")
                for row in rows {
                    let cells = row.makeRandomAccess()
                    let productKey = try cells[0].decode(String.self)
                    after = productKey
                    for value in try cells[1].decode(String.self).split(separator: separator) {
                        guard case .success(let checked) = ProductCollection.checkedName(String(value)) else { continue }
                        let key = checked.asciiLowercased
                        if known[key] == nil {
                            if let existing = try await self.storedCollection(checked) {
                                known[key] = .some(existing.isManual ? key : nil)
                            } else {
                                var create = PostgresStatement()
                                create.sql = "INSERT INTO \(PostgresSchema.collectionsTable) (\"nameKey\", name) VALUES (\(create.bind(key)), \(create.bind(checked)))"
                                try await self.session.execute(create, doing: "make the collection")
                                known[key] = .some(key)
                                result.created += 1
                            }
                        }
                        guard case .some(.some(let collection)) = known[key] else { continue }
                        var add = PostgresStatement()
                        add.sql = """
                            INSERT INTO \(PostgresSchema.collectionMembersTable) ("collectionKey", "productKey")
                            VALUES (\(add.bind(collection)), \(add.bind(productKey))) ON CONFLICT DO NOTHING RETURNING 1
                            """
                        result.added += try await self.session.rows(add.query, doing: "put the product in the collection").count
                    }
                }
                if rows.count < 1000 { break }
            }
            result.collections = known.count
            return result
        }
    }

    // MARK: - Reading within a write

    /// The collection named `name` as stored, if any.
    private func storedCollection(_ name: String) async throws -> ProductCollection? {
        var statement = PostgresStatement()
        statement.sql = "SELECT name, search FROM \(PostgresSchema.collectionsTable) WHERE \"nameKey\" = \(statement.bind(ProductRules.trimmed(name).asciiLowercased))"
        guard let row = try await session.rows(statement.query, doing: "find the collection").first else { return nil }
        let cells = row.makeRandomAccess()
        let search = try cells[1].decode(String?.self).map(SavedSearch.init(parameters:))
        return ProductCollection(name: try cells[0].decode(String.self), search: search, products: nil)
    }

    /// The collection named `name`, or ``CollectionError/notFound(name:)``.
    private func existingCollection(_ name: String) async throws -> ProductCollection {
        guard let collection = try await storedCollection(try Self.checkedName(name)) else {
            throw EditError.collection(.notFound(name: ProductRules.trimmed(name)))
        }
        return collection
    }

    /// Adds (or removes) the product `productId` (with `byHandle`, the product and its variants
    /// `productId/…`) to the collection `collectionKey`; how many products that changed.
    private func changeMember(_ collectionKey: String, _ productId: String, byHandle: Bool, removing: Bool) async throws -> Int {
        var statement = PostgresStatement()
        let collection = statement.bind(collectionKey)
        let matching = matchingProducts(productId, byHandle: byHandle, in: &statement)
        statement.sql = removing
            ? """
              DELETE FROM \(PostgresSchema.collectionMembersTable) WHERE "collectionKey" = \(collection)
                AND "productKey" IN (SELECT \(PostgresSchema.key) FROM products WHERE \(matching)) RETURNING 1
              """
            : """
              INSERT INTO \(PostgresSchema.collectionMembersTable) ("collectionKey", "productKey")
                SELECT \(collection), \(PostgresSchema.key) FROM products WHERE \(matching) ON CONFLICT DO NOTHING RETURNING 1
              """
        return try await session.rows(statement.query, doing: "change the collection").count
    }

    /// Whether the catalog holds the product `productId` (with `byHandle`, it or a variant `productId/…`).
    private func holds(_ productId: String, byHandle: Bool) async throws -> Bool {
        var statement = PostgresStatement()
        let matching = matchingProducts(productId, byHandle: byHandle, in: &statement)
        statement.sql = "SELECT 1 FROM products WHERE \(matching) LIMIT 1"
        return try await !session.rows(statement.query, doing: "find the product").isEmpty
    }

    /// The condition on `products` that the product is `productId` (ASCII case ignored), or with
    /// `byHandle` that product and the variants whose productId starts `productId/`.
    private func matchingProducts(_ productId: String, byHandle: Bool, in statement: inout PostgresStatement) -> String {
        let key = statement.bind(productId.asciiLowercased)
        guard byHandle else { return "\(PostgresSchema.key) = \(key)" }
        // '0' follows '/': the variants are one range of the key.
        return "(\(PostgresSchema.key) = \(key) OR (\(PostgresSchema.key) > \(key) || '/' AND \(PostgresSchema.key) < \(key) || '0'))"
    }

    private static func checkedName(_ name: String) throws -> String {
        switch ProductCollection.checkedName(name) {
        case .success(let name): return name
        case .failure(let error): throw EditError.collection(.invalidName(error))
        }
    }
}
