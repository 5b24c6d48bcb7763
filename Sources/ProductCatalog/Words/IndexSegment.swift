/// One segment of the word index (see ``SegmentManifest``) as a search reads it: its term list in
/// memory, its blocks read through the search's connection and kept while they are read often,
/// its places, and its sort lists. Never changed once made, so a reader keeps it, with what it
/// read of it, for as long as the segment is live.
final class IndexSegment {
    let id: Int64
    let holdsImport: Bool
    let terms: TermList
    let store: any PostingStore
    let places: SegmentPlaces
    let sortKeys: any SortKeyBlocks
    /// Products and postings it holds.
    let products: Int
    let postings: Int

    init(id: Int64, holdsImport: Bool, terms: TermList, store: any PostingStore, places: SegmentPlaces, sortKeys: any SortKeyBlocks,
         products: Int, postings: Int) {
        self.id = id
        self.holdsImport = holdsImport
        self.terms = terms
        self.store = store
        self.places = places
        self.sortKeys = sortKeys
        self.products = products
        self.postings = postings
    }

    /// Reads the segment `entry` names from the catalog on `connection`; `prepare` makes (or
    /// finds) the statements it reads with.
    convenience init(_ entry: SegmentManifest.Entry, connection: Connection, prepare: (String) throws -> Statement) throws {
        self.init(id: entry.segment, holdsImport: entry.holdsImport, terms: try TermList(connection: connection, segment: entry.segment),
                  store: CachedPostingStore(try SQLitePostingStore(connection: connection, segment: entry.segment)),
                  places: try SegmentPlaces(segment: entry.segment, connection: connection),
                  sortKeys: try SortLists.exists(connection) ? SortLists.Reader(prepare: prepare, segment: entry.segment) : SortLists.MemoryKeys(),
                  products: entry.products, postings: entry.postings)
    }

    /// The places of its moved products by folded productId, made at first need.
    private var movedIdsMade: [String: Int64]?
    var movedIds: [String: Int64] {
        if let movedIdsMade { return movedIdsMade }
        var made: [String: Int64] = [:]
        made.reserveCapacity(places.moved.count)
        for (place, productId) in places.moved { made[ProductIdOrder.folded(productId)] = place }
        movedIdsMade = made
        return made
    }

    /// Its terms that `base` lacks, as a typo dictionary (the base's own finds the rest), made
    /// at first need for each base it is asked about.
    private var dictionaryMade: (base: Int64, dictionary: TermDictionary)?
    func extraDictionary(beside base: IndexSegment) -> TermDictionary {
        if let dictionaryMade, dictionaryMade.base == base.id { return dictionaryMade.dictionary }
        var bytes: [UInt8] = []
        var starts: [Int32] = [0]
        for list in 0..<terms.termCount {
            terms.withName(list) { name in
                guard base.terms.list(ofTerm: name) == nil else { return }
                bytes += name
                starts.append(Int32(bytes.count))
            }
        }
        let made = TermDictionary(bytes: bytes, starts: starts, version: id)
        dictionaryMade = (base.id, made)
        return made
    }

    /// The whole term list as a typo dictionary (the base's), made at first need.
    private var fullDictionaryMade: TermDictionary?
    var fullDictionary: TermDictionary {
        if let fullDictionaryMade { return fullDictionaryMade }
        let (bytes, starts) = terms.termsForDictionary
        let made = TermDictionary(bytes: bytes, starts: starts, version: id)
        fullDictionaryMade = made
        return made
    }
}

/// A store that keeps the blocks it read lately: the lists of a word's alternatives are often
/// neighbours, in one block or the next. One segment's: its blocks never change.
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

/// The places of a segment's postings that later segments took (hold again, or delete): its
/// postings there are passed over. Dense for the base, whose places are most of the catalog's
/// (a bit a place: 1.25 MB for ten million, and a bit costs a shift where a hash set cost 8% of
/// a keystroke); a set for a segment of changes.
enum DeadPlaces {
    case dense(PlaceSet)
    case sparse(Set<Int64>)

    @inline(__always)
    func contains(_ place: Int64) -> Bool {
        switch self {
        case .dense(let set): set.contains(place)
        case .sparse(let set): set.contains(place)
        }
    }

    var isEmpty: Bool {
        switch self {
        case .dense(let set): set.isEmpty
        case .sparse(let set): set.isEmpty
        }
    }
}
