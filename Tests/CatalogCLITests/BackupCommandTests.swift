import Foundation
@testable import ProductCatalog
import Synchronization
import Testing

/// `catalog backup`: a copy made while another writer commits holds whole writes only, finds what
/// it holds, and puts back as the catalog; it never writes over a file.
@Suite struct BackupCommandTests {
    @Test func aBackupMadeWhileProductsAreAddedHoldsWholeWritesAndPutsBack() throws {
        let catalog = try CommandRunner()
        let directory = catalog.directory
        let path = directory + "/catalog.sqlite"
        #expect(try catalog.run(["generate", "--rows", "20000", "--seed", "9", "--output", "base.csv"]).status == 0)
        #expect(try catalog.run(["import", "base.csv"]).status == 0)

        // A writer adds W-0, W-1, … one edit (one commit) each, until told to stop.
        let added = Atomic<Int>(0)
        let stop = Atomic<Bool>(false)
        let finished = DispatchSemaphore(value: 0)
        let writer = Thread {
            defer { finished.signal() }
            do {
                let editor = try CatalogEditor(databasePath: path)
                while !stop.load(ordering: .acquiring) {
                    let index = added.load(ordering: .relaxed)
                    _ = try editor.add(Product(productId: String(format: "W-%05d", index), title: "Written \(index)"))
                    added.store(index + 1, ordering: .releasing)
                }
            } catch {
                Issue.record("the writer failed: \(error)")
                stop.store(true, ordering: .releasing)
            }
        }
        writer.start()
        while added.load(ordering: .acquiring) < 20, !stop.load(ordering: .acquiring) { sched_yield() }
        let backup = try catalog.run(["backup", "--output", "backup.sqlite"])
        let addedByThen = added.load(ordering: .acquiring)
        // The writer goes on after the copy, so the copy had writes on both sides of it.
        while added.load(ordering: .acquiring) < addedByThen + 20, !stop.load(ordering: .acquiring) { sched_yield() }
        stop.store(true, ordering: .releasing)
        finished.wait()
        #expect(backup.status == 0, "\(backup.standardError)")
        #expect(backup.standardOutput.hasPrefix("Copied catalog.sqlite ("), "\(backup.standardOutput)")

        let copy = directory + "/backup.sqlite"
        #expect(!FileManager.default.fileExists(atPath: copy + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: copy + ".partial"))
        let reader = try Connection(path: copy, mode: .readOnly)
        #expect(try reader.scalarText("PRAGMA integrity_check") == "ok")
        #expect(try reader.scalarText("PRAGMA journal_mode") == "delete")
        // Whole writes, in the order they committed: W-0 … W-(n-1), no gap.
        let written = try reader.scalarInt("SELECT count(*) FROM products WHERE productId LIKE 'W-%'") ?? -1
        #expect(written >= 20 && written <= Int64(addedByThen), "\(written) of \(addedByThen)")
        #expect(try reader.scalarText("SELECT max(productId) FROM products WHERE productId LIKE 'W-%'") == String(format: "W-%05d", written - 1))
        #expect(try reader.scalarInt("SELECT count(*) FROM products") == 20_000 + written)
        try InterruptedUpsertTests.expectTheIndexFinds(["Written"], copy)

        // Put back: the catalog moved away, the backup copied to its path.
        try FileManager.default.createDirectory(atPath: directory + "/old", withIntermediateDirectories: true)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.moveItem(atPath: path + suffix, toPath: directory + "/old/catalog.sqlite" + suffix)
        }
        let restore = try catalog.run(["backup", "--db", "backup.sqlite", "--output", "catalog.sqlite"])
        #expect(restore.status == 0, "\(restore.standardError)")
        #expect(try Connection(path: path, mode: .readOnly).scalarInt("SELECT count(*) FROM products") == 20_000 + written)
        try InterruptedUpsertTests.expectTheIndexFinds(["Written"], path)
        let edit = try catalog.run(["import", "base.csv", "--mode", "upsert"])
        #expect(edit.status == 0, "\(edit.standardError)")
    }

    @Test func aBackupNeverWritesOverAFileAndNamesPgDumpForPostgreSQL() throws {
        let catalog = try CommandRunner()
        let directory = catalog.directory
        #expect(try catalog.run(["backup", "--output", "copy.sqlite"]).standardError.contains("no catalog here yet"))
        try "productId,title\nA1,One\n".write(toFile: directory + "/one.csv", atomically: true, encoding: .utf8)
        #expect(try catalog.run(["import", "one.csv"]).status == 0)

        try "keep me".write(toFile: directory + "/taken.sqlite", atomically: true, encoding: .utf8)
        let taken = try catalog.run(["backup", "--output", "taken.sqlite"])
        #expect(taken.status == 1)
        #expect(taken.standardError.contains("taken.sqlite already exists"), "\(taken.standardError)")
        #expect(try String(contentsOfFile: directory + "/taken.sqlite", encoding: .utf8) == "keep me")

        let own = try catalog.run(["backup", "--output", "catalog.sqlite-wal"])
        #expect(own.status == 1)
        #expect(own.standardError.contains("belongs to it"), "\(own.standardError)")

        let postgres = try catalog.run(["backup", "--db", "postgres://shop@db.example/catalog", "--output", "catalog.dump"])
        #expect(postgres.status == 1)
        #expect(postgres.standardError.contains("pg_dump --format=custom"), "\(postgres.standardError)")
        #expect(!FileManager.default.fileExists(atPath: directory + "/catalog.dump"))
    }
}
