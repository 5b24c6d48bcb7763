/// The records of a `collection,productId` file (see ``CollectionImporter``), checked one by one,
/// for whichever engine puts them into collections: each is a ``Member`` to put in, or is rejected
/// with its line and reason into the rejects file.
///
/// ```swift
/// let records = try CollectionRecords(source: source, rejectsPath: "collections.rejects.csv", databasePath: "catalog.sqlite")
/// while let member = try records.next() {
///     if !stored(member) { try records.reject("no product has productId \"\(member.productId)\" in the catalog") }
/// }
/// try records.finish()
/// ```
///
/// Reading stops at nothing: a record that is not valid CSV, is too short, names no product or a
/// name that cannot be a collection's is rejected here; the engine rejects the rest (a smart
/// collection, a product it does not hold) through ``reject(_:)``. Memory stays constant.
///
/// One task reads it at a time (an engine hands it to its writer and awaits the end), which the
/// compiler cannot see through an actor's await: hence `@unchecked Sendable`.
public final class CollectionRecords: @unchecked Sendable {
    /// One record that names a collection and a product.
    public struct Member: Sendable, Hashable {
        public var line: Int
        /// The collection's name, checked (``ProductCollection/checkedName(_:)``).
        public var collection: String
        /// The name folded as collections are compared: ASCII case ignored.
        public var collectionKey: String
        /// The productId (or, when ``CollectionRecords/byHandle``, a Shopify handle), trimmed.
        public var productId: String
    }

    /// True when the file names products by Shopify handle: the product and all its variants (`handle/…`).
    public let byHandle: Bool
    /// What reading found, for the engine to add its counts to: records read and rejected.
    public var summary: CollectionImportSummary
    private let reader: CSVReader
    private let header: [String]
    private let columns: (collection: Int, product: Int)
    private let rejects: RejectsFile
    private var record = CSVRecord()

    /// Reads the header of `source`; throws ``ImportError/collectionsHeader(source:header:)``
    /// without a collection and a product column.
    public init(source: any ByteSource, rejectsPath: String, databasePath: String) throws {
        reader = CSVReader(source: source, options: CSVReader.Options(
            delimiter: nil, chunkSize: FeedReading().chunkSize, maxFieldBytes: FeedReading().maxFieldBytes))
        header = try ImportReading.readHeader(reader, source: source, options: FeedReading()).strings.map(HeaderName.clean)
        guard let (collection, product, byHandle) = CollectionImporter.columns(of: header) else {
            throw ImportError.collectionsHeader(source: source.name, header: header)
        }
        columns = (collection, product)
        self.byHandle = byHandle
        rejects = RejectsFile(path: rejectsPath, header: header)
        summary = CollectionImportSummary(databasePath: databasePath)
    }

    /// The next record that names a collection and a product, rejecting those before it that do not; nil at the end.
    public func next() throws -> Member? {
        while try ImportReading.readNext(reader, into: &record) {
            summary.rowsRead += 1
            let fields = record.strings
            if let malformation = record.malformation {
                try reject("the row is not valid CSV: \(malformation)")
                continue
            }
            guard fields.count > max(columns.collection, columns.product) else {
                try reject("the row has \(fields.count) fields; the header has \(header.count)")
                continue
            }
            let name: String
            switch ProductCollection.checkedName(fields[columns.collection]) {
            case .success(let checked): name = checked
            case .failure(let error):
                try reject(error.description)
                continue
            }
            let productId = ProductRules.trimmed(fields[columns.product])
            guard !productId.isEmpty else {
                try reject("no productId")
                continue
            }
            return Member(line: record.position.line, collection: name, collectionKey: String(decoding: name.utf8.map(ProductIdOrder.fold), as: UTF8.self),
                          productId: productId)
        }
        return nil
    }

    /// Rejects the record read last with `reason`: into the rejects file, and counted.
    public func reject(_ reason: String) throws {
        let line = record.position.line
        try record.withFields { try rejects.write(line: line, reason: reason, fields: $0) }
        summary.rowsRejected += 1
        if summary.firstRejects.count < CollectionImportSummary.firstRejectsKept {
            summary.firstRejects.append(.init(line: line, reason: reason))
        }
    }

    /// Closes the rejects file (removed when nothing was rejected) and returns the summary.
    public func finish() throws -> CollectionImportSummary {
        try rejects.finish()
        var summary = summary
        summary.rejectsPath = summary.rowsRejected > 0 ? rejects.path : nil
        return summary
    }

    /// Removes the rejects file: the import failed.
    public func discard() {
        rejects.discard()
    }
}
