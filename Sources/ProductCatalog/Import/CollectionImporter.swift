/// Puts the products a `collection,productId` file names into manual collections, in one transaction.
///
/// ```swift
/// let summary = try CollectionImporter(databasePath: "catalog.sqlite")
///     .run(source: try FileByteSource(path: "collections.csv"))
/// ```
///
/// Each record names a collection and a product: by productId (`id`, `sku`, `offer_id`), or by
/// a Shopify `Handle`, which names the product and all its variants. A collection the catalog lacks is made (manual);
/// a record naming a product the catalog does not hold, a smart collection, no collection or a
/// name that cannot be one is rejected with its line and reason into the rejects file. Upserting
/// adds to the collections; replacing first empties each collection the file names (others keep
/// theirs). Records stream into the live catalog inside one transaction under SQLite's rollback
/// journal: searches read the old collections until the commit, and a failed or killed import
/// leaves them as they were.
public struct CollectionImporter: Sendable {
    public var databasePath: String
    public var mode: ImportMode = .upsert
    /// Where rejected rows go; by default the catalog's path with `.collection-rejects.csv`.
    public var rejectsPath: String?

    public init(databasePath: String, mode: ImportMode = .upsert) {
        self.databasePath = databasePath
        self.mode = mode
    }

    /// Where rejected rows go.
    public var resolvedRejectsPath: String { rejectsPath ?? databasePath + ".collection-rejects.csv" }

    /// The header names read as the collection's and the product's column, ASCII case and `_`, `-` and spaces ignored.
    static let collectionNames: Set<String> = ["collection", "collectionname", "collectiontitle", "collectionhandle"]
    static let productNames: Set<String> = ["productid", "id", "sku", "offerid"]
    /// A Shopify product's handle: it names the product and all its variants (`classic-tee`, `classic-tee/Red/M`…).
    static let handleNames: Set<String> = ["handle", "producthandle"]

    /// Where a collection file's columns are in `header` (cleaned as an import cleans it): the
    /// collection's, the product's, and whether that names products by Shopify handle; nil
    /// without both.
    static func columns(of header: [String]) -> (collection: Int, product: Int, byHandle: Bool)? {
        let folded = header.map { String($0.lowercased().filter { !" _-".contains($0) }) }
        guard let collection = folded.firstIndex(where: collectionNames.contains),
              let product = folded.firstIndex(where: productNames.contains) ?? folded.firstIndex(where: handleNames.contains) else { return nil }
        return (collection, product, handleNames.contains(folded[product]))
    }

    /// True when `header` (cleaned as an import cleans it) has the columns a collection file needs.
    public static func recognises(header: [String]) -> Bool {
        columns(of: header) != nil
    }

    /// True when `source` starts with the header of a collection file.
    public static func recognises(source: any ByteSource) -> Bool {
        ImportReading.cleanHeader(of: source).map(recognises(header:)) ?? false
    }

    /// Reads `source` and changes the collections it names.
    public func run(source: any ByteSource) throws -> CollectionImportSummary {
        do {
            try CatalogCompanions(catalogPath: databasePath).check(output: resolvedRejectsPath)
        } catch {
            throw ImportError.catalog(error)
        }
        let editor = try CatalogEditor(databasePath: databasePath)
        let records = try CollectionRecords(source: source, rejectsPath: resolvedRejectsPath, databasePath: databasePath)
        do {
            try editor.write {
                try editor.connection.execute(CollectionTable.createStatements)
                let connection = editor.connection
                // A handle is the product itself or the start of its variants' keys (`handle/option…`):
                // '0' follows '/' in productId order, so the variants are one range of the key.
                let matching = records.byHandle ? "(productId = ?2 OR (productId > ?2 || '/' AND productId < ?2 || '0'))" : "productId = ?2"
                let add = try connection.prepare("""
                    INSERT OR IGNORE INTO \(CollectionTable.membersTable) (collection, productId)
                      SELECT ?1, productId FROM \(CatalogSchema.table) WHERE \(matching)
                    """)
                let known = try connection.prepare("SELECT 1 FROM \(CatalogSchema.table) WHERE \(matching.replacingOccurrences(of: "?2", with: "?1"))")
                /// The collections met so far, by folded name: manual ones' stored names, and smart ones.
                var manual: [String: String] = [:]
                var smart: Set<String> = []
                while let member = try records.next() {
                    let key = member.collectionKey
                    if manual[key] == nil, !smart.contains(key) {
                        if let stored = try collection(named: member.collection, in: connection, summary: &records.summary) {
                            manual[key] = stored
                        } else {
                            smart.insert(key)
                        }
                    }
                    guard let stored = manual[key] else {
                        try records.reject("\"\(member.collection)\" is a smart collection: it lists what its search finds")
                        continue
                    }
                    try add.using {
                        try add.bind(1, stored)
                        try add.bind(2, member.productId)
                        try add.step()
                    }
                    if connection.changes > 0 {
                        records.summary.added += connection.changes
                    } else if try known.using({ try known.bind(1, member.productId); return try known.step() }) {
                        records.summary.alreadyThere += 1
                    } else {
                        records.summary.unknownProducts += 1
                        try records.reject("no product has productId \"\(member.productId)\" in the catalog")
                    }
                }
                records.summary.collections = manual.count + smart.count
            }
            return try records.finish()
        } catch {
            records.discard()
            throw error
        }
    }

    /// The stored name of the manual collection `name`, made when missing and emptied when
    /// replacing; nil for a smart one.
    private func collection(named name: String, in connection: Connection, summary: inout CollectionImportSummary) throws -> String? {
        if let existing = try CollectionTable.named(name, connection) {
            guard existing.isManual else { return nil }
            if mode == .replace {
                let empty = try connection.prepare("DELETE FROM \(CollectionTable.membersTable) WHERE collection = ?1")
                try empty.bind(1, existing.name)
                try empty.step()
                summary.removed += connection.changes
            }
            return existing.name
        }
        let create = try connection.prepare("INSERT INTO \(CollectionTable.table) (name) VALUES (?1)")
        try create.bind(1, name)
        try create.step()
        summary.collectionsCreated += 1
        return name
    }
}

/// What a finished collection import did: every record read is added, already there, or rejected.
public struct CollectionImportSummary: Sendable, Equatable {
    public var rowsRead = 0
    /// Products put in a collection.
    public var added = 0
    /// Records naming a product already in the collection.
    public var alreadyThere = 0
    /// Products taken out because a replacing import emptied their collection first.
    public var removed = 0
    /// Records rejected, each in the rejects file with its line and reason.
    public var rowsRejected = 0
    /// Of the rejected records, those naming a product the catalog does not hold.
    public var unknownProducts = 0
    /// Collections the file named.
    public var collections = 0
    /// Of those, collections made by this import.
    public var collectionsCreated = 0
    public var databasePath: String
    /// The rejects file, when a record was rejected.
    public var rejectsPath: String?
    /// The first ``firstRejectsKept`` rejected records' lines and reasons, for a summary on screen.
    public var firstRejects: [Reject] = []

    /// How many rejected records ``firstRejects`` keeps.
    public static let firstRejectsKept = 20

    /// A rejected record's line and the reason.
    public struct Reject: Sendable, Equatable {
        public var line: Int
        public var reason: String
    }

    public init(databasePath: String) {
        self.databasePath = databasePath
    }
}

extension CollectionImportSummary: JSONRepresentable {
    /// `{"event": "finished", "rowsRead": …, "added": …, …}`
    public var jsonValue: JSONValue {
        .object([
            "event": .string("finished"),
            "rowsRead": .int(rowsRead),
            "added": .int(added),
            "alreadyThere": .int(alreadyThere),
            "removed": .int(removed),
            "rowsRejected": .int(rowsRejected),
            "unknownProducts": .int(unknownProducts),
            "collections": .int(collections),
            "collectionsCreated": .int(collectionsCreated),
            "catalog": .string(databasePath),
            "rejects": .string(rejectsPath),
            "firstRejects": .array(firstRejects.map { .object(["line": .int($0.line), "reason": .string($0.reason)]) }),
        ])
    }
}
