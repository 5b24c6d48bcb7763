/// The products changed since the word index was built: noted by triggers, whatever program
/// writes, and read by every search beside the index's lists.
///
/// ```sql
/// CREATE TABLE word_changes (seq INTEGER PRIMARY KEY, productId TEXT NOT NULL UNIQUE COLLATE NOCASE, origin TEXT);
/// ```
///
/// A product added, edited (its productId, title, brand or type), renamed or deleted is noted
/// once, by productId (a renamed one under both, the new with the old as its `origin`). A search
/// reads the notes (``WordDelta``): the index's postings of a noted product are stale and skipped,
/// and the product as it is now is folded into small lists of the search's own, at its place in
/// the index (a renamed product keeps its old one), or after every other for a new one, in the
/// order they were noted. An import that replaces the catalog, or rebuilds the index when the
/// notes pass ``compactionShare`` of the catalog, starts them afresh.
@_spi(WordIndex) public enum WordChanges {
    public static let table = "word_changes"

    /// The notes past which the next upsert rebuilds the index: a share of the catalog's products,
    /// and at least ``compactionMinimum``.
    static let compactionShare = 0.01
    static let compactionMinimum = 1_000

    /// Notes `productId` unless it is noted already. (Not `INSERT OR IGNORE`: in a trigger, the
    /// conflict clause of the statement that fired it wins, and an upsert's is to fail.)
    private static func note(_ productId: String, origin: String = "NULL") -> String {
        "INSERT INTO \(table) (productId, origin) SELECT \(productId), \(origin) WHERE NOT EXISTS (SELECT 1 FROM \(table) WHERE productId = \(productId));"
    }

    /// The table and the triggers that fill it.
    static var createStatements: String {
        let fields = (["productId"] + WordLists.fields.map(\.columnName)).map { "old.\($0) IS NOT new.\($0) COLLATE BINARY" }.joined(separator: " OR ")
        let words = WordLists.fields.map(\.columnName).joined(separator: ", ")
        return """
            CREATE TABLE IF NOT EXISTS \(table) (seq INTEGER PRIMARY KEY, productId TEXT NOT NULL UNIQUE COLLATE NOCASE, origin TEXT);
            CREATE TRIGGER IF NOT EXISTS word_changes_insert AFTER INSERT ON \(CatalogSchema.table) BEGIN
              \(note("new.productId"))
            END;
            CREATE TRIGGER IF NOT EXISTS word_changes_update AFTER UPDATE OF productId, \(words) ON \(CatalogSchema.table)
              WHEN \(fields) BEGIN
              \(note("old.productId"))
              \(note("new.productId", origin: "CASE WHEN old.productId IS NOT new.productId COLLATE NOCASE THEN old.productId END"))
            END;
            CREATE TRIGGER IF NOT EXISTS word_changes_delete AFTER DELETE ON \(CatalogSchema.table) BEGIN
              \(note("old.productId"))
            END;
            """
    }

    /// Forgets every note: the index was built anew.
    static func clear(_ connection: Connection) throws {
        try connection.deleteRows(ofTableIfPresent: table)
    }

    /// How many products are noted.
    static func count(_ connection: Connection) throws -> Int {
        try connection.rowCount(ofTableIfPresent: table)
    }

    /// True when the notes are many enough that the next upsert should rebuild the index.
    static func wantCompaction(_ connection: Connection, products: Int) throws -> Bool {
        try count(connection) > compactionThreshold(products: products)
    }

    /// The notes past which the next upsert rebuilds the index (and the sort lists, ``SortLists``).
    static func compactionThreshold(products: Int) -> Int {
        max(compactionMinimum, Int(Double(products) * compactionShare))
    }
}

/// What a search reads of ``WordChanges``: the places whose postings are stale, and the noted
/// products as they are now, in lists of its own.
final class WordDelta {
    /// Places of the index's products that changed.
    let stale: PlaceSet
    /// The noted products that exist now: their productId by place.
    let productIds: [Int64: String]
    /// Their lists, by kind and name (`t:` a term, `s:` a start).
    private let lists: [String: [Posting]]
    /// Their terms, sorted byte by byte.
    let terms: [[UInt8]]
    /// The data version it was read at.
    let dataVersion: Int64

    /// True when nothing changed since the index was built.
    var isEmpty: Bool { stale.isEmpty && productIds.isEmpty }

    /// Reads the notes of the catalog on `connection`, whose index is `index`.
    init(connection: Connection, index: CatalogWords, dataVersion: Int64) throws {
        self.dataVersion = dataVersion
        var stale = PlaceSet()
        var productIds: [Int64: String] = [:]
        var builder = try PostingsBuilder()
        if try connection.hasTable(WordChanges.table) {
            let notes = try connection.prepare("SELECT seq, productId, origin FROM \(WordChanges.table) ORDER BY seq")
            let read = try connection.prepare("SELECT productId, \(WordLists.fields.map(\.columnName).joined(separator: ", ")) FROM \(CatalogSchema.table) WHERE productId = ?1")
            var current: [(place: Int64, productId: String, fields: [[UInt8]?])] = []
            while try notes.step() {
                let seq = notes.int64(at: 0)
                let productId = notes.text(at: 1) ?? ""
                let mainPlace = try index.places.place(of: productId)
                if let mainPlace { stale.insert(mainPlace) }
                let product = try read.using { () -> (String, [[UInt8]?])? in
                    try read.bind(1, productId)
                    guard try read.step() else { return nil }
                    return (read.text(at: 0) ?? productId, (1...WordLists.fields.count).map { read.isNull(at: Int32($0)) ? nil : read.withBytes(at: Int32($0)) { Array($0) } })
                }
                guard let (storedId, fields) = product else { continue }
                let origin = try notes.text(at: 2).flatMap { try index.places.place(of: $0) }
                let place = mainPlace ?? origin ?? index.maxPlace + seq
                current.append((place, storedId, fields))
            }
            for (seq, product) in current.enumerated() {
                // A place another noted product took (a product renamed, then its old productId
                // added again) goes to the later one's own, after every other.
                var place = product.place
                if productIds[place] != nil { place = index.maxPlace + Int64(seq) + 1 + Int64(current.count) }
                productIds[place] = product.productId
                var fields = product.fields
                try Self.withViews(&fields) { _ = try builder.add(place: place, fields: $0) }
            }
        }
        var lists: [String: [Posting]] = [:]
        var terms: [[UInt8]] = []
        try builder.forEachList { isStart, name, values in
            let text = String(decoding: name, as: UTF8.self)
            lists[(isStart ? "s:" : "t:") + text] = values.map { Posting(row: Int64($0 >> Posting.fieldBits), fields: UInt8($0 & 7)) }
            if !isStart { terms.append(Array(name)) }
        }
        self.stale = stale
        self.productIds = productIds
        self.lists = lists
        self.terms = terms
        var bytes: [UInt8] = []
        var starts: [Int32] = [0]
        for term in terms where index.terms.list(ofTerm: term) == nil {
            bytes += term
            starts.append(Int32(bytes.count))
        }
        dictionary = TermDictionary(bytes: bytes, starts: starts, version: dataVersion)
    }

    /// The changed products' terms that the index lacks, for finding those near a misspelt word
    /// (the index's own dictionary finds the rest, and the starts of both). Walking all of them,
    /// mostly the index's terms again, cost about a quarter of the index's own walk on the
    /// realistic million with 1% of it changed (a keystroke's mean 1.71 → 1.62 ms).
    let dictionary: TermDictionary

    /// The changed products' postings of the term `term`.
    func postings(ofTerm term: [UInt8]) -> [Posting]? {
        lists["t:" + String(decoding: term, as: UTF8.self)]
    }

    /// The changed products' postings of the start `start`.
    func postings(ofStart start: [UInt8]) -> [Posting]? {
        lists["s:" + String(decoding: start, as: UTF8.self)]
    }

    /// The changed products' terms that start with `start`.
    func terms(startingWith start: [UInt8]) -> ArraySlice<[UInt8]> {
        var low = 0
        var high = terms.count
        while low < high {
            let middle = (low + high) / 2
            if terms[middle].lexicographicallyPrecedes(start) { low = middle + 1 } else { high = middle }
        }
        var end = low
        while end < terms.count, terms[end].starts(with: start) { end += 1 }
        return terms[low..<end]
    }

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
