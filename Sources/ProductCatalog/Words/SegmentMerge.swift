/// Joins runs of neighbouring segments of the word index into one (``SegmentManifest``), a step at
/// a time: each step is a short write transaction that merges up to a budget of postings and keys,
/// and notes where it stopped in the file, so that no write waits long for one and a merge goes on
/// across processes (the CLI's commands each do a share, a server does it in the background).
///
/// ```sql
/// CREATE TABLE word_merges (output INTEGER PRIMARY KEY, inputs TEXT NOT NULL, phase INTEGER NOT NULL,
///   nextIsStart INTEGER NOT NULL, nextName BLOB NOT NULL, lists INTEGER NOT NULL, blocks INTEGER NOT NULL,
///   sortList INTEGER NOT NULL, sortAfter BLOB, sortBlocks INTEGER NOT NULL, postings INTEGER NOT NULL);
/// CREATE TABLE word_merge_terms (output INTEGER NOT NULL, list INTEGER NOT NULL, name BLOB NOT NULL, isStart INTEGER NOT NULL,
///   products INTEGER NOT NULL, firstBlock INTEGER NOT NULL, offset INTEGER NOT NULL, PRIMARY KEY (output, list)) WITHOUT ROWID;
/// CREATE TABLE word_garbage (segment INTEGER PRIMARY KEY);
/// ```
///
/// **What a merge makes.** The output holds, for each place its inputs hold, the postings and sort
/// keys of the newest input that holds it, unless a later input deletes it; its lists are the
/// inputs' lists by name (terms, then starts), each the union of theirs in row order. It is written
/// under a new segment number, which no search reads until the last step puts it in its inputs'
/// place in one transaction (the position of the newest of them): readers of the state before go
/// on reading the inputs, which go only after (``word_garbage``), a bounded number of rows a step.
/// A merge that takes the base in is a new base.
///
/// Which inputs is ``MergePolicy``'s choice; merges in progress never share an input.
struct SegmentMerge {
    static let table = "word_merges"
    static let termsTable = "word_merge_terms"
    static let garbageTable = "word_garbage"

    static let createStatements = """
        CREATE TABLE IF NOT EXISTS \(table) (output INTEGER PRIMARY KEY, inputs TEXT NOT NULL, phase INTEGER NOT NULL,
          nextIsStart INTEGER NOT NULL, nextName BLOB NOT NULL, lists INTEGER NOT NULL, blocks INTEGER NOT NULL,
          sortList INTEGER NOT NULL, sortAfter BLOB, sortBlocks INTEGER NOT NULL, postings INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS \(termsTable) (output INTEGER NOT NULL, list INTEGER NOT NULL, name BLOB NOT NULL, isStart INTEGER NOT NULL,
          products INTEGER NOT NULL, firstBlock INTEGER NOT NULL, offset INTEGER NOT NULL, PRIMARY KEY (output, list)) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS \(garbageTable) (segment INTEGER PRIMARY KEY);
        """

    /// A merge in progress, as its row keeps it.
    struct State {
        enum Phase: Int64 { case lists = 1, sortLists = 2, finish = 3 }
        var output: Int64
        var inputs: [Int64]
        var phase: Phase
        /// The next list to merge: whether it is a start (the terms come first), and its name.
        var nextIsStart: Bool
        var nextName: [UInt8]
        /// Lists and blocks written so far.
        var lists: Int
        var blocks: Int
        /// The sort list being merged, the last key written to it, and its blocks so far.
        var sortList: Int64
        var sortAfter: [UInt8]?
        var sortBlocks: Int
        var postings: Int
    }

    // MARK: - Running

    /// Does merge work on `connection` (a live catalog's writer, outside a transaction; each step
    /// a write transaction of its own) until `budget` postings and keys are merged or none is
    /// due; starts the merges `policy` asks for. Returns true when more is due.
    @discardableResult
    static func work(_ connection: Connection, views: IndexViews, budget: Int, policy: MergePolicy = MergePolicy()) throws -> Bool {
        var left = budget
        while true {
            let (spent, more) = try connection.transaction(.immediate) { () -> (Int, Bool) in
                guard try SegmentManifest.exists(connection) else { return (0, false) }
                try connection.execute(createStatements)
                if let collected = try collectGarbage(connection, budget: left) { return (collected, true) }
                var states = try readStates(connection)
                let entries = try SegmentManifest.entries(connection)
                if states.count < 2, let inputs = policy.nextMerge(entries, busy: Set(states.flatMap(\.inputs))) {
                    states.append(try begin(inputs.map(\.segment), connection))
                }
                // The smallest merge first: a base merge goes on beside them, a step at a time.
                guard var state = states.min(by: { $0.inputs.count < $1.inputs.count || ($0.inputs.count == $1.inputs.count && $0.output < $1.output) })
                else { return (0, false) }
                let spent = try step(&state, connection, views: views, budget: left)
                return (spent, true)
            }
            left -= max(spent, 1)
            guard more else { return false }
            if left <= 0 { return true }
        }
    }

    /// The work a write of `postings` postings does on merges after it (in the CLI, and in an app
    /// that merges as it writes): four times its own, and at least a share of a merge of small
    /// segments, so that merges keep up with the writes that make segments, however small.
    static func budget(afterWriting postings: Int) -> Int {
        max(100_000, 4 * postings)
    }

    /// The work of one step in the background (``SQLiteCatalog``): tens of milliseconds.
    public static let backgroundStep = 100_000

    /// True when a merge is in progress or due, or merged segments' rows wait to be deleted.
    static func isDue(_ connection: Connection, policy: MergePolicy = MergePolicy()) throws -> Bool {
        guard try SegmentManifest.exists(connection) else { return false }
        if try connection.hasTable(table), try connection.scalarInt("SELECT EXISTS (SELECT 1 FROM \(table)) OR EXISTS (SELECT 1 FROM \(garbageTable))") == 1 {
            return true
        }
        return policy.nextMerge(try SegmentManifest.entries(connection), busy: []) != nil
    }

    private static func readStates(_ connection: Connection) throws -> [State] {
        let statement = try connection.prepare("""
            SELECT output, inputs, phase, nextIsStart, nextName, lists, blocks, sortList, sortAfter, sortBlocks, postings FROM \(table) ORDER BY output
            """)
        var states: [State] = []
        while try statement.step() {
            states.append(State(
                output: statement.int64(at: 0), inputs: (statement.text(at: 1) ?? "").split(separator: ",").compactMap { Int64($0) },
                phase: State.Phase(rawValue: statement.int64(at: 2)) ?? .lists, nextIsStart: statement.int64(at: 3) != 0,
                nextName: statement.withBytes(at: 4) { Array($0) }, lists: Int(statement.int64(at: 5)), blocks: Int(statement.int64(at: 6)),
                sortList: statement.int64(at: 7), sortAfter: statement.isNull(at: 8) ? nil : statement.withBytes(at: 8) { Array($0) },
                sortBlocks: Int(statement.int64(at: 9)), postings: Int(statement.int64(at: 10))))
        }
        return states
    }

    private static func save(_ state: State, _ connection: Connection) throws {
        let statement = try connection.prepare("""
            INSERT OR REPLACE INTO \(table) (output, inputs, phase, nextIsStart, nextName, lists, blocks, sortList, sortAfter, sortBlocks, postings)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
            """)
        try statement.bind(1, state.output)
        try statement.bind(2, state.inputs.map(String.init).joined(separator: ","))
        try statement.bind(3, state.phase.rawValue)
        try statement.bind(4, Int64(state.nextIsStart ? 1 : 0))
        try statement.bind(5, blob: state.nextName)
        try statement.bind(6, Int64(state.lists))
        try statement.bind(7, Int64(state.blocks))
        try statement.bind(8, state.sortList)
        if let after = state.sortAfter { try statement.bind(9, blob: after) } else { try statement.bindNull(9) }
        try statement.bind(10, Int64(state.sortBlocks))
        try statement.bind(11, Int64(state.postings))
        try statement.step()
    }

    private static func begin(_ inputs: [Int64], _ connection: Connection) throws -> State {
        let state = State(output: try SegmentManifest.takeSegmentNumber(connection), inputs: inputs, phase: .lists, nextIsStart: false,
                          nextName: [], lists: 0, blocks: 0, sortList: SortLists.List.price.rawValue, sortAfter: nil, sortBlocks: 0, postings: 0)
        try save(state, connection)
        return state
    }

    /// One step of `state`'s merge, inside the caller's write transaction; returns the work it did.
    private static func step(_ state: inout State, _ connection: Connection, views: IndexViews, budget: Int) throws -> Int {
        guard let view = try views.settledView() else { return 0 }
        let byId = Dictionary(view.segments.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let inputs = state.inputs.compactMap { byId[$0] }
        guard inputs.count == state.inputs.count else {
            // An input went (a replacing import built the index anew): the merge is dropped.
            try abandon(state, connection)
            return 1
        }
        let run = InputRun(inputs, view: view)
        let capacity = SQLitePostingStore.blockCapacity(pageSize: Int(try connection.scalarInt("PRAGMA page_size") ?? 4096))
        switch state.phase {
        case .lists:
            let spent = try mergeLists(&state, run, connection, capacity: capacity, budget: budget)
            try save(state, connection)
            return spent
        case .sortLists:
            let spent = try mergeSortLists(&state, run, connection, capacity: capacity, budget: budget)
            try save(state, connection)
            return spent
        case .finish:
            try finish(state, run, connection, capacity: capacity)
            return run.inputs.count
        }
    }

    /// Drops a merge and what it wrote.
    private static func abandon(_ state: State, _ connection: Connection) throws {
        try connection.execute("DELETE FROM \(table) WHERE output = \(state.output); DELETE FROM \(termsTable) WHERE output = \(state.output);")
        try connection.execute("INSERT OR IGNORE INTO \(garbageTable) (segment) VALUES (\(state.output))")
    }

    // MARK: - The inputs

    /// The inputs of one merge, oldest first, and which of each one's places later inputs take.
    struct InputRun {
        let inputs: [IndexSegment]
        let importMap: PlaceMap.Reader
        /// The import's last place.
        let importMax: Int64
        /// For each input, the places later inputs hold again or delete.
        let taken: [DeadPlaces?]
        /// True when the base is among them: the output is the new base.
        var makesBase: Bool { inputs.first?.holdsImport == true }

        init(_ inputs: [IndexSegment], view: IndexView) {
            self.inputs = inputs
            importMap = view.importMap
            importMax = view.importMax
            var taken = [DeadPlaces?](repeating: nil, count: inputs.count)
            var mentioned = PlaceSet()
            for index in inputs.indices.reversed() {
                let places = inputs[index].places
                if inputs[index].holdsImport {
                    if !mentioned.isEmpty { taken[index] = .dense(mentioned) }
                } else {
                    var set = Set<Int64>()
                    for place in places.held where mentioned.contains(place) { set.insert(place) }
                    if !set.isEmpty { taken[index] = .sparse(set) }
                }
                for place in places.held { mentioned.insert(place) }
                for place in places.deleted { mentioned.insert(place) }
            }
            self.taken = taken
        }

        @inline(__always)
        func isLive(_ place: Int64, in index: Int) -> Bool {
            taken[index]?.contains(place) != true
        }
    }

    // MARK: - Lists

    /// Merges lists in name order from where the last step stopped, until `budget` postings.
    private static func mergeLists(_ state: inout State, _ run: InputRun, _ connection: Connection, capacity: Int, budget: Int) throws -> Int {
        let appender = try SQLitePostingStore.Appender(connection: connection, segment: state.output)
        var writer = PostingBlocks.Writer(capacity: capacity, blocksBefore: state.blocks) { try appender.append($0, $1, $2) }
        let insertTerm = try connection.prepare("""
            INSERT INTO \(termsTable) (output, list, name, isStart, products, firstBlock, offset) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            """)
        var spent = 0
        while true {
            // Each input's next list of this kind from the name on.
            var next: [UInt8]?
            var having: [(input: Int, list: Int)] = []
            for (index, input) in run.inputs.enumerated() {
                let terms = input.terms
                let list = terms.firstList(notBefore: state.nextName, isStart: state.nextIsStart)
                guard list < (state.nextIsStart ? terms.count : terms.termCount) else { continue }
                let name = terms.withName(list) { Array($0) }
                if next == nil || ByteOrder.precedes(name, next!) {
                    next = name
                    having = [(index, list)]
                } else if name == next! {
                    having.append((index, list))
                }
            }
            guard let name = next else {
                if !state.nextIsStart {
                    state.nextIsStart = true
                    state.nextName = []
                    continue
                }
                state.phase = .sortLists
                break
            }
            let list = state.lists
            var first: (block: Int, offset: Int)?
            var written = 0
            try unionPostings(of: name, isStart: state.nextIsStart, having: having, run: run) { value in
                try writer.add(Posting(row: Int64(value >> Posting.fieldBits), fields: UInt8(value & 7)), to: list)
                if first == nil { first = writer.runStart }
                written += 1
            }
            if let first {
                try insertTerm.using {
                    try insertTerm.bind(1, state.output)
                    try insertTerm.bind(2, Int64(list))
                    try insertTerm.bind(3, blob: name)
                    try insertTerm.bind(4, Int64(state.nextIsStart ? 1 : 0))
                    try insertTerm.bind(5, Int64(written))
                    try insertTerm.bind(6, Int64(first.block))
                    try insertTerm.bind(7, Int64(first.offset))
                    try insertTerm.step()
                }
                state.lists += 1
                state.postings += written
            }
            spent += written + 1
            state.nextName = name + [0]
            if spent >= budget { break }
        }
        try writer.finish()
        state.blocks = writer.blocksWritten
        return spent
    }

    /// Hands `emit` the live postings of list `name` in the inputs that have it (and, for a start
    /// of ``TermList/longStartLength`` characters, in those that have its terms but no list of
    /// it), packed (`row << 3 | fields`), in row order, one per row with the fields of every list
    /// that holds it: the lists' cursors in a heap by their current row, so that no list is held
    /// whole (a start of one letter may hold most of the catalog).
    private static func unionPostings(of name: [UInt8], isStart: Bool, having: [(input: Int, list: Int)], run: InputRun,
                                      _ emit: (UInt64) throws -> Void) throws {
        var lists = having
        if isStart, TermList.characters(in: name) == TermList.longStartLength {
            // An input without a list of the start has its terms' lists: the output's list holds them all.
            let withList = Set(having.map(\.input))
            for (index, input) in run.inputs.enumerated() where !withList.contains(index) {
                for list in input.terms.terms(startingWith: name) { lists.append((index, list)) }
            }
        }
        var cursors: [(cursor: PostingCursor, input: Int)] = []
        for (index, list) in lists {
            let input = run.inputs[index]
            cursors.append((try input.terms.cursor(list, store: input.store), index))
        }
        // Moves a cursor past the postings its input's later inputs took.
        func settle(_ position: Int) throws {
            while let posting = cursors[position].cursor.current, !run.isLive(posting.row & WordPlacement.placeMask, in: cursors[position].input) {
                try cursors[position].cursor.next()
            }
        }
        var heap: [Int] = []
        for position in cursors.indices {
            try settle(position)
            if cursors[position].cursor.current != nil { heap.append(position) }
        }
        func row(_ position: Int) -> Int64 { cursors[position].cursor.current!.row }
        func siftDown(_ start: Int) {
            var index = start
            while true {
                let left = 2 * index + 1, right = left + 1
                var smallest = index
                if left < heap.count, row(heap[left]) < row(heap[smallest]) { smallest = left }
                if right < heap.count, row(heap[right]) < row(heap[smallest]) { smallest = right }
                if smallest == index { return }
                heap.swapAt(index, smallest)
                index = smallest
            }
        }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
        while let top = heap.first {
            let current = row(top)
            var fields: UInt8 = 0
            while let top = heap.first, cursors[top].cursor.current!.row == current {
                fields |= cursors[top].cursor.current!.fields
                try cursors[top].cursor.next()
                try settle(top)
                if cursors[top].cursor.current == nil {
                    heap.swapAt(0, heap.count - 1)
                    heap.removeLast()
                }
                siftDown(0)
            }
            try emit(UInt64(current) << Posting.fieldBits | UInt64(fields))
        }
    }

    // MARK: - Sort lists

    /// Merges the sort lists, each in key order from where the last step stopped, until `budget` keys.
    private static func mergeSortLists(_ state: inout State, _ run: InputRun, _ connection: Connection, capacity: Int, budget: Int) throws -> Int {
        let insert = try connection.prepare("INSERT INTO \(SortLists.table) (block, data) VALUES (?1, ?2)")
        var spent = 0
        while spent < budget {
            guard let list = SortLists.List(rawValue: state.sortList) else {
                state.phase = .finish
                break
            }
            var writer = SortLists.BlockWriter(list: list, segment: state.output, blocksBefore: state.sortBlocks, capacity: capacity) { block, data in
                try insert.using {
                    try insert.bind(1, block)
                    try insert.bind(2, blob: data)
                    _ = try insert.step()
                }
            }
            var cursors = try run.inputs.map { try SortLists.Cursor(list, reader: $0.sortKeys, forward: true, after: state.sortAfter) }
            var heads = try cursors.indices.map { try cursors[$0].next() }
            var ended = true
            while true {
                var first: Int?
                for index in heads.indices {
                    guard let head = heads[index] else { continue }
                    if let best = first, let bestHead = heads[best], !ByteOrder.precedes(head, bestHead) { continue }
                    first = index
                }
                guard let index = first, let key = heads[index] else { break }
                heads[index] = try cursors[index].next()
                spent += 1
                if run.isLive(SortLists.place(in: key), in: index) { try writer.add(key) }
                state.sortAfter = key
                if spent >= budget {
                    ended = heads.allSatisfy { $0 == nil }
                    break
                }
            }
            try writer.finish()
            state.sortBlocks = Int(writer.blocks)
            guard ended else { break }
            state.sortList += 1
            state.sortAfter = nil
            state.sortBlocks = 0
        }
        return spent
    }

    // MARK: - The end

    /// Puts the output in its inputs' place: its places and term list, the list of segments, the
    /// inputs to the garbage.
    private static func finish(_ state: State, _ run: InputRun, _ connection: Connection, capacity: Int) throws {
        // Places: held by an input and deleted by none after it; each moved one's productId from the newest input holding it.
        var deleted = Set<Int64>()
        var moved: [Int64: String] = [:]
        var held = Set<Int64>()
        for (index, input) in run.inputs.enumerated() {
            for place in input.places.deleted { deleted.insert(place) }
            if !input.holdsImport { for place in input.places.held where run.isLive(place, in: index) { held.insert(place) } }
            for (place, productId) in input.places.moved where run.isLive(place, in: index) { moved[place] = productId }
        }
        held.subtract(deleted)
        for place in Array(moved.keys) where deleted.contains(place) { moved[place] = nil }
        let places: SegmentPlaces
        if run.makesBase {
            // The base holds every place of the import's map it does not delete: its deletions are those among them.
            places = SegmentPlaces(held: [], moved: moved, deleted: deleted.filter { $0 <= run.importMax }.sorted())
        } else {
            places = SegmentPlaces(held: held.sorted(), moved: moved, deleted: deleted.sorted())
        }
        try places.write(segment: state.output, to: connection, blockCapacity: capacity)
        // The term list, from the lists written.
        var names: [[UInt8]] = [], products: [Int] = [], firstBlocks: [Int] = [], offsets: [Int] = []
        var termCount = 0
        let terms = try connection.prepare("SELECT name, isStart, products, firstBlock, offset FROM \(termsTable) WHERE output = ?1 ORDER BY list")
        try terms.bind(1, state.output)
        while try terms.step() {
            names.append(terms.withBytes(at: 0) { Array($0) })
            if terms.int64(at: 1) == 0 { termCount += 1 }
            products.append(Int(terms.int64(at: 2)))
            firstBlocks.append(Int(terms.int64(at: 3)))
            offsets.append(Int(terms.int64(at: 4)))
        }
        try TermList(names: names, products: products, firstBlocks: firstBlocks, offsets: offsets, termCount: termCount)
            .write(to: connection, blockCapacity: capacity, segment: state.output)
        // The list of segments: the output where the newest input was.
        let entries = try SegmentManifest.entries(connection).filter { state.inputs.contains($0.segment) }
        let position = entries.map(\.position).max() ?? 0
        let liveProducts = run.makesBase
            ? Int(run.importMax) - places.deleted.count + moved.keys.filter { $0 > run.importMax }.count
            : held.count
        try SegmentManifest.remove(state.inputs, connection)
        try SegmentManifest.add(SegmentManifest.Entry(segment: state.output, position: position, holdsImport: run.makesBase,
                                                      products: liveProducts, postings: state.postings, mentions: places.mentions), connection)
        try SegmentManifest.advanceGeneration(connection)
        for input in state.inputs { try connection.execute("INSERT OR IGNORE INTO \(garbageTable) (segment) VALUES (\(input))") }
        try connection.execute("DELETE FROM \(table) WHERE output = \(state.output); DELETE FROM \(termsTable) WHERE output = \(state.output);")
    }

    /// Deletes up to `budget` rows of merged segments; nil when there were none to delete.
    private static func collectGarbage(_ connection: Connection, budget: Int) throws -> Int? {
        guard let segment = try connection.scalarInt("SELECT segment FROM \(garbageTable) ORDER BY segment LIMIT 1") else { return nil }
        let blocks = SegmentRows.blocks(of: segment)
        let sorts = SegmentRows.sortBlocks(of: segment)
        let limit = max(budget / 16, 256)
        var deleted = 0
        for (table, column, range) in [(SQLitePostingStore.blocksTable, "block", blocks), (SQLitePostingStore.startsTable, "list", blocks),
                                       (TermList.table, "block", blocks), (SegmentPlaces.table, "block", blocks), (SortLists.table, "block", sorts)] {
            guard try connection.hasTable(table) else { continue }
            try connection.execute("""
                DELETE FROM \(table) WHERE \(column) IN (SELECT \(column) FROM \(table) WHERE \(column) BETWEEN \(range.lowerBound) AND \(range.upperBound) LIMIT \(limit))
                """)
            deleted += connection.changes
            if deleted >= limit { return deleted }
        }
        try connection.execute("DELETE FROM \(garbageTable) WHERE segment = \(segment)")
        return deleted + 1
    }
}
