/// A search's view of the catalog's own word index (``WordLists``): its term list and typo
/// dictionary in memory, its blocks and place map read through the search's connection.
///
/// Made at the first word search and kept while the index's version stays the same (a replacing
/// import's swap gives the search a new file, and so a new view).
final class CatalogWords {
    let terms: TermList
    let dictionary: TermDictionary
    let store: CachedPostingStore
    let places: PlaceMap.Reader
    /// The last place of the index's products.
    let maxPlace: Int64
    let version: Int64

    init(connection: Connection) throws {
        terms = try TermList(connection: connection)
        let (bytes, starts) = terms.termsForDictionary
        version = try WordLists.version(connection)
        dictionary = TermDictionary(bytes: bytes, starts: starts, version: version)
        store = CachedPostingStore(try SQLitePostingStore(connection: connection))
        places = try PlaceMap.Reader(connection: connection)
        maxPlace = try WordLists.maxPlace(connection)
    }

    /// The alternatives of list `list`, read from the blocks.
    func alternative(_ list: Int, distance: UInt8, isWhole: Bool) throws -> WordAlternative {
        try WordAlternative(.blocks(terms.cursor(list, store: store)), distance: distance, isWhole: isWhole, stale: nil)
    }
}

/// A store that keeps the blocks it read lately: the lists of a word's alternatives are often
/// neighbours, in one block or the next.
final class CachedPostingStore: PostingStore {
    private let store: SQLitePostingStore
    private var blocks: [Int: [UInt8]] = [:]
    private var order: [Int] = []
    private static let kept = 256

    init(_ store: SQLitePostingStore) {
        self.store = store
    }

    func withBlock(_ number: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws -> Bool {
        if let kept = blocks[number] {
            try kept.withUnsafeBytes(body)
            return true
        }
        var copy: [UInt8]?
        let found = try store.withBlock(number) { copy = Array($0) }
        guard found, let copy else { return false }
        if order.count >= Self.kept {
            for old in order.prefix(Self.kept / 2) { blocks[old] = nil }
            order.removeFirst(Self.kept / 2)
        }
        blocks[number] = copy
        order.append(number)
        try copy.withUnsafeBytes(body)
        return true
    }

    func block(of list: Int, atOrBefore row: Int64) throws -> Int? {
        try store.block(of: list, atOrBefore: row)
    }
}
