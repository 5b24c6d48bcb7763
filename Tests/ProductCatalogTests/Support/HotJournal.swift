import Foundation
@testable import ProductCatalog

/// A catalog with a hot journal beside it: what `kill -9` of a writer in mid-transaction leaves
/// in a catalog written with a rollback journal (by an earlier version, or by another program that
/// turned it back to one; a catalog in WAL mode leaves log pages no commit follows, see the kill tests).
///
/// A connection changes every product and adds 400 large ones without committing, with a cache
/// so small that SQLite must write changed pages into the database file (after journalling and
/// syncing the originals, which is what makes a journal hot). The file
/// and its journal are copied while that transaction is still open: the copy's journal is hot,
/// since no process holds a lock on the copy, exactly as after a killed writer.
enum HotJournal {
    /// Copies the catalog at `source` to `destination` in the middle of an uncommitted update of every title.
    static func copyInterrupted(_ source: String, to destination: String) throws {
        let writer = try Connection(path: source, mode: .readWrite)
        try writer.execute("""
            PRAGMA journal_mode = DELETE;
            PRAGMA cache_size = 2;
            BEGIN IMMEDIATE;
            UPDATE products SET title = 'HALF-WRITTEN';
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 400)
            INSERT INTO products (productId, title) SELECT 'ZZ-' || i, hex(randomblob(500)) FROM n;
            """)
        defer { try? writer.execute("ROLLBACK") }
        let manager = FileManager.default
        try? manager.removeItem(atPath: destination)
        try? manager.removeItem(atPath: destination + "-journal")
        try manager.copyItem(atPath: source, toPath: destination)
        try manager.copyItem(atPath: source + "-journal", toPath: destination + "-journal")
    }
}
