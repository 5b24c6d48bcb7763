import Foundation

/// A catalog file as an engine: reading connections and an editor, each on a queue of its own.
///
/// Searches run on serial queues (one per core, at most four) with read-only connections, edits on
/// another with the editor, so a search never waits behind an edit that waits for a lock (a
/// replacing import builds beside the live file; a small upsert writes into it, and searches read
/// the catalog as it was until its commit, see ``CatalogUpdate``). An import renames a new file over the
/// catalog, and a connection keeps reading the file it opened. So before each request each reader
/// compares the identity (device and inode) of the file at the path with the one its connection
/// opened, and reopens when they differ: requests see the old catalog until the swap and the new
/// one right after, whoever imported it. ``catalogReplaced()`` drops the connections at once when
/// this process's own import finishes. Counts of matches are kept per prefix until the file's
/// `PRAGMA data_version` says someone committed a change.
public final class SQLiteCatalog: CatalogEngine, StockKeeping, CollectionKeeping {
    /// The catalog's path.
    public let databasePath: String
    /// One reader per core, each with its own connection and caches: searches of several
    /// people run side by side. A request goes to the reader with the fewest requests in hand.
    private let readers: [DatabaseQueue<SQLiteReader>]
    private let readersBusy: RequestsInHand
    private let writing: DatabaseQueue<CatalogEditor?>
    /// Closed while this engine's own replacing import swaps files: its readers and editor drop
    /// their connections, so that the new file can be renamed in (see ``CatalogBuild``).
    private let swapGate: SwapGate

    /// The catalog's path.
    public var name: String { databasePath }

    /// Beside the catalog file: `<db>.images`.
    public var imagesFolder: String { databasePath + ".images" }

    /// The catalog at `databasePath`, which need not exist yet.
    public init(databasePath: String) {
        self.databasePath = databasePath
        let count = max(1, min(4, ProcessInfo.processInfo.activeProcessorCount))
        readersBusy = RequestsInHand(readers: count)
        readers = (0..<count).map { DatabaseQueue(label: "sqlite-catalog.read.\($0)", state: SQLiteReader(databasePath: databasePath)) }
        writing = DatabaseQueue(label: "sqlite-catalog.write", state: nil)
        swapGate = SwapGate(participants: count + 1)
    }

    /// Runs `body` on the reader with the fewest requests in hand.
    private func read<T: Sendable>(_ body: @escaping @Sendable (inout SQLiteReader) throws -> T) async throws -> T {
        let index = readersBusy.take()
        defer { readersBusy.give(back: index) }
        let gate = swapGate
        return try await readers[index].run { side in
            gate.pass(index) { side.close() }
            return try side.recovering { side in try side.transaction { try body(&$0) } }
        }
    }

    /// Runs `body` on the writing queue with the editor, then has the index's segments merged
    /// in the background as far as they want (see ``mergeInBackground()``).
    private func edit<T: Sendable>(_ body: @escaping @Sendable (inout CatalogEditor?) throws -> T) async throws -> T {
        let (gate, writer) = (swapGate, readers.count)
        return try await writing.run { [self] editor in
            gate.pass(writer) { editor = nil }
            let result = try body(&editor)
            mergeInBackground()
            return result
        }
    }

    /// True while a merge step waits on the writing queue.
    private let mergeQueued = QueuedFlag()

    /// Queues one step of merging the index's segments (``SegmentMerge``) on the writing queue,
    /// behind the edits waiting there, and another after it while more is due: a server's writes
    /// never wait for more than one step (``SegmentMerge/backgroundStep``), and its searches for
    /// none (the file is in WAL mode, ``LiveJournal``).
    private func mergeInBackground() {
        guard mergeQueued.raise() else { return }
        let (gate, writer) = (swapGate, readers.count)
        writing.enqueue { [self] editor in
            mergeQueued.lower()
            gate.pass(writer) { editor = nil }
            guard let current = editor, current.isCurrent,
                  (try? current.mergeSegments(budget: SegmentMerge.backgroundStep)) == true else { return }
            mergeInBackground()
        }
    }

    /// What this engine does around its own import's swap: every reader and the editor drop their
    /// connections (each at its next turn, after the request in hand) and hold new requests back
    /// until the new file is in place.
    private var swapHooks: CatalogBuild.SwapHooks {
        let (gate, readers, writing) = (swapGate, readers, writing)
        return CatalogBuild.SwapHooks(before: {
            gate.close(asking: { participant in
                if participant < readers.count {
                    readers[participant].enqueue { side in gate.acknowledge(participant) { side.close() } }
                } else {
                    writing.enqueue { editor in gate.acknowledge(participant) { editor = nil } }
                }
            })
        }, after: { gate.open() })
    }

    /// A page of the products `request` finds, and how many it finds in all: exactly for a
    /// prefix or a query without words, and for a query with words up to 10,000 (`complete`
    /// false when more match).
    public func page(_ request: SearchRequest, after cursor: KeysetCursor?, limit: Int) async throws -> (page: SearchPage, count: Int, complete: Bool) {
        try await read { side in
            try side.recovering { try $0.page(request, after: cursor, limit: limit) }
        }
    }

    /// A read transaction of its own on the file at the path now (see ``CatalogSnapshot``).
    public func snapshot() async throws -> any CatalogSnapshot {
        try await SQLiteSnapshot.open(databasePath: databasePath)
    }

    /// The same page without counting the matches.
    public func products(_ request: SearchRequest, after cursor: KeysetCursor?, limit: Int) async throws -> SearchPage {
        try await read { side in
            try side.recovering { side in
                guard let search = try side.currentSearch() else { return SearchPage(products: [], nextCursor: nil) }
                return try search.page(request, after: cursor, limit: limit)
            }
        }
    }

    /// How many of the products `request` finds have each type, color, size and option.
    public func facets(_ request: SearchRequest) async throws -> FacetCounts? {
        try await read { side in
            try side.recovering { side in try side.currentSearch()?.facets(request) }
        }
    }

    /// The product with this productId (ASCII case ignored), if any.
    public func product(id: String) async throws -> Product? {
        try await read { side in try side.recovering { try $0.currentSearch()?.product(id: id) } }
    }

    /// The starred products, in productId order.
    public func favorites() async throws -> [Product] {
        try await read { side in try side.recovering { try $0.currentSearch()?.favorites() ?? [] } }
    }

    /// The products sharing the groupId of the product `productId` (it included); nil when there is no such product.
    public func variants(of productId: String) async throws -> [Product]? {
        try await read { side in
            try side.recovering { side in
                guard let search = try side.currentSearch(), let product = try search.product(id: productId) else { return nil }
                guard let groupId = product.groupId, !groupId.isEmpty else { return [product] }
                return try search.variants(groupId: groupId)
            }
        }
    }

    /// The catalog's product types, the most used first.
    public func productTypes() async throws -> [String] {
        try await read { side in try side.recovering { try $0.productTypes() } }
    }

    public func stock(of productIds: [String]) async throws -> [String: [StoreQuantity]] {
        try await read { side in try side.recovering { try $0.currentSearch()?.stock(of: productIds) ?? [:] } }
    }

    public func imageURLs(startingWith prefix: String) async throws -> Set<String> {
        try await read { side in try side.recovering { try $0.currentSearch()?.imageURLs(startingWith: prefix) ?? [] } }
    }

    /// A ``StockImporter`` into this file's stock by store.
    public nonisolated func stockImporter(mode: ImportMode) -> StockImporter {
        StockImporter(databasePath: databasePath, mode: mode)
    }

    public func stores() async throws -> [String] {
        try await read { side in try side.recovering { try $0.currentSearch()?.stores() ?? [] } }
    }

    public func collections() async throws -> [ProductCollection] {
        try await read { side in try side.recovering { try $0.currentSearch()?.collections() ?? [] } }
    }

    public func collection(named name: String) async throws -> ProductCollection? {
        try await read { side in try side.recovering { try $0.currentSearch()?.collection(named: name) } }
    }

    public func members(of name: String, after productId: String?, limit: Int) async throws -> [String] {
        try await read { side in try side.recovering { try $0.currentSearch()?.members(of: name, after: productId, limit: limit) ?? [] } }
    }

    public func productCount() async throws -> Int {
        try await page(SearchRequest(listing: .variants), after: nil, limit: 1).count
    }

    /// Stars or unstars the product with `productId`.
    public func setFavorite(_ productId: String, _ starred: Bool) async throws {
        let path = databasePath
        try await edit { editor in
            try Self.withEditor(&editor, path: path, creatingCatalog: false) { try $0.setFavorite(productId, starred) }
        }
    }

    public func createCollection(_ name: String, search: SavedSearch?) async throws -> ProductCollection {
        let path = databasePath
        return try await edit { editor in
            try Self.withEditor(&editor, path: path, creatingCatalog: false) { try $0.createCollection(name, search: search) }
        }
    }

    public func deleteCollection(_ name: String) async throws {
        let path = databasePath
        try await edit { editor in
            try Self.withEditor(&editor, path: path, creatingCatalog: false) { try $0.deleteCollection(name) }
        }
    }

    public func changeCollection(_ name: String, adding productIds: [String], removing: Bool) async throws -> CollectionChange {
        let path = databasePath
        return try await edit { editor in
            try Self.withEditor(&editor, path: path, creatingCatalog: false) { try $0.changeCollection(name, adding: productIds, removing: removing) }
        }
    }

    public func collectionsFromColumn(_ column: String, separator: Character) async throws -> ColumnCollections {
        let path = databasePath
        return try await edit { editor in
            try Self.withEditor(&editor, path: path, creatingCatalog: false) { try $0.collectionsFromColumn(column, separator: separator) }
        }
    }

    public func importCollections(from source: InputSource, mode: ImportMode, rejectsPath: String?) async throws -> CollectionImportSummary {
        var importer = CollectionImporter(databasePath: databasePath, mode: mode)
        importer.rejectsPath = rejectsPath
        return try await edit { [importer] _ in try importer.run(source: try source.open()) }
    }

    /// Adds `product`, creating an empty catalog first when there is none yet.
    public func add(_ product: Product) async throws -> Product {
        let path = databasePath
        return try await edit { editor in
            try Self.withEditor(&editor, path: path, creatingCatalog: true) { try $0.add(product) }
        }
    }

    /// Replaces the product with `productId` by `product`.
    public func replace(productId: String, with product: Product) async throws -> Product {
        let path = databasePath
        return try await edit { editor in
            try Self.withEditor(&editor, path: path, creatingCatalog: false) { try $0.replace(productId: productId, with: product) }
        }
    }

    /// Deletes the product with `productId`.
    public func delete(productId: String) async throws {
        let path = databasePath
        try await edit { editor in
            try Self.withEditor(&editor, path: path, creatingCatalog: false) { try $0.delete(productId: productId) }
        }
    }

    /// Applies `change` to each of `productIds` in one transaction.
    public func apply(_ change: BatchChange, to productIds: [String]) async throws -> BatchOutcome {
        let path = databasePath
        return try await edit { editor in
            try Self.withEditor(&editor, path: path, creatingCatalog: false) { try $0.apply(change, to: productIds) }
        }
    }

    /// How many products were added, edited or deleted here since the last replacing import (0 without a catalog).
    public func handEditsSinceImport() async throws -> Int {
        let path = databasePath
        return try await edit { editor in
            guard (try? CatalogSchema.kind(ofFileAt: path)) == .catalog else { return 0 }
            return try Self.withEditor(&editor, path: path, creatingCatalog: false) { try $0.handEditsSinceImport() }
        }
    }

    /// False for a catalog made before the word index, until its next write indexes its words.
    public func indexesWords() async throws -> Bool {
        try await read { side in try side.recovering { try $0.currentSearch()?.hasWordIndex ?? true } }
    }

    /// The catalog file's own sink: a new file built beside it and swapped in, or an upsert.
    public func makeSink(for options: ImportOptions) -> any CatalogSink {
        SQLiteCatalogSink(databasePath: databasePath, maxPages: options.maxDatabasePages, aroundSwap: swapHooks)
    }

    /// Throws ``CatalogError/notACatalog(path:)`` for a file this tool did not make; a missing or
    /// empty file is fine unless `requiringCatalog`.
    public func checkOpenable(requiringCatalog: Bool) async throws {
        switch try CatalogSchema.kind(ofFileAt: databasePath) {
        case .catalog: break
        case .missing, .empty: if requiringCatalog { throw CatalogError.noCatalog(path: databasePath) }
        case .otherDatabase, .notADatabase: throw CatalogError.notACatalog(path: databasePath)
        }
    }

    /// Forgets the open connections so the next request opens the file now at the path.
    public func close() async {
        await catalogReplaced()
    }

    /// Forgets the open connections so the next request opens the file now at the path.
    public func catalogReplaced() async {
        for reader in readers { _ = try? await reader.run { $0.close() } }
        _ = try? await writing.run { $0 = nil }
    }

    /// Opens each reader's connection and reads its term list, so that the first searches
    /// with typos do not wait for it; a reader that cannot read the catalog now reports it at its next request.
    public func warmUp() async {
        for reader in readers { _ = try? await reader.run { try $0.recovering { try $0.currentSearch()?.loadTermList() } } }
        // Merges the writes of other programs left due (the CLI's share of them stops at a bound) go on here.
        let path = databasePath
        _ = try? await edit { editor in
            guard (try? CatalogSchema.kind(ofFileAt: path)) == .catalog else { return false }
            return try Self.withEditor(&editor, path: path, creatingCatalog: false) { try $0.segmentsWantMerging() }
        }
    }

    /// Runs `body` with an editor on the file now at the path, reopening it when an import replaced the file.
    private static func withEditor<T>(
        _ editor: inout CatalogEditor?, path: String, creatingCatalog: Bool, _ body: (CatalogEditor) throws -> T
    ) throws -> T {
        for _ in 0..<3 {
            if editor?.isCurrent != true {
                editor = nil
                if creatingCatalog { try CatalogEditor.createCatalogIfMissing(at: path) }
                do {
                    let opened = try CatalogEditor(databasePath: path)
                    // This engine merges in the background, after its writes.
                    opened.mergesAfterEachWrite = false
                    editor = opened
                } catch EditError.catalogReplaced {
                    continue
                } catch EditError.catalog(.noCatalog) {
                    throw EngineError.noCatalog(catalog: path)
                } catch let error as CatalogError {
                    throw EditError.catalog(error)
                }
            }
            guard let current = editor else { continue }
            do {
                return try body(current)
            } catch EditError.catalogReplaced {
                editor = nil
            }
        }
        throw EditError.catalogReplaced(path: path)
    }
}

/// A flag raised by one caller at a time. (A lock rather than `Mutex`, which needs iOS 18.)
private final class QueuedFlag: @unchecked Sendable {
    private let lock = NSLock()
    /// Touched only under `lock`.
    private var raised = false

    /// Raises the flag; false when it was raised already.
    func raise() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !raised else { return false }
        raised = true
        return true
    }

    func lower() {
        lock.lock()
        raised = false
        lock.unlock()
    }
}

/// How many requests each reader has in hand, so that a new one goes where the fewest wait.
/// (A lock rather than `Mutex`, which needs iOS 18.)
private final class RequestsInHand: @unchecked Sendable {
    private let lock = NSLock()
    /// Touched only under `lock`.
    private var counts: [Int]

    init(readers: Int) {
        counts = Array(repeating: 0, count: readers)
    }

    /// The index of the reader with the fewest requests, counting one more for it.
    func take() -> Int {
        lock.lock()
        defer { lock.unlock() }
        let index = counts.indices.min { counts[$0] < counts[$1] } ?? 0
        counts[index] += 1
        return index
    }

    /// One request fewer for reader `index`.
    func give(back index: Int) {
        lock.lock()
        defer { lock.unlock() }
        counts[index] -= 1
    }
}
