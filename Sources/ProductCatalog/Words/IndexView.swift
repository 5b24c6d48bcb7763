/// One state of the word index, as every search of one read transaction sees it: the live
/// segments in order (``SegmentManifest``), with the notes no writer has made a segment of yet as
/// one more, in memory (``ChangeNotes``); which of each segment's places later ones took; and
/// where each product is.
///
/// A page, its count, its facets and its sorted pages read one view, in one read transaction
/// (the file in WAL mode keeps that transaction's state whatever commits meanwhile): what a
/// search caches (segments, blocks, term lists) is keyed by segment and lives as long as the
/// segment. A view is read again when the generation or the notes change, from the one before:
/// segments already read are kept, and when segments were only added, which places they took is
/// worked out for them alone.
final class IndexView {
    /// The index's build (a replacing import makes a new one); places mean nothing across builds.
    let epoch: Int64
    let generation: Int64
    /// The segments, oldest first: the base, the segments of changes, and the notes' last.
    let segments: [IndexSegment]
    /// For each segment, the places of its postings that later segments took; nil for none.
    let dead: [DeadPlaces?]
    /// The import's place map: the base's products by place and by productId.
    let importMap: PlaceMap.Reader
    /// The import's last place.
    let importMax: Int64
    /// The place the next product added gets.
    let nextPlace: Int64

    var base: IndexSegment { segments[0] }

    init(epoch: Int64, generation: Int64, segments: [IndexSegment], importMap: PlaceMap.Reader, importMax: Int64, nextPlace: Int64,
         previous: IndexView? = nil) {
        self.epoch = epoch
        self.generation = generation
        self.segments = segments
        self.importMap = importMap
        self.importMax = importMax
        self.nextPlace = nextPlace
        if let previous, previous.epoch == epoch, previous.segments.count <= segments.count,
           zip(previous.segments, segments).allSatisfy({ $0 === $1 }) {
            dead = Self.extending(previous.dead, of: segments, from: previous.segments.count)
        } else {
            dead = Self.extending([], of: segments, from: 0)
        }
    }

    /// The dead places of `segments`, given those of the first `known` of them (taken before the rest came).
    private static func extending(_ known: [DeadPlaces?], of segments: [IndexSegment], from start: Int) -> [DeadPlaces?] {
        guard start > 0 else {
            var dead = [DeadPlaces?](repeating: nil, count: segments.count)
            var mentioned = PlaceSet()
            for index in segments.indices.reversed() {
                let places = segments[index].places
                if index == 0 || segments[index].holdsImport {
                    if !mentioned.isEmpty { dead[index] = .dense(mentioned) }
                } else {
                    var taken = Set<Int64>()
                    for place in places.held where mentioned.contains(place) { taken.insert(place) }
                    if !taken.isEmpty { dead[index] = .sparse(taken) }
                }
                for place in places.held { mentioned.insert(place) }
                for place in places.deleted { mentioned.insert(place) }
            }
            return dead
        }
        var dead = known
        for index in start..<segments.count {
            let places = segments[index].places
            for older in 0..<index {
                if older == 0 || segments[older].holdsImport {
                    var set: PlaceSet
                    if case .dense(let known)? = dead[older] { set = known } else { set = PlaceSet() }
                    for place in places.held { set.insert(place) }
                    for place in places.deleted { set.insert(place) }
                    dead[older] = set.isEmpty ? nil : .dense(set)
                } else {
                    var set: Set<Int64>
                    if case .sparse(let known)? = dead[older] { set = known } else { set = [] }
                    let holder = segments[older].places
                    for place in places.held where holder.holds(place) { set.insert(place) }
                    for place in places.deleted where holder.holds(place) { set.insert(place) }
                    dead[older] = set.isEmpty ? nil : .sparse(set)
                }
            }
            dead.append(nil)
        }
        return dead
    }

    /// This view with `segment` after every other (the notes').
    func appending(_ segment: IndexSegment, nextPlace: Int64) -> IndexView {
        IndexView(epoch: epoch, generation: generation, segments: segments + [segment], importMap: importMap, importMax: importMax,
                  nextPlace: nextPlace, previous: self)
    }

    // MARK: - Where products are

    /// The segment whose postings at `place` are live; nil when no product has the place now.
    func owner(of place: Int64) -> Int? {
        if dead[0]?.contains(place) != true {
            let places = base.places
            if places.moved[place] != nil { return 0 }
            if places.deletes(place) { return nil }
            return place >= 1 && place <= importMax ? 0 : nil
        }
        for index in segments.indices.dropFirst().reversed() {
            let places = segments[index].places
            if places.holds(place) { return index }
            if places.deletes(place) { return nil }
        }
        return nil
    }

    /// True when the postings of segment `index` at `place` are live.
    @inline(__always)
    func isLive(_ place: Int64, in index: Int) -> Bool {
        dead[index]?.contains(place) != true
    }

    /// The productId of the product at `place`; nil when none has it now. With `sampled`, for
    /// places far apart, whose rows of the place map are not kept (``PlaceMap/Reader/productId(atSampled:)``).
    func productId(at place: Int64, sampled: Bool = false) throws -> String? {
        try productIdAndSource(at: place, sampled: sampled)?.productId
    }

    /// The productId at `place`, and whether the import's place map gave it (no segment moved
    /// another productId there).
    private func productIdAndSource(at place: Int64, sampled: Bool = false) throws -> (productId: String, imported: Bool)? {
        guard let owner = owner(of: place) else { return nil }
        if let moved = segments[owner].places.moved[place] { return (moved, false) }
        guard place <= importMax else { return nil }
        let found = try sampled ? importMap.productId(atSampled: place) : importMap.productId(at: place)
        return found.map { ($0, true) }
    }

    /// The place of the product with `productId` (ASCII case ignored); nil when it has none.
    ///
    /// The candidates are the place the newest segment that moved the productId there names,
    /// and the import's place of it; the one whose product is the productId now is its place.
    func place(of productId: String) throws -> Int64? {
        try located(productId)?.place
    }

    /// The place of the product with `productId` (ASCII case ignored), with its productId as the
    /// index spells it there and whether the import's place map gave that; nil when it has none.
    func located(_ productId: String) throws -> (place: Int64, productId: String, imported: Bool)? {
        let folded = ProductIdOrder.folded(productId)
        var candidates: [Int64] = []
        if let moved = segments.lazy.reversed().compactMap({ $0.movedIds[folded] }).first { candidates.append(moved) }
        if let imported = try importMap.place(of: productId) { candidates.append(imported) }
        for place in candidates {
            if let found = try productIdAndSource(at: place), ProductIdOrder.folded(found.productId) == folded {
                return (place, found.productId, found.imported)
            }
        }
        return nil
    }

    /// True when the import's place map does not name `productId` (exactly) at `place`.
    func isMoved(_ place: Int64, _ productId: String) throws -> Bool {
        guard place <= importMax else { return true }
        return try importMap.productId(at: place) != productId
    }
}

/// The views of one connection's catalog, and the segments they read, kept between reads.
final class IndexViews {
    private let connection: Connection
    private let prepare: (String) throws -> Statement
    /// Whether `PRAGMA data_version` tells this connection's reads apart: not for a writer,
    /// whose own commits it does not count.
    private let trustsDataVersion: Bool
    private var epoch: Int64?
    private var segments: [Int64: IndexSegment] = [:]
    private var importMap: PlaceMap.Reader?
    /// The view of the segments alone, and the view with the notes, and what each was read at.
    private var settled: IndexView?
    private var current: (view: IndexView, generation: Int64, notes: (count: Int64, last: Int64), dataVersion: Int64)?

    init(connection: Connection, prepare: @escaping (String) throws -> Statement, trustsDataVersion: Bool = true) {
        self.connection = connection
        self.prepare = prepare
        self.trustsDataVersion = trustsDataVersion
    }

    /// Forgets every view and segment (the file was replaced).
    func reset() {
        epoch = nil
        segments = [:]
        importMap = nil
        settled = nil
        current = nil
    }

    /// The view of the index as the connection reads it now (call it inside the read
    /// transaction that will use it); nil for a catalog without a word index of this layout.
    func view() throws -> IndexView? {
        let dataVersion = try connection.scalarInt("PRAGMA data_version") ?? 0
        if trustsDataVersion, let current, current.dataVersion == dataVersion { return current.view }
        guard try WordLists.exists(connection) else { return nil }
        let epoch = try WordLists.version(connection)
        if epoch != self.epoch { reset() }
        self.epoch = epoch
        let generation = try SegmentManifest.generation(connection)
        let notes = try ChangeNotes.mark(connection)
        if let current, current.generation == generation, current.notes == notes {
            self.current?.dataVersion = dataVersion
            return current.view
        }
        let settled = try settledView(epoch: epoch, generation: generation)
        var view = settled
        if notes.count > 0 {
            let changes = try ChangedProducts.resolve(try ChangeNotes.read(connection), view: settled, nextPlace: settled.nextPlace,
                                                      connection: connection)
            if !changes.isEmpty { view = settled.appending(try Self.memorySegment(changes, view: settled), nextPlace: settled.nextPlace + changes.placesTaken) }
        }
        current = (view, generation, notes, dataVersion)
        return view
    }

    /// The view of the live segments alone, without the notes: what a writer makes its segment
    /// of them against (inside its write transaction); nil without an index of this layout.
    func settledView() throws -> IndexView? {
        guard try WordLists.exists(connection) else { return nil }
        let epoch = try WordLists.version(connection)
        if epoch != self.epoch { reset() }
        self.epoch = epoch
        return try settledView(epoch: epoch, generation: try SegmentManifest.generation(connection))
    }

    /// The view of the live segments at `generation`.
    private func settledView(epoch: Int64, generation: Int64) throws -> IndexView {
        if let settled, settled.generation == generation, generation > 0 { return settled }
        let entries = try SegmentManifest.entries(connection)
        var live: [Int64: IndexSegment] = [:]
        var loaded: [IndexSegment] = []
        for entry in entries {
            let segment = try segments[entry.segment] ?? IndexSegment(entry, connection: connection, prepare: prepare)
            live[entry.segment] = segment
            loaded.append(segment)
        }
        segments = live
        let importMap = try self.importMap ?? PlaceMap.Reader(connection: connection)
        self.importMap = importMap
        let view = IndexView(epoch: epoch, generation: generation, segments: loaded, importMap: importMap,
                             importMax: try WordLists.maxPlace(connection), nextPlace: try SegmentManifest.nextPlace(connection),
                             previous: settled)
        settled = view
        return view
    }

    /// The notes' segment, in memory.
    static func memorySegment(_ changes: ChangedProducts, view: IndexView) throws -> IndexSegment {
        var store = MemoryPostingStore()
        let contents = try SegmentContents(changes, blockCapacity: 4032, emit: { store.keep($0, $1, $2) })
        return IndexSegment(id: -1, holdsImport: false, terms: contents.terms, store: store, places: contents.places,
                            sortKeys: SortLists.MemoryKeys(lists: contents.sortKeys), products: contents.products, postings: contents.postings)
    }
}
