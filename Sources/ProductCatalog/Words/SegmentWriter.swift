/// Makes a segment of the notes (``ChangeNotes``) at the end of a write, inside its transaction:
/// the products it changed as they are now, at their places, with the places it deleted; the
/// segment is live at the commit, and the notes it holds are forgotten.
///
/// A write of 1,000 products writes a segment of about as many products: its cost follows the
/// write, never the catalog (where the notes used to be read by every search after every commit,
/// and the whole index built anew once they passed 1% of the catalog). The index's other
/// segments are never touched; merges join them later (``SegmentMerge``).
struct SegmentWriter {
    /// Writes the segment of the notes on `connection` (in its write transaction), reading the
    /// index through `views`; returns it, nil when there were no notes.
    @discardableResult
    static func flush(_ connection: Connection, views: IndexViews) throws -> SegmentManifest.Entry? {
        guard try SegmentManifest.exists(connection), try ChangeNotes.mark(connection).count > 0 else { return nil }
        let notes = try ChangeNotes.read(connection)
        guard let view = try views.settledView() else { return nil }
        let changes = try ChangedProducts.resolve(notes, view: view, nextPlace: view.nextPlace, connection: connection)
        try ChangeNotes.forget(upTo: changes.lastSeq, connection)
        if try connection.hasTable(ChangeNotes.earlierSortNotes) { try connection.execute("DROP TABLE \(ChangeNotes.earlierSortNotes)") }
        guard !changes.isEmpty else { return nil }
        let segment = try SegmentManifest.takeSegmentNumber(connection)
        let capacity = SQLitePostingStore.blockCapacity(pageSize: Int(try connection.scalarInt("PRAGMA page_size") ?? 4096))
        let appender = try SQLitePostingStore.Appender(connection: connection, segment: segment)
        let contents = try SegmentContents(changes, blockCapacity: capacity, emit: { try appender.append($0, $1, $2) })
        try contents.terms.write(to: connection, blockCapacity: capacity, segment: segment)
        try contents.places.write(segment: segment, to: connection, blockCapacity: capacity)
        try writeSortLists(contents.sortKeys, segment: segment, capacity: capacity, connection)
        let entry = SegmentManifest.Entry(segment: segment, position: try SegmentManifest.nextPosition(connection), holdsImport: false,
                                          products: contents.products, postings: contents.postings, mentions: contents.places.mentions)
        try SegmentManifest.add(entry, connection)
        try SegmentManifest.setCounter("nextPlace", view.nextPlace + changes.placesTaken, connection)
        try SegmentManifest.advanceGeneration(connection)
        return entry
    }

    /// Writes a segment's sort lists, each list's keys in order.
    static func writeSortLists(_ lists: [SortLists.List: [[UInt8]]], segment: Int64, capacity: Int, _ connection: Connection) throws {
        let insert = try connection.prepare("INSERT INTO \(SortLists.table) (block, data) VALUES (?1, ?2)")
        for list in SortLists.List.allCases {
            guard let keys = lists[list], !keys.isEmpty else { continue }
            var writer = SortLists.BlockWriter(list: list, segment: segment, capacity: capacity) { block, data in
                try insert.using {
                    try insert.bind(1, block)
                    try insert.bind(2, blob: data)
                    _ = try insert.step()
                }
            }
            for key in keys { try writer.add(key) }
            try writer.finish()
        }
    }
}
