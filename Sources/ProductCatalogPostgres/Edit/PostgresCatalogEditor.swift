import PostgresNIO
import ProductCatalog
import Synchronization

/// Adds, changes, deletes and stars single products in a catalog on PostgreSQL, each in one short
/// transaction, as ``CatalogEditor`` does in a file.
///
/// Each write takes the catalog's import lock shared for its transaction and is refused with
/// ``EditError/importRunning(path:)`` while an import holds it: a replacing import would discard
/// the edit at its swap. Each write also records its productIds in `catalog_edits`, so the next
/// replacing import can say how many hand edits it replaced. Validate products with
/// ``ProductValidation`` first. Writes on one editor run one after another.
public final class PostgresCatalogEditor: Sendable {
    let session: PostgresSession
    private let folder: Mutex<WordFolder>

    private init(session: PostgresSession) throws {
        self.session = session
        folder = Mutex(try WordFolder())
    }

    /// Connects to the catalog at `location`, creating an empty one when `creatingCatalog` and there is none.
    public static func open(_ location: PostgresLocation, creatingCatalog: Bool = false) async throws -> PostgresCatalogEditor {
        let session = try await PostgresSession.open(location)
        do {
            do {
                if try await PostgresCatalogState.requireCatalog(session, creating: creatingCatalog) == .missing {
                    try await createEmptyCatalog(session)
                }
            } catch let error as CatalogError {
                throw EditError.catalog(error)
            }
            try await session.execute(PostgresSchema.createEdits, doing: "create the edits table")
            try await session.execute(PostgresSchema.createFavorites, doing: "create the favorites table")
            for statement in PostgresSchema.createCollections { try await session.execute(statement, doing: "create the collections' tables") }
            return try PostgresCatalogEditor(session: session)
        } catch {
            await session.close()
            throw error
        }
    }

    /// Creates an empty catalog table, unless a concurrent writer just did.
    private static func createEmptyCatalog(_ session: PostgresSession) async throws {
        let table = PostgresSchema.table
        let schema = session.location.schema
        if schema != "public" {
            try await session.execute("CREATE SCHEMA IF NOT EXISTS \(PostgresSchema.quote(schema))", doing: "create the schema")
        }
        try await session.execute("BEGIN", doing: "create the catalog")
        do {
            try await session.execute("SELECT pg_advisory_xact_lock(\(PostgresSchema.lockKey(schema: schema)))", doing: "take the import lock")
            if try await PostgresCatalogState.read(session) == .missing {
                for statement in [
                    PostgresSchema.createTable(table, columns: PostgresSchema.fieldColumns),
                    "CREATE UNIQUE INDEX \(PostgresSchema.keyIndex(table)) ON \(table) (\(PostgresSchema.key))",
                    PostgresSchema.createWordsIndex(table),
                    PostgresSchema.createTitleKeyIndex(table),
                    PostgresSchema.createWordRowIndex(table),
                    PostgresSchema.createFamilyIndex(table),
                    "DROP TABLE IF EXISTS \(PostgresSchema.termsTable)",
                    PostgresSchema.createTerms(PostgresSchema.termsTable),
                    PostgresSchema.keyTerms(PostgresSchema.termsTable),
                    PostgresSchema.createMeta,
                    PostgresSchema.setMeta("nextPlace", "1"),
                    PostgresSchema.bumpTermsVersion,
                    "COMMENT ON TABLE \(table) IS \(PostgresSchema.literal(PostgresSchema.marker))",
                ] {
                    try await session.execute(statement, doing: "create the catalog")
                }
            }
            try await session.execute("COMMIT", doing: "create the catalog")
        } catch {
            try? await session.execute("ROLLBACK", doing: "roll back")
            throw error
        }
    }

    /// Closes the connection.
    public func close() async {
        await session.close()
    }

    /// Adds `product`; throws ``EditError/duplicate(productId:)`` when its productId is taken.
    @discardableResult
    public func add(_ product: Product) async throws -> Product {
        try await write { columns in
            let place = try await self.session.scalar(PostgresQuery(unsafeSQL: """
                INSERT INTO \(PostgresSchema.metaTable) (name, value) VALUES ('nextPlace', 2)
                ON CONFLICT (name) DO UPDATE SET value = \(PostgresSchema.metaTable).value + 1 RETURNING value - 1
                """), as: Int64.self, doing: "place the product") ?? 1
            var statement = PostgresStatement()
            let values = try self.assignments(product, columns: columns, place: .new(place), in: &statement)
            statement.sql = "INSERT INTO products (\(values.map(\.column).joined(separator: ", "))) VALUES (\(values.map(\.value).joined(separator: ", "))) RETURNING *"
            let stored = try await self.returning(statement, duplicate: product.productId)
            try await self.recordEdit(of: product.productId)
            try await self.listTerms(of: product)
            return stored
        }
    }

    /// Replaces the product with `productId` by `product`, which may carry a new productId.
    ///
    /// Every known field is replaced (an empty one becomes NULL); extra columns that `product`
    /// does not name keep their values.
    @discardableResult
    public func replace(productId: String, with product: Product) async throws -> Product {
        try await write { columns in
            var statement = PostgresStatement()
            let values = try self.assignments(product, columns: columns, place: .kept, in: &statement)
            statement.sql = "UPDATE products SET \(values.map { "\($0.column) = \($0.value)" }.joined(separator: ", ")) WHERE \(PostgresSchema.key) = "
            statement.sql += statement.bind(productId.asciiLowercased) + " RETURNING *"
            let stored = try await self.returning(statement, duplicate: product.productId)
            try await self.recordEdit(of: productId)
            try await self.recordEdit(of: product.productId)
            try await self.moveFavorite(from: productId, to: product.productId)
            try await self.listTerms(of: product)
            return stored
        }
    }

    /// Deletes the product with `productId`; throws ``EditError/notFound(productId:)`` when there is none.
    public func delete(productId: String) async throws {
        _ = try await write { _ in
            var statement = PostgresStatement("DELETE FROM products WHERE \(PostgresSchema.key) = ")
            statement.sql += statement.bind(productId.asciiLowercased) + " RETURNING *"
            _ = try await self.returning(statement, duplicate: productId, missing: productId)
            try await self.recordEdit(of: productId)
            try await self.moveFavorite(from: productId, to: nil)
            return Product(productId: productId)
        }
    }

    /// Stars or unstars the product with `productId`; throws ``EditError/notFound(productId:)`` when there is none.
    public func setFavorite(_ productId: String, _ starred: Bool) async throws {
        _ = try await write { _ in
            var exists = PostgresStatement("SELECT 1 FROM products WHERE \(PostgresSchema.key) = ")
            exists.sql += exists.bind(productId.asciiLowercased)
            guard try await !self.session.rows(exists.query, doing: "find the product").isEmpty else {
                throw EditError.notFound(productId: productId)
            }
            var statement = PostgresStatement()
            let key = statement.bind(productId.asciiLowercased)
            statement.sql = starred
                ? "INSERT INTO \(PostgresSchema.favoritesTable) (\"productKey\", \"starredAt\") VALUES (\(key), (extract(epoch from now()) * 1000)::bigint) ON CONFLICT DO NOTHING"
                : "DELETE FROM \(PostgresSchema.favoritesTable) WHERE \"productKey\" = \(key)"
            try await self.session.execute(statement, doing: "star the product")
            return Product(productId: productId)
        }
    }

    /// How many products were added, edited or deleted by hand since the last replacing import.
    public func handEditsSinceImport() async throws -> Int {
        try await session.scalar(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(PostgresSchema.editsTable)"), as: Int.self, doing: "count the hand edits") ?? 0
    }

    // MARK: - Writing

    /// Runs `body` in a transaction holding the import lock shared, with the table's columns by lowercased name.
    func write<T: Sendable>(_ body: ([String: String]) async throws -> T) async throws -> T {
        try await session.execute("BEGIN", doing: "begin the edit")
        do {
            let key = PostgresSchema.lockKey(schema: session.location.schema)
            let permitted = try await session.scalar(
                PostgresQuery(unsafeSQL: "SELECT pg_try_advisory_xact_lock_shared(\(key))"), as: Bool.self, doing: "check for an import")
            guard permitted == true else { throw EditError.importRunning(path: session.location.description) }
            let result = try await body(try await PostgresCatalogState.columns(session))
            try await session.execute("COMMIT", doing: "commit the edit")
            return result
        } catch {
            try? await session.execute("ROLLBACK", doing: "roll back the edit")
            throw error
        }
    }

    /// The row `statement` returns; a unique violation is ``EditError/duplicate(productId:)`` and no row ``EditError/notFound(productId:)``.
    private func returning(_ statement: PostgresStatement, duplicate productId: String, missing: String? = nil) async throws -> Product {
        do {
            guard let row = try await session.rows(statement.query, doing: "write the product").first else {
                throw EditError.notFound(productId: missing ?? productId)
            }
            return try PostgresProductRow.product(row)
        } catch let error as PostgresCatalogError where error.sqlState == "23505" {
            throw EditError.duplicate(productId: productId)
        }
    }

    private func recordEdit(of productId: String) async throws {
        var statement = PostgresStatement()
        statement.sql = "INSERT INTO \(PostgresSchema.editsTable) (\"productKey\") VALUES (\(statement.bind(productId.asciiLowercased))) ON CONFLICT DO NOTHING"
        try await session.execute(statement, doing: "record the edit")
    }

    /// Moves a star, the product's places in collections and its stock to its new productId, or
    /// drops them with the product (and its stores' counts of products in stock with its stock).
    private func moveFavorite(from old: String, to new: String?) async throws {
        guard new?.asciiLowercased != old.asciiLowercased else { return }
        var tables = [PostgresSchema.favoritesTable, PostgresSchema.collectionMembersTable]
        let (keepsStock, countsStores) = try await session.rows(PostgresQuery(unsafeSQL: """
            SELECT to_regclass('\(PostgresSchema.stockTable)') IS NOT NULL, to_regclass('\(PostgresSchema.stockStoresTable)') IS NOT NULL
            """), doing: "look for the stock").first.map { row in
            let cells = row.makeRandomAccess()
            return (try cells[0].decode(Bool.self), try cells[1].decode(Bool.self))
        } ?? (false, false)
        if keepsStock { tables.append(PostgresSchema.stockTable) }
        if keepsStock, countsStores, new == nil {
            var statement = PostgresStatement()
            statement.sql = """
                UPDATE \(PostgresSchema.stockStoresTable) t SET products = t.products - 1 FROM \(PostgresSchema.stockTable) s
                WHERE s."productKey" = \(statement.bind(old.asciiLowercased)) AND s.quantity > 0 AND t."storeKey" = s."storeKey"
                """
            try await session.execute(statement, doing: "count the products at its stores")
        }
        for table in tables {
            var statement = PostgresStatement()
            let oldKey = statement.bind(old.asciiLowercased)
            if let new {
                statement.sql = "UPDATE \(table) SET \"productKey\" = \(statement.bind(new.asciiLowercased)) WHERE \"productKey\" = \(oldKey)"
            } else {
                statement.sql = "DELETE FROM \(table) WHERE \"productKey\" = \(oldKey)"
            }
            try await session.execute(statement, doing: "move the star, the collections and the stock")
        }
    }

    /// Where an edited product goes in the word index's order.
    private enum Place {
        /// An added product's place.
        case new(Int64)
        /// A changed product keeps its place; its title may change its class.
        case kept
    }

    /// Lists the words of `product` in the term list, each counted once more (as a catalog
    /// file's writers count them), so that searches plan with them and find them with typos.
    private func listTerms(of product: Product) async throws {
        let terms = try folder.withLock { folder in
            Array(Set(try WordFolder.indexedFields.compactMap { product[$0]?.text }.flatMap { try folder.words(in: $0) })).sorted()
        }
        guard !terms.isEmpty else { return }
        var statement = PostgresStatement()
        statement.sql = """
            INSERT INTO \(PostgresSchema.termsTable) (term, docs) SELECT unnest(\(statement.bind(terms))::text[]), 1
            ON CONFLICT (term) DO UPDATE SET docs = \(PostgresSchema.termsTable).docs + 1
            """
        try await session.execute(statement, doing: "list the product's words")
        try await session.execute(PostgresSchema.bumpTermsVersion, doing: "list the product's words")
    }

    /// `column = value` for each known field, each extra `product` names, its words and their
    /// place; an unknown extra is a field error.
    private func assignments(_ product: Product, columns: [String: String], place: Place,
                             in statement: inout PostgresStatement) throws -> [(column: String, value: String)] {
        var values: [(String, String)] = []
        for field in ProductField.allCases {
            // A catalog written before a field existed lacks its column: an empty value leaves it out.
            if columns[field.columnName.lowercased()] == nil, product[field] == nil { continue }
            let value = switch product[field] {
            case .text(let text)?: statement.bind(text)
            case .integer(let number)?: statement.bind(number)
            case nil: "NULL"
            }
            values.append((PostgresSchema.quote(field.columnName), value))
        }
        let known = Set(ProductField.allCases.map { $0.columnName.lowercased() })
        let extras = columns.filter { !known.contains($0.key) }.values.sorted()
        var unknown: [String: FieldProblem] = [:]
        for extra in product.extras {
            if let column = columns[extra.name.lowercased()], !known.contains(extra.name.lowercased()) {
                values.append((PostgresSchema.quote(column), extra.value.map { statement.bind($0) } ?? "NULL"))
            } else {
                unknown[extra.name] = .unknownColumn(known: extras)
            }
        }
        guard unknown.isEmpty else { throw EditError.invalid(ProductValidationError(problems: unknown)) }
        let (words, shape) = try folder.withLock { folder in
            let title = try product.title.map { try folder.words(in: $0) } ?? []
            let other = try [product.brand, product.productType].compactMap { $0 }.flatMap { try folder.words(in: $0) }
            let placed: Int64 = if case .new(let number) = place { number } else { 0 }
            return (PostgresSchema.tsvector(title: title, other: other), try folder.titleShape(product.title ?? "", place: placed))
        }
        values.append((PostgresSchema.wordsColumn, statement.bind(words) + "::tsvector"))
        switch place {
        case .new: values.append((PostgresSchema.wordRowColumn, statement.bind(shape.wordRow)))
        case .kept:
            let row = PostgresSchema.wordRowColumn
            values.append((row, "(\(statement.bind(shape.wordRow)) | (\(row) & \(WordFolder.placeMask)))"))
        }
        values.append((PostgresSchema.titleKeyColumn, statement.bind(shape.key)))
        return values
    }
}
