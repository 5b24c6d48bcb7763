import Foundation
import Synchronization
import Testing
@testable import ProductCatalog

@Suite struct ImportReliabilityTests {
    @Test func upsertAddsNewProductsAndUpdatesOnlyTheColumnsTheFileHas() throws {
        var fixture = try CatalogFixture()
        try fixture.importCSV("sku,name,price,color\nA1,old title,1.00,red\nB2,kept,2.00,blue\n")
        fixture.options.mode = .upsert
        let summary = try fixture.importCSV("sku,price,Material\na1,9.50,Acme\nC3,3.00,Zed\n")
        #expect(summary.rowsInserted == 2 && summary.rowsUpdated == 1 && summary.productsInCatalog == 3)
        let products = try fixture.allProducts()
        #expect(products.map(\.productId) == ["a1", "B2", "C3"] || products.map(\.productId) == ["A1", "B2", "C3"])
        #expect(products[0].title == "old title" && products[0].listPrice == Price(cents: 950) && products[0].color == "red")
        #expect(products[0].extras == [.init(name: "Material", value: "Acme")])
        #expect(products[1].title == "kept" && products[1].extras == [.init(name: "Material", value: nil)])
    }

    @Test func upsertNeedsACatalogToUpdate() throws {
        var fixture = try CatalogFixture()
        fixture.options.mode = .upsert
        #expect(throws: ImportError.self) { try fixture.importCSV("sku\nA1\n") }
        #expect(!FileManager.default.fileExists(atPath: fixture.databasePath))
    }

    @Test func aFailedUpsertLeavesTheCatalogAsItWas() throws {
        var fixture = try CatalogFixture()
        try fixture.importCSV("sku,name\nA1,one\n")
        fixture.options.mode = .upsert
        fixture.options.onDuplicate = .fail
        #expect(throws: ImportError.self) { try fixture.importCSV("sku,name\nA1,changed\nB2,new\nb2,again\n") }
        #expect(try fixture.allProducts().map(\.title) == ["one"])
    }

    @Test(arguments: [(TextEncoding.latin1, "Café"), (.windows1252, "“Café” €5")])
    func transcodesSingleByteEncodings(encoding: TextEncoding, expected: String) throws {
        var fixture = try CatalogFixture()
        fixture.options.reading.encoding = encoding
        var bytes = Array("sku,name\nA1,".utf8)
        bytes += encoding == .latin1 ? [0x43, 0x61, 0x66, 0xE9] : [0x93, 0x43, 0x61, 0x66, 0xE9, 0x94, 0x20, 0x80, 0x35]
        bytes.append(0x0A)
        let summary = try CatalogImporter(options: fixture.options).run(source: MemoryByteSource(bytes, maxReadSize: 3))
        #expect(summary.rowsInserted == 1)
        #expect(try fixture.allProducts().first?.title == expected)
    }

    @Test func aFieldLongerThanTheLimitIsRejected() throws {
        var fixture = try CatalogFixture()
        fixture.options.reading.maxFieldBytes = 10
        let summary = try fixture.importCSV("sku,name\nA1,short\nA2,\(String(repeating: "y", count: 50))\nA3,fine\n")
        #expect(summary.rowsInserted == 2 && summary.rowsRejected == 1)
        #expect(try fixture.rejects()[1][1] == "a field longer than 10 bytes at line 3, column 2")
    }

    @Test func aFullDiskIsAClearErrorAndTheOldCatalogStays() throws {
        var fixture = try CatalogFixture()
        try fixture.importCSV("sku\nOLD\n")
        fixture.options.maxDatabasePages = 4
        let rows = (0..<5_000).map { "P\($0),\(String(repeating: "t", count: 40))" }.joined(separator: "\n")
        #expect {
            try fixture.importCSV("sku,name\n" + rows + "\n")
        } throws: { error in
            guard case ImportError.catalog(.database(_, let sqlite)) = error else { return false }
            return sqlite.isFull && String(describing: error).contains("the disk is full")
        }
        #expect(try fixture.allProducts().map(\.productId) == ["OLD"])
        #expect(!FileManager.default.fileExists(atPath: fixture.databasePath + ".importing"))
    }

    @Test func aCatalogPathThatCannotBeWrittenIsAClearError() throws {
        var fixture = try CatalogFixture()
        fixture.options.databasePath = fixture.directory.file("no/such/folder/catalog.sqlite")
        #expect {
            try fixture.importCSV("sku\nA1\n")
        } throws: { error in
            String(describing: error).contains("no/such/folder") && !String(describing: error).contains("--db")
        }
    }

    @Test func anUnreadableInputIsAClearError() throws {
        let fixture = try CatalogFixture()
        // Reading /proc/self/mem at offset 0 fails with EIO, even for root.
        let source = try FileByteSource(path: "/proc/self/mem")
        #expect {
            try CatalogImporter(options: fixture.options).run(source: source)
        } throws: { error in
            guard case ImportError.source(let sourceError) = error else { return false }
            return sourceError.source == "/proc/self/mem"
        }
    }

    @Test func aSecondImportIntoTheSameCatalogWaitsItsTurn() throws {
        let fixture = try CatalogFixture()
        let lock = try ImportLock(importInto: fixture.databasePath)
        #expect {
            try fixture.importCSV("sku\nA1\n")
        } throws: { error in
            guard case ImportError.catalog(.importRunning) = error else { return false }
            return true
        }
        withExtendedLifetime(lock) {}
    }

    @Test func whatAnInterruptedImportLeftBehindIsClearedByTheNext() throws {
        let fixture = try CatalogFixture()
        try fixture.directory.write("catalog.sqlite.importing", "half a database")
        try fixture.directory.write("catalog.sqlite.importing-journal", "its journal")
        // A kill between creating a sorted run's file and unlinking it leaves the file behind.
        try fixture.directory.write("catalog.sqlite.importing.run0", "a run")
        try fixture.directory.write("catalog.sqlite.importing.run12", "another run")
        try fixture.directory.write("catalog.sqlite.importing.runbook", "not ours")
        // Enough rows to spill several runs (the fixture sorts in 1 KiB), starting with run0.
        let ids = (0..<300).map { "A\($0)" }
        try fixture.importCSV("sku\n" + ids.joined(separator: "\n") + "\n")
        #expect(try fixture.allProducts().map(\.productId) == ids.sorted())
        #expect(!FileManager.default.fileExists(atPath: fixture.databasePath + ".importing"))
        #expect(!FileManager.default.fileExists(atPath: fixture.databasePath + ".importing-journal"))
        #expect(!FileManager.default.fileExists(atPath: fixture.databasePath + ".importing.run0"))
        #expect(!FileManager.default.fileExists(atPath: fixture.databasePath + ".importing.run12"))
        #expect(FileManager.default.fileExists(atPath: fixture.databasePath + ".importing.runbook"))
    }

    /// Another program's connection in WAL mode would meet the new file's log if the file were
    /// renamed under it: the new catalog is copied into the live file instead, and the reader
    /// keeps its state until its transaction ends. Once it is gone, the next import renames.
    @Test func aCatalogHeldOpenInWALModeGetsTheNewCatalogCopiedIntoIt() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV("sku\nOLD\n")
        func inode() throws -> Int? { try FileManager.default.attributesOfItem(atPath: fixture.databasePath)[.systemFileNumber] as? Int }
        let before = try inode()
        do {
            let holder = try Connection(path: fixture.databasePath, mode: .readWrite)
            #expect(try holder.scalarText("PRAGMA journal_mode") == "wal")
            try holder.execute("BEGIN")
            #expect(try holder.scalarText("SELECT productId FROM products") == "OLD")
            try fixture.importCSV("sku\nNEW\n")
            #expect(try holder.scalarText("SELECT productId FROM products") == "OLD", "the reader's transaction kept its state")
            try holder.execute("COMMIT")
            #expect(try holder.scalarText("SELECT productId FROM products") == "NEW")
            #expect(try inode() == before, "the live file was renamed over while another program had it open")
        }
        #expect(try fixture.allProducts().map(\.productId) == ["NEW"])
        // Nobody holds it now: the next import renames its new file over it.
        try fixture.importCSV("sku\nNEWER\n")
        #expect(try fixture.allProducts().map(\.productId) == ["NEWER"])
        #expect(try inode() != before)
        #expect(!FileManager.default.fileExists(atPath: fixture.databasePath + "-wal"))
    }

    @Test func searchesDuringAnImportSeeTheOldCatalogOrTheNewNeverAPart() async throws {
        let directory = try TemporaryDirectory()
        var options = ImportOptions(databasePath: directory.file("catalog.sqlite"))
        let old = try directory.write("old.csv", "sku\n" + (0..<1_000).map { "OLD\($0)" }.joined(separator: "\n") + "\n")
        _ = try await CatalogImporter(options: options).start(input: .file(path: old)).summary
        let new = try directory.write("new.csv", "sku\n" + (0..<60_000).map { "NEW\($0)" }.joined(separator: "\n") + "\n")
        options.sortMemory = 1 << 20
        let job = CatalogImporter(options: options).start(input: .file(path: new))
        let finished = FinishedFlag()
        let waiter = Task {
            defer { finished.set() }
            return try await job.summary
        }
        // Search until the import has ended and its result is visible.
        let databasePath = options.databasePath
        let counts = try await onAThreadOfItsOwn {
            var counts: [Int] = []
            while counts.last != 60_000 {
                let ended = finished.isSet
                counts.append(try ProductSearch(databasePath: databasePath).count(prefix: ""))
                if ended { break }
            }
            return counts
        }
        #expect(try await waiter.value.rowsInserted == 60_000)
        #expect(counts.allSatisfy { $0 == 1_000 || $0 == 60_000 }, "counts seen: \(Set(counts))")
        #expect(counts.last == 60_000)
    }

    /// An upsert writes the live catalog in WAL mode, so a reader is never locked out by it: every
    /// search during it answers with the catalog before or after, each on a connection of its own.
    @Test func searchesDuringAnUpsertAnswerWithTheOldCatalogOrTheNew() async throws {
        let directory = try TemporaryDirectory()
        var options = ImportOptions(databasePath: directory.file("catalog.sqlite"))
        let old = try directory.write("old.csv", "sku,name\n" + (0..<1_000).map { "OLD\($0),old" }.joined(separator: "\n") + "\n")
        _ = try await CatalogImporter(options: options).start(input: .file(path: old)).summary
        let new = try directory.write("new.csv", "sku,name\n" + (0..<60_000).map { "NEW\($0),new" }.joined(separator: "\n") + "\n")
        options.sortMemory = 1 << 20
        options.mode = .upsert
        let job = CatalogImporter(options: options).start(input: .file(path: new))
        let finished = FinishedFlag()
        let waiter = Task {
            defer { finished.set() }
            return try await job.summary
        }
        let databasePath = options.databasePath
        let counts = try await onAThreadOfItsOwn {
            var counts: [Int64] = []
            while counts.last != 61_000 {
                let ended = finished.isSet
                let connection = try Connection.reading(databasePath)
                connection.setBusyTimeout(milliseconds: 5_000)
                counts.append(try connection.scalarInt("SELECT count(*) FROM products") ?? -1)
                if ended { break }
            }
            return counts
        }
        #expect(try await waiter.value.productsInCatalog == 61_000)
        #expect(counts.allSatisfy { $0 == 1_000 || $0 == 61_000 }, "counts seen: \(Set(counts))")
        #expect(counts.last == 61_000 && counts.count > 1)
    }
}

/// Set once by one task, read by another.
private final class FinishedFlag: Sendable {
    private let value = Atomic(false)
    var isSet: Bool { value.load(ordering: .acquiring) }
    func set() { value.store(true, ordering: .releasing) }
}
