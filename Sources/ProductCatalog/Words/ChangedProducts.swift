/// What a segment of changes holds, resolved from the notes (``ChangeNotes``) against the index
/// as it is: each noted product that exists, as it is now, at its place; and the places the notes
/// take away.
struct ChangedProducts {
    /// A product the segment holds.
    struct Held {
        var place: Int64
        var productId: String
        /// Its title, brand and type, UTF-8 (nil when missing).
        var fields: [[UInt8]?]
        /// Its sale price, else its list price.
        var price: Int64?
        /// True when the import's place map does not give its productId at its place (a product
        /// added since, or renamed): the segment keeps its productId.
        var moved = true
    }

    /// The products, by place.
    var held: [Held] = []
    /// The places of the index's products that are gone, or that a held product no longer has.
    var deleted: [Int64] = []
    /// How many places from `nextPlace` the new products took.
    var placesTaken: Int64 = 0
    /// The last note they come from.
    var lastSeq: Int64 = 0

    var isEmpty: Bool { held.isEmpty && deleted.isEmpty }

    /// The changes `notes` say, against `view` (the index they came after), new products placed
    /// from `nextPlace` on, each product read from `connection` as it is now.
    ///
    /// Places, once given, are never given again: first every renamed product takes its origin's
    /// place; then every other product that exists keeps its own (unless its productId was
    /// deleted and added again: that is a new product); then the rest take new places, in the
    /// order they were noted. Every place the notes name that no product took is deleted.
    static func resolve(_ notes: [ChangeNotes.Note], view: IndexView, nextPlace: Int64, connection: Connection) throws -> ChangedProducts {
        var changes = ChangedProducts()
        changes.lastSeq = notes.last?.seq ?? 0
        guard !notes.isEmpty else { return changes }
        let reader = try ProductReader(connection)
        var rows: [Held?] = []
        rows.reserveCapacity(notes.count)
        for note in notes { rows.append(try reader.product(note.productId)) }
        var claimed = Set<Int64>()
        var places = [Int64?](repeating: nil, count: notes.count)
        // Renamed products keep where they came from.
        for (index, note) in notes.enumerated() where rows[index] != nil {
            guard let origin = note.origin, let place = try view.place(of: origin), claimed.insert(place).inserted else { continue }
            places[index] = place
            rows[index]!.moved = try view.isMoved(place, rows[index]!.productId)
        }
        // Products that exist keep their own.
        for (index, note) in notes.enumerated() where rows[index] != nil && places[index] == nil && note.state != .addedAgain {
            guard let found = try view.located(note.productId), claimed.insert(found.place).inserted else { continue }
            places[index] = found.place
            let productId = rows[index]!.productId
            rows[index]!.moved = found.imported ? found.productId != productId : try view.isMoved(found.place, productId)
        }
        // New ones come after every other.
        var next = nextPlace
        for index in notes.indices where rows[index] != nil && places[index] == nil {
            places[index] = next
            next += 1
        }
        changes.placesTaken = next - nextPlace
        var deleted = Set<Int64>()
        for note in notes {
            for productId in [note.productId, note.origin].compactMap({ $0 }) {
                if let place = try view.place(of: productId), !claimed.contains(place) { deleted.insert(place) }
            }
        }
        changes.deleted = deleted.sorted()
        for index in notes.indices {
            guard var row = rows[index], let place = places[index] else { continue }
            row.place = place
            changes.held.append(row)
        }
        changes.held.sort { $0.place < $1.place }
        return changes
    }

    /// Reads products by productId: their stored productId, words and price.
    private struct ProductReader {
        let statement: Statement

        init(_ connection: Connection) throws {
            let names = Set(try WordListsWriter.columnNames(connection))
            func column(_ field: ProductField) -> String { names.contains(field.columnName.lowercased()) ? field.columnName : "NULL" }
            let fields = WordLists.fields.map(column).joined(separator: ", ")
            statement = try connection.prepare("""
                SELECT productId, \(fields), ifnull(\(column(.salesPrice)), \(column(.listPrice))) FROM \(CatalogSchema.table) WHERE productId = ?1
                """)
        }

        func product(_ productId: String) throws -> Held? {
            try statement.using { () -> Held? in
                try statement.bind(1, productId)
                guard try statement.step() else { return nil }
                let count = Int32(WordLists.fields.count)
                let fields = (1...count).map { statement.isNull(at: $0) ? nil : statement.withBytes(at: $0) { Array($0) } }
                let price = statement.isNull(at: count + 1) ? nil : statement.int64(at: count + 1)
                return Held(place: 0, productId: statement.text(at: 0) ?? productId, fields: fields, price: price)
            }
        }
    }
}

/// A segment's contents made from ``ChangedProducts``: its postings packed into blocks, its term
/// list, its sort lists and its places, written into the catalog (``SegmentWriter``) or kept in
/// memory (a search's view of notes no writer has made a segment of, ``IndexView``).
struct SegmentContents {
    let terms: TermList
    let places: SegmentPlaces
    let sortKeys: [SortLists.List: [[UInt8]]]
    let products: Int
    let postings: Int

    /// Builds the contents of `changes`, handing each block to `emit`.
    init(_ changes: ChangedProducts, blockCapacity: Int, emit: @escaping (_ block: Int, _ data: [UInt8], _ entry: PostingBlocks.Entry) throws -> Void) throws {
        var builder = try PostingsBuilder()
        var sortKeys: [SortLists.List: [[UInt8]]] = [:]
        var moved: [Int64: String] = [:]
        var key: [UInt8] = []
        for product in changes.held {
            var fields = product.fields
            try ChangedProducts.withViews(&fields) { _ = try builder.add(place: product.place, fields: $0) }
            if product.moved { moved[product.place] = product.productId }
            let productId = Array(product.productId.utf8)
            productId.withUnsafeBytes { id in
                key.removeAll(keepingCapacity: true)
                if let price = product.price {
                    SortLists.appendPriceKey(price, productId: id, to: &key)
                    SortLists.appendPlace(product.place, to: &key)
                    sortKeys[.price, default: []].append(key)
                } else {
                    SortLists.appendMissingKey(productId: id, to: &key)
                    SortLists.appendPlace(product.place, to: &key)
                    sortKeys[.priceMissing, default: []].append(key)
                }
                key.removeAll(keepingCapacity: true)
                if let title = product.fields[0], !title.isEmpty {
                    title.withUnsafeBytes { SortLists.appendTitleKey($0, productId: id, to: &key) }
                    SortLists.appendPlace(product.place, to: &key)
                    sortKeys[.title, default: []].append(key)
                } else {
                    SortLists.appendMissingKey(productId: id, to: &key)
                    SortLists.appendPlace(product.place, to: &key)
                    sortKeys[.titleMissing, default: []].append(key)
                }
            }
        }
        for list in sortKeys.keys { sortKeys[list]!.sort { ByteOrder.precedes($0, $1) } }
        postings = builder.postings
        var writer = PostingBlocks.Writer(capacity: blockCapacity, emit: emit)
        terms = try builder.write(to: &writer)
        try writer.finish()
        places = SegmentPlaces(held: changes.held.map(\.place), moved: moved, deleted: changes.deleted)
        self.sortKeys = sortKeys
        products = changes.held.count
    }
}

extension ChangedProducts {
    /// Calls `body` with raw views of `fields`.
    static func withViews(_ fields: inout [[UInt8]?], _ body: ([UnsafeRawBufferPointer?]) throws -> Void) rethrows {
        var views: [UnsafeRawBufferPointer?] = []
        func step(_ index: Int) throws {
            guard index < fields.count else { return try body(views) }
            guard fields[index] != nil else {
                views.append(nil)
                try step(index + 1)
                return
            }
            try fields[index]!.withUnsafeBytes { views.append($0); try step(index + 1) }
        }
        try step(0)
    }
}
