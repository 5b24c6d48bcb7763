/// The products changed since the index's last segment was written: noted by triggers, whatever
/// program writes, until a writer of this library makes a segment of them (``SegmentWriter``), and
/// read by every search meanwhile as a segment of its own, in memory (``IndexView``).
///
/// ```sql
/// CREATE TABLE word_changes (seq INTEGER PRIMARY KEY, productId TEXT NOT NULL UNIQUE COLLATE NOCASE,
///   origin TEXT, state INTEGER NOT NULL DEFAULT 0);
/// ```
///
/// A product added, deleted, renamed, or given a new title, brand, type or price is noted once,
/// by productId. A renamed one is noted under both: the old productId as gone, the new with the
/// productId it had when the notes began as its `origin` (two renames in a row still name the
/// first). `state` says whether the productId was deleted, or deleted and added again: a product
/// added again is a new product.
///
/// **Places, given once** (the same rule as PostgreSQL's, ``ChangedProducts/resolve(_:view:nextPlace:connection:)``):
/// a product keeps its place while it lives, renamed or edited; a new one, and one deleted and
/// added again, takes the next place, in the order the notes were taken; a place is never given
/// twice. So the order of word matches is the import's (productId order) and then the order
/// products were added in.
enum ChangeNotes {
    public static let table = "word_changes"

    /// What happened to a noted productId.
    enum State: Int64 {
        /// It was added or changed: the product with it now is the one noted.
        case written = 0
        /// It was deleted (or renamed away).
        case deleted = 1
        /// It was deleted, then added again: the product with it now is a new one.
        case addedAgain = 2
    }

    /// The fields whose changes a segment takes in: the words' and the sort lists'.
    static var notedFields: [String] {
        (["productId"] + (WordLists.fields + SortLists.sortedFields).map(\.columnName)).reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }

    /// Notes `productId` as `state` (not `INSERT OR IGNORE`: in a trigger, the conflict clause of
    /// the statement that fired it wins, and an upsert's is to fail).
    private static func note(_ productId: String, state: String, origin: String = "NULL", when condition: String = "") -> String {
        """
        UPDATE \(table) SET state = \(state), origin = coalesce(\(origin), origin) WHERE productId = \(productId)\(condition);
          INSERT INTO \(table) (productId, origin, state) SELECT \(productId), \(origin), \(state)
            WHERE NOT EXISTS (SELECT 1 FROM \(table) WHERE productId = \(productId));
        """
    }

    /// The table and the triggers that fill it.
    static var createStatements: String {
        let changed = notedFields.map { "old.\($0) IS NOT new.\($0) COLLATE BINARY" }.joined(separator: " OR ")
        let renamed = "old.productId IS NOT new.productId COLLATE NOCASE"
        // The productId the renamed product had when the notes began: its own note's origin, if it has one.
        let origin = "coalesce((SELECT origin FROM \(table) WHERE productId = old.productId AND origin IS NOT NULL), old.productId)"
        return """
            CREATE TABLE IF NOT EXISTS \(table) (seq INTEGER PRIMARY KEY, productId TEXT NOT NULL UNIQUE COLLATE NOCASE,
              origin TEXT, state INTEGER NOT NULL DEFAULT 0);
            CREATE TRIGGER IF NOT EXISTS word_changes_insert AFTER INSERT ON \(CatalogSchema.table) BEGIN
              UPDATE \(table) SET state = \(State.addedAgain.rawValue) WHERE productId = new.productId AND state = \(State.deleted.rawValue);
              INSERT INTO \(table) (productId) SELECT new.productId WHERE NOT EXISTS (SELECT 1 FROM \(table) WHERE productId = new.productId);
            END;
            CREATE TRIGGER IF NOT EXISTS word_changes_delete AFTER DELETE ON \(CatalogSchema.table) BEGIN
              \(note("old.productId", state: "\(State.deleted.rawValue)"))
            END;
            CREATE TRIGGER IF NOT EXISTS word_changes_update AFTER UPDATE OF \(notedFields.joined(separator: ", ")) ON \(CatalogSchema.table)
              WHEN \(changed) BEGIN
              UPDATE \(table) SET state = 0, origin = \(origin) WHERE productId = new.productId AND \(renamed);
              INSERT INTO \(table) (productId, origin, state) SELECT new.productId, CASE WHEN \(renamed) THEN \(origin) END, 0
                WHERE NOT EXISTS (SELECT 1 FROM \(table) WHERE productId = new.productId);
              UPDATE \(table) SET state = \(State.deleted.rawValue) WHERE productId = old.productId AND \(renamed);
              INSERT INTO \(table) (productId, state) SELECT old.productId, \(State.deleted.rawValue)
                WHERE \(renamed) AND NOT EXISTS (SELECT 1 FROM \(table) WHERE productId = old.productId);
            END;
            """
    }

    /// The triggers of earlier layouts, which noted words and sort keys apart.
    static let dropEarlierTriggers = """
        DROP TRIGGER IF EXISTS word_changes_insert; DROP TRIGGER IF EXISTS word_changes_update; DROP TRIGGER IF EXISTS word_changes_delete;
        DROP TRIGGER IF EXISTS sort_changes_insert; DROP TRIGGER IF EXISTS sort_changes_update; DROP TRIGGER IF EXISTS sort_changes_delete;
        """

    /// The table of notes of the sort lists of layout 7, whose notes are taken in with these.
    static let earlierSortNotes = "sort_changes"

    /// One note.
    struct Note: Equatable {
        var seq: Int64
        var productId: String
        var origin: String?
        var state: State
    }

    /// The notes, in the order they were taken (with those of layout 7's sort lists after, as written).
    static func read(_ connection: Connection) throws -> [Note] {
        var notes: [Note] = []
        guard try connection.hasTable(table) else { return notes }
        let hasState = try connection.scalarInt("SELECT count(*) FROM pragma_table_info('\(table)') WHERE name = 'state'") == 1
        let statement = try connection.prepare("SELECT seq, productId, origin, \(hasState ? "state" : "0") FROM \(table) ORDER BY seq")
        while try statement.step() {
            notes.append(Note(seq: statement.int64(at: 0), productId: statement.text(at: 1) ?? "", origin: statement.text(at: 2),
                              state: State(rawValue: statement.int64(at: 3)) ?? .written))
        }
        if try connection.hasTable(earlierSortNotes) {
            var noted = Set(notes.map { ProductIdOrder.folded($0.productId) })
            let last = notes.last?.seq ?? 0
            let sorted = try connection.prepare("SELECT productId FROM \(earlierSortNotes)")
            while try sorted.step() {
                let productId = sorted.text(at: 0) ?? ""
                guard noted.insert(ProductIdOrder.folded(productId)).inserted else { continue }
                notes.append(Note(seq: last + Int64(notes.count) + 1, productId: productId, origin: nil, state: .written))
            }
        }
        return notes
    }

    /// Forgets the notes up to `seq`: a segment holds them now.
    static func forget(upTo seq: Int64, _ connection: Connection) throws {
        let delete = try connection.prepare("DELETE FROM \(table) WHERE seq <= ?1")
        try delete.bind(1, seq)
        try delete.step()
    }

    /// A mark that changes whenever notes are taken or forgotten: how many there are, and the last one's number.
    static func mark(_ connection: Connection) throws -> (count: Int64, last: Int64) {
        guard try connection.hasTable(table) else { return (0, 0) }
        let statement = try connection.prepare("SELECT count(*), ifnull(max(seq), 0) FROM \(table)")
        guard try statement.step() else { return (0, 0) }
        var count = statement.int64(at: 0)
        if try connection.hasTable(earlierSortNotes) { count += try connection.scalarInt("SELECT count(*) FROM \(earlierSortNotes)") ?? 0 }
        return (count, statement.int64(at: 1))
    }
}
