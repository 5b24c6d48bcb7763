/// Writes a catalog's word index (``WordLists``) from its products, given in productId order:
/// each product's place (``PlaceMap``), its postings (``PostingsBuilder``), spilled as sorted
/// segments (``PostingSegment``) whenever they pass `memoryBudget`, and at the end the segments
/// merged into page-sized blocks and the term list; and beside it the sort lists (``SortListsWriter``). Memory stays bounded whatever the catalog's
/// size; no row is written per term or per posting.
///
/// A replacing import runs it on its second core into a file of its own (``WordIndexBuild``);
/// ``rebuild(_:)`` runs it on a catalog's own connection, from its products.
struct WordListsWriter {
    private let connection: Connection
    private let spillPath: String
    private let budget: Int
    private let capacity: Int
    private let insertPlace: Statement
    private var places: PlaceMap.Writer
    private var builder: PostingsBuilder
    private var segments: [PostingSegment] = []
    /// The sort lists' writer, when this one writes them too.
    private var sorts: SortListsWriter?

    /// Writes into the empty index tables on `connection` (inside its transaction), spilling
    /// segments to unlinked files named from `spillPath`; the sort lists too when `sorting`.
    init(connection: Connection, spillPath: String, budget: Int, sorting: Bool = true) throws {
        self.connection = connection
        self.spillPath = spillPath
        self.budget = budget
        let pageSize = Int(try connection.scalarInt("PRAGMA page_size") ?? 4096)
        capacity = SQLitePostingStore.blockCapacity(pageSize: pageSize)
        let insertPlace = try connection.prepare("INSERT INTO \(PlaceMap.table) (place, firstId, data) VALUES (?1, ?2, ?3)")
        self.insertPlace = insertPlace
        places = PlaceMap.Writer(capacity: capacity) { place, firstId, data in
            try insertPlace.using {
                try insertPlace.bind(1, place)
                try insertPlace.bind(2, utf8: firstId)
                try insertPlace.bind(3, blob: data)
                _ = try insertPlace.step()
            }
        }
        builder = try PostingsBuilder(withLongStarts: false)
        sorts = sorting ? try SortListsWriter(connection: connection, capacity: capacity, spillPath: spillPath, budget: budget / 2) : nil
    }

    /// Adds the next product: its productId, its title, brand and type (nil when missing) and its
    /// price (sale, else list).
    mutating func add(productId: UnsafeRawBufferPointer, fields: [UnsafeRawBufferPointer?], price: Int64?) throws {
        try sorts?.add(productId: productId, price: price, title: fields[0])
        let place = try places.add(productId)
        _ = try builder.add(place: place, fields: fields)
        if builder.memory >= budget {
            segments.append(try PostingSegment(writing: &builder, path: spillPath + ".segment\(segments.count)"))
            builder.removeAll()
        }
    }

    /// Merges what was added into the blocks, the term list and the sort lists, and gives the index a new version.
    mutating func finish() throws {
        try places.finish()
        try sorts?.finish()
        if builder.postings > 0 || segments.isEmpty {
            segments.append(try PostingSegment(writing: &builder, path: spillPath + ".segment\(segments.count)"))
        }
        builder = try PostingsBuilder(withLongStarts: false)
        let appender = try SQLitePostingStore.Appender(connection: connection)
        var writer = PostingBlocks.Writer(capacity: capacity) { try appender.append($0, $1, $2) }
        let terms = try PostingSegment.merge(segments, into: &writer, longStartsPath: spillPath)
        try writer.finish()
        segments = []
        try terms.write(to: connection, blockCapacity: capacity)
        try WordLists.setMaxPlace(places.nextPlace - 1, connection)
        try WordLists.setVersion(Int64.random(in: 1..<Int64.max), connection)
        let postings = (0..<terms.count).reduce(0) { $0 + terms.products($1) }
        try SegmentManifest.startWithBase(products: Int(places.nextPlace - 1), postings: postings, connection)
    }

    /// Builds the index of the catalog on `connection` anew from its products, inside the
    /// caller's transaction, as its one base segment, and forgets the changes noted (``ChangeNotes``):
    /// a catalog made by an earlier version, at its first write.
    static func rebuild(_ connection: Connection, spillPath: String, budget: Int = WordIndexBuild.memoryBudget) throws {
        // The build reads every product once and writes the lists once: a page cache sized for an
        // upsert's scattered changes (up to 512 MiB, ``CatalogUpdate``) would only fill with
        // pages read once. The changes written before it stay in the file or the cache as before.
        let cacheSize = try connection.scalarInt("PRAGMA cache_size") ?? -2000
        try connection.execute("PRAGMA cache_size = -\(rebuildCacheKiB)")
        defer { try? connection.execute("PRAGMA cache_size = \(cacheSize)") }
        try connection.execute(WordLists.dropStatements + WordLists.createStatements)
        var writer = try WordListsWriter(connection: connection, spillPath: spillPath, budget: budget)
        let names = try Set(columnNames(connection))
        let fields = WordLists.fields.map { names.contains($0.columnName.lowercased()) ? $0.columnName : "NULL" }
        let price = [ProductField.salesPrice, .listPrice].map { names.contains($0.columnName.lowercased()) ? "p.\($0.columnName)" : "NULL" }
        let products = try connection.prepare("""
            SELECT p.productId, \(fields.map { $0 == "NULL" ? $0 : "p.\($0)" }.joined(separator: ", ")), ifnull(\(price[0]), \(price[1]))
            FROM \(CatalogSchema.table) p ORDER BY p.productId
            """)
        let priceColumn = Int32(WordLists.fields.count + 1)
        try products.using {
            while try products.step() {
                let price = products.isNull(at: priceColumn) ? nil : products.int64(at: priceColumn)
                try products.withBytes(at: 0) { productId in
                    try products.withColumns(1...WordLists.fields.count) { try writer.add(productId: productId, fields: $0, price: price) }
                }
            }
        }
        try writer.finish()
        try connection.deleteRows(ofTableIfPresent: ChangeNotes.table)
        try connection.execute("DROP TABLE IF EXISTS \(ChangeNotes.earlierSortNotes)")
    }

    /// The page cache of ``rebuild(_:spillPath:budget:)``, in KiB.
    static let rebuildCacheKiB = 64 << 10

    static func columnNames(_ connection: Connection) throws -> [String] {
        var names: [String] = []
        let statement = try connection.prepare("SELECT name FROM pragma_table_info('\(CatalogSchema.table)')")
        while try statement.step() { names.append(statement.text(at: 0)?.lowercased() ?? "") }
        return names
    }
}
