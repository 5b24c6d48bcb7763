/// Adds, changes and deletes single products in a live catalog, each in one short transaction.
///
/// ```swift
/// let editor = try CatalogEditor(databasePath: "catalog.sqlite")
/// let product = try ProductValidation.product(from: ProductDraft(values: [.productId: "AB-1", .title: "Mug"]))
/// try editor.add(product)
/// ```
///
/// Writes go to the live file with SQLite's ordinary rollback journal, so a reader sees an edit
/// whole or not at all. An import may rename a new catalog over the file at any time, and a
/// connection keeps writing the file it opened: such a write would be lost, and its journal,
/// named after the path, could meet the new file. So each write first takes the write lock and
/// then checks that the path still names the file this editor opened (``CatalogFileIdentity``);
/// while the lock is held an import cannot swap files, because swapping waits for that lock.
/// When the file was replaced, the write throws ``EditError/catalogReplaced(path:)``: open a new editor.
/// While an import runs (in this process or another), writes are refused with
/// ``EditError/importRunning(path:)``: a replacing import would discard them at its swap. Each
/// write also records its productIds in the catalog's edits table, so the next replacing import
/// can say how many hand edits it replaced. An editor belongs to one task or actor at a time.
public final class CatalogEditor {
    /// The catalog's path.
    public let databasePath: String
    /// The file this editor opened.
    public let identity: CatalogFileIdentity
    let connection: Connection
    /// The catalog file itself, symbolic links followed: the import lock is taken beside it.
    private let filePath: String
    /// True once the table is known to have every known field (older catalogs get them at the first write).
    private var fieldsChecked = false
    /// True once the file is known to be in WAL mode, written durably (``LiveJournal``).
    private var journalChecked = false
    /// The build of the word index of the catalog this editor opened (or last wrote): a replacing
    /// import copied into the file (``CatalogBuild``) makes a new one in the same file, and the
    /// editor must be opened anew.
    private var epoch: Int64?
    /// The index's segments, as the writes read them to make theirs (``SegmentWriter``).
    private lazy var indexViews = IndexViews(connection: connection, prepare: connection.prepare, trustsDataVersion: false)
    /// Whether each write merges the index's segments as far as its share of the work goes
    /// (``SegmentMerge/work(_:views:budget:policy:)``, a few times what the write itself wrote):
    /// true, unless the editor's owner merges them in the background (``mergeSegments(budget:)``),
    /// as ``SQLiteCatalog`` does.
    public var mergesAfterEachWrite = true
    /// The postings of the segment the last write made.
    private var postingsWritten = 0
    /// Statements prepared once and kept, by SQL: a batch of a thousand edits prepared each
    /// statement a thousand times (its parse was a tenth of the batch).
    private var statements: [String: Statement] = [:]
    /// True once the edits table is known to exist.
    private var editsTableMade = false

    /// The statement of `sql`, prepared at its first use.
    func prepared(_ sql: String) throws -> Statement {
        if let statement = statements[sql] { return statement }
        let statement = try connection.prepare(sql)
        statements[sql] = statement
        return statement
    }
    /// True inside ``write(_:)``: a write within it (a batch's changes) joins its transaction.
    private var writing = false
    /// Set when a write binds a product with a family, so that the write makes sure the catalog keeps ``FamilyIndex``.
    private var wroteFamily = false
    /// The names of the table's extra columns, as the table spells them.
    public let extraColumns: [String]

    /// Opens the catalog at `databasePath` for editing.
    public init(databasePath: String) throws {
        self.databasePath = databasePath
        switch try CatalogSchema.kind(ofFileAt: databasePath) {
        case .catalog: break
        case .missing: throw EditError.catalog(.noCatalog(path: databasePath))
        case .empty, .otherDatabase, .notADatabase: throw EditError.catalog(.notACatalog(path: databasePath))
        }
        guard let before = CatalogFileIdentity.ofFile(at: databasePath) else {
            throw EditError.catalog(.noCatalog(path: databasePath))
        }
        let connection = try Self.database(databasePath) { try Connection(path: databasePath, mode: .readWrite) }
        connection.setBusyTimeout(milliseconds: Self.busyTimeout)
        guard CatalogFileIdentity.ofFile(at: databasePath) == before else {
            throw EditError.catalogReplaced(path: databasePath)
        }
        self.connection = connection
        identity = before
        epoch = try Self.database(databasePath) { try Self.epoch(connection) }
        filePath = (try? FileSystem.resolvingLinks(databasePath)) ?? databasePath
        extraColumns = try Self.database(databasePath) {
            let statement = try connection.prepare("SELECT name FROM pragma_table_info(?1)")
            try statement.bind(1, CatalogSchema.table)
            var names: [String] = []
            while try statement.step() { names.append(statement.text(at: 0) ?? "") }
            return names.filter { ProductField.stored(inColumn: $0, among: names) == nil }
        }
    }

    /// Creates an empty catalog at `path` when nothing (or an empty file) is there; leaves a catalog as it is.
    public static func createCatalogIfMissing(at path: String) throws {
        switch try CatalogSchema.kind(ofFileAt: path) {
        case .catalog: return
        case .missing, .empty: break
        case .otherDatabase, .notADatabase: throw EditError.catalog(.notACatalog(path: path))
        }
        try database(path) {
            try LiveJournal.removeLeftovers(at: path)
            let connection = try Connection(path: path, mode: .create)
            connection.setBusyTimeout(milliseconds: 10_000)
            try LiveJournal.prepareWriter(connection)
            try connection.transaction(.exclusive) {
                // Someone else may have created it while this connection waited for the lock.
                if try !connection.hasTable(CatalogSchema.table) {
                    try connection.execute(CatalogSchema.createStatements(extraColumns: []))
                }
            }
        }
    }

    /// True while the path still names the file this editor opened, and the file holds the
    /// catalog it opened (not one a replacing import copied into it since).
    public var isCurrent: Bool {
        CatalogFileIdentity.ofFile(at: databasePath) == identity && (try? Self.epoch(connection)) == epoch
    }

    /// The build of the catalog's word index (nil for a catalog without one).
    private static func epoch(_ connection: Connection) throws -> Int64? {
        try WordLists.exists(connection) ? try WordLists.version(connection) : nil
    }

    /// Adds `product`; throws ``EditError/duplicate(productId:)`` when its productId is taken.
    @discardableResult
    public func add(_ product: Product) throws -> Product {
        let extras = try extraAssignments(product)
        let columns = ProductField.allCases.map(\.columnName) + extras.map(\.column)
        let placeholders = (1...columns.count).map { "?\($0)" }.joined(separator: ", ")
        let sql = "INSERT INTO \(CatalogSchema.table) (\(columns.map(quoteIdentifier).joined(separator: ", "))) VALUES (\(placeholders))"
        return try write {
            let statement = try prepared(sql)
            try statement.using {
                try bindFields(of: product, extras: extras, to: statement)
                do {
                    try statement.step()
                } catch let error as SQLiteError where error.isConstraint {
                    throw EditError.duplicate(productId: product.productId)
                }
            }
            try recordEdit(of: product.productId)
            return try stored(product.productId)
        }
    }

    /// Replaces the product with `productId` by `product`, which may carry a new productId.
    ///
    /// Every known field is replaced (an empty one becomes NULL); extra columns that `product`
    /// does not name keep their values.
    @discardableResult
    public func replace(productId: String, with product: Product) throws -> Product {
        let extras = try extraAssignments(product)
        let columns = ProductField.allCases.map(\.columnName) + extras.map(\.column)
        let assignments = columns.enumerated().map { "\(quoteIdentifier($0.element)) = ?\($0.offset + 1)" }
        let keyIndex = Int32(columns.count + 1)
        let sql = "UPDATE \(CatalogSchema.table) SET \(assignments.joined(separator: ", ")) WHERE productId = ?\(keyIndex)"
        return try write {
            let statement = try prepared(sql)
            try statement.using {
                try bindFields(of: product, extras: extras, to: statement)
                try statement.bind(keyIndex, productId)
                do {
                    try statement.step()
                } catch let error as SQLiteError where error.isConstraint {
                    throw EditError.duplicate(productId: product.productId)
                }
            }
            guard connection.changes > 0 else { throw EditError.notFound(productId: productId) }
            try recordEdit(of: productId)
            try recordEdit(of: product.productId)
            try moveFavorite(from: productId, to: product.productId)
            return try stored(product.productId)
        }
    }

    /// Deletes the product with `productId`; throws ``EditError/notFound(productId:)`` when there is none.
    public func delete(productId: String) throws {
        try write {
            let statement = try prepared("DELETE FROM \(CatalogSchema.table) WHERE productId = ?1")
            try statement.using {
                try statement.bind(1, productId)
                try statement.step()
            }
            guard connection.changes > 0 else { throw EditError.notFound(productId: productId) }
            try recordEdit(of: productId)
            try moveFavorite(from: productId, to: nil)
        }
    }

    // MARK: - Writing

    /// How long a write waits for another writer's lock before ``EditError/busy(path:)``.
    static let busyTimeout: Int32 = 2_000

    /// Runs `body` in an IMMEDIATE transaction on the file the path names now, unless an import runs.
    func write<T>(_ body: () throws -> T) throws -> T {
        if writing { return try body() }
        if case .regular(_, let mode, _, _)? = try? FileSystem.entry(at: filePath), !FileSystem.isWritable(filePath, mode: mode) {
            throw EditError.catalog(.readOnly(path: databasePath))
        }
        let permit = ImportLock.forEdit(of: filePath)
        if case .importRunning = permit { throw EditError.importRunning(path: databasePath) }
        defer { withExtendedLifetime(permit) {} }
        let result = try Self.database(databasePath) {
            // Under the permit no import can swap files: the file is this editor's, and may be
            // turned to WAL mode (a catalog written by an earlier version, ``LiveJournal``).
            guard isCurrent else { throw EditError.catalogReplaced(path: databasePath) }
            if !journalChecked {
                try LiveJournal.prepareWriter(connection)
                journalChecked = true
            }
            return try connection.transaction(.immediate) {
                guard isCurrent else { throw EditError.catalogReplaced(path: databasePath) }
                if !fieldsChecked { try CatalogSchema.upgrade(connection) }
                writing = true
                defer { writing = false }
                wroteFamily = false
                let result = try body()
                if wroteFamily { try FamilyIndex.create(connection) }
                postingsWritten = try SegmentWriter.flush(connection, views: indexViews)?.postings ?? 0
                // An upgrade may have built the index anew: this editor's own doing.
                epoch = try Self.epoch(connection)
                return result
            }
        }
        fieldsChecked = true
        if mergesAfterEachWrite, postingsWritten > 0 {
            // The write is committed; a merge that fails now (the disk, another writer) is done by a later one.
            _ = try? mergeSegments(budget: SegmentMerge.budget(afterWriting: postingsWritten))
        }
        return result
    }

    /// Merges the index's segments (``SegmentMerge``) up to `budget` postings and keys, each step
    /// a transaction of its own, unless an import runs; true when more is due.
    @discardableResult
    public func mergeSegments(budget: Int) throws -> Bool {
        let permit = ImportLock.forEdit(of: filePath)
        if case .importRunning = permit { return false }
        defer { withExtendedLifetime(permit) {} }
        return try Self.database(databasePath) {
            guard isCurrent else { return false }
            return try SegmentMerge.work(connection, views: indexViews, budget: budget)
        }
    }

    /// Merges every segment of the index into one (``MergePolicy/everything``), a step at a time,
    /// each a short transaction of its own, so that searches and edits go on meanwhile; calls
    /// `progress` after each step with the segments left and the steps taken so far. Returns how
    /// many segments there were.
    @discardableResult
    public func mergeAllSegments(progress: (_ segments: Int, _ steps: Int) -> Void = { _, _ in }) throws -> Int {
        let permit = ImportLock.forEdit(of: filePath)
        if case .importRunning = permit { throw EditError.importRunning(path: databasePath) }
        defer { withExtendedLifetime(permit) {} }
        return try Self.database(databasePath) {
            guard isCurrent else { throw EditError.catalogReplaced(path: databasePath) }
            try LiveJournal.prepareWriter(connection)
            // Other programs' changes, noted and in no segment yet, are merged too.
            try connection.transaction(.immediate) {
                if !fieldsChecked { try CatalogSchema.upgrade(connection) }
                try SegmentWriter.flush(connection, views: indexViews)
            }
            fieldsChecked = true
            let before = try SegmentManifest.entries(connection).count
            var steps = 0
            while true {
                let more = try SegmentMerge.work(connection, views: indexViews, budget: SegmentMerge.backgroundStep, policy: .everything)
                let segments = try SegmentManifest.entries(connection).count
                // A catalog of one segment with nothing left to do took no step.
                if more || segments != before {
                    steps += 1
                    progress(segments, steps)
                }
                guard more else { break }
            }
            LiveJournal.checkpoint(connection)
            return before
        }
    }

    /// True when a merge of the index's segments is in progress or due.
    public func segmentsWantMerging() throws -> Bool {
        try Self.database(databasePath) { try SegmentMerge.isDue(connection) }
    }

    /// Notes that `productId` was changed by hand since the last import.
    private func recordEdit(of productId: String) throws {
        if !editsTableMade {
            try connection.execute("CREATE TABLE IF NOT EXISTS \(CatalogSchema.editsTable) (productId TEXT NOT NULL COLLATE NOCASE PRIMARY KEY) WITHOUT ROWID")
            editsTableMade = true
        }
        let statement = try prepared("INSERT OR IGNORE INTO \(CatalogSchema.editsTable) (productId) VALUES (?1)")
        try statement.using {
            try statement.bind(1, productId)
            try statement.step()
        }
    }

    /// How many products were added, edited or deleted by hand since the last replacing import.
    public func handEditsSinceImport() throws -> Int {
        try Self.database(databasePath) {
            guard try connection.hasTable(CatalogSchema.editsTable) else { return 0 }
            return Int(try connection.scalarInt("SELECT count(*) FROM \(CatalogSchema.editsTable)") ?? 0)
        }
    }

    private struct ExtraAssignment {
        var column: String
        var value: String?
    }

    /// The table's column for each extra `product` names; an unknown name is a field error.
    private func extraAssignments(_ product: Product) throws -> [ExtraAssignment] {
        let byName = Dictionary(extraColumns.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        var unknown: [String: FieldProblem] = [:]
        var assignments: [ExtraAssignment] = []
        for extra in product.extras {
            if let column = byName[extra.name.lowercased()] {
                assignments.append(ExtraAssignment(column: column, value: extra.value))
            } else {
                unknown[extra.name] = .unknownColumn(known: extraColumns)
            }
        }
        guard unknown.isEmpty else { throw EditError.invalid(ProductValidationError(problems: unknown)) }
        return assignments
    }

    /// Binds the known fields in ``ProductField`` order to parameters 1…9, then the extras.
    private func bindFields(of product: Product, extras: [ExtraAssignment], to statement: Statement) throws {
        if !(product.groupId ?? "").isEmpty { wroteFamily = true }
        for (index, field) in zip(Int32(1)..., ProductField.allCases) {
            switch product[field] {
            case .text(let text)?: try statement.bind(index, text)
            case .integer(let number)?: try statement.bind(index, number)
            case nil: try statement.bindNull(index)
            }
        }
        for (index, extra) in zip(Int32(ProductField.allCases.count + 1)..., extras) {
            try statement.bind(index, extra.value)
        }
    }

    /// The product as the catalog now holds it.
    func stored(_ productId: String) throws -> Product {
        let statement = try prepared("SELECT * FROM \(CatalogSchema.table) WHERE productId = ?1")
        return try statement.using {
            try statement.bind(1, productId)
            guard try statement.step() else { throw EditError.notFound(productId: productId) }
            return ProductColumn.product(from: statement, columns: ProductColumn.columns(of: statement))
        }
    }

    /// Runs `body`, turning an SQLite failure into ``EditError/database(path:_:)``.
    private static func database<T>(_ path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError where error.isBusy {
            throw EditError.busy(path: path)
        } catch let error as SQLiteError {
            throw EditError.database(path: path, error)
        }
    }
}
