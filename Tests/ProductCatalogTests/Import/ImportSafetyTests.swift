import Foundation
import Testing
@testable import ProductCatalog

/// Imports that would lose data, or write where they must not, are refused with the catalog unchanged.
@Suite struct ImportSafetyTests {
    static let fiveProducts = "productId,title,listPrice\nA1,One,1\nA2,Two,2\nA3,Three,3\nA4,Four,4\nA5,Five,5\n"

    func ids(_ fixture: CatalogFixture) throws -> [String] {
        try fixture.allProducts().map(\.productId)
    }

    // MARK: - Imports that keep nothing

    @Test func aFileWhoseRowsAreAllRejectedDoesNotReplaceTheCatalog() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.fiveProducts)
        // Latin-1 bytes (é is 0xE9) read as UTF-8: every row is rejected.
        var latin1: [UInt8] = Array("productId,title\n".utf8)
        for index in 0..<20 { latin1 += Array("B\(index),Caf".utf8) + [0xE9] + [0x0A] }
        var options = fixture.options
        options.reading.chunkSize = 64
        #expect {
            try CatalogImporter(options: options).run(source: MemoryByteSource(latin1))
        } throws: { error in
            guard case ImportError.nothingImported(let rows, let invalid, _) = error else { return false }
            return rows == 20 && invalid == 20 && String(describing: error).contains("Latin-1 or Windows-1252")
        }
        #expect(try ids(fixture) == ["A1", "A2", "A3", "A4", "A5"])
        #expect(try fixture.rejects().count == 21)
    }

    @Test func anUnclosedQuoteThatSwallowsTheFileDoesNotReplaceTheCatalog() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.fiveProducts)
        #expect(throws: ImportError.self) {
            try fixture.importCSV("productId,title\n\"B1,One\nB2,Two\nB3,Three\n")
        }
        #expect(try ids(fixture) == ["A1", "A2", "A3", "A4", "A5"])
    }

    @Test func aHeaderOnlyFileReplacesNothingUnlessEmptyIsAllowed() throws {
        var fixture = try CatalogFixture()
        try fixture.importCSV(Self.fiveProducts)
        #expect {
            try fixture.importCSV("productId,title\n")
        } throws: { error in
            if case ImportError.noDataRows = error { return true }
            return false
        }
        #expect(try ids(fixture).count == 5)
        fixture.options.mode = .upsert
        #expect(try fixture.importCSV("productId,title\n").productsInCatalog == 5)
        fixture.options.mode = .replace
        fixture.options.allowEmpty = true
        #expect(try fixture.importCSV("productId,title\n").productsInCatalog == 0)
        #expect(try ids(fixture).isEmpty)
    }

    @Test func someRowsKeptIsAnOrdinaryImport() throws {
        let fixture = try CatalogFixture()
        let summary = try fixture.importCSV("productId,title,listPrice\nA1,One,x\nA2,Two,2\n")
        #expect(summary.rowsInserted == 1)
        #expect(summary.rowsRejected == 1)
    }

    // MARK: - What --db may be

    @Test(arguments: ["/dev/null", "fifo", "folder"])
    func aDbThatIsNotARegularFileIsRefusedAndLeftAlone(_ name: String) throws {
        let fixture = try CatalogFixture()
        var path = name
        if name == "fifo" {
            path = fixture.directory.file("fifo")
            #expect(mkfifo(path, 0o644) == 0)
        } else if name == "folder" {
            path = fixture.directory.file("folder")
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        }
        var options = fixture.options
        options.databasePath = path
        #expect {
            try CatalogImporter(options: options).run(source: MemoryByteSource(Self.fiveProducts))
        } throws: { error in
            guard case ImportError.catalog(.notAFile) = error else { return false }
            return true
        }
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & S_IFMT != S_IFREG)
    }

    @Test(arguments: [ImportMode.replace, .upsert])
    func aSymbolicLinkIsFollowedAndStaysALink(mode: ImportMode) throws {
        var fixture = try CatalogFixture()
        try fixture.importCSV(Self.fiveProducts)
        let link = fixture.directory.file("link.sqlite")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "catalog.sqlite")
        var options = fixture.options
        options.databasePath = link
        options.mode = mode
        try CatalogImporter(options: options).run(source: MemoryByteSource("productId,title\nB1,New\n"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "catalog.sqlite")
        fixture.options.databasePath = link
        let expected = mode == .replace ? ["B1"] : ["A1", "A2", "A3", "A4", "A5", "B1"]
        #expect(try ids(fixture) == expected)
        fixture.options.databasePath = fixture.directory.file("catalog.sqlite")
        #expect(try ids(fixture) == expected)

        // One lock for the file, whichever name the import was given.
        let lock = try ImportLock(importInto: fixture.directory.file("catalog.sqlite"))
        options.databasePath = link
        #expect {
            try CatalogImporter(options: options).run(source: MemoryByteSource("productId\nC1\n"))
        } throws: { error in
            if case ImportError.catalog(.importRunning) = error { return true }
            return false
        }
        withExtendedLifetime(lock) {}
    }

    @Test func aReadOnlyCatalogIsRefusedAndKeepsItsModeAndProducts() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.fiveProducts)
        #expect(chmod(fixture.databasePath, 0o444) == 0)
        #expect {
            try fixture.importCSV("productId\nB1\n")
        } throws: { error in
            guard case ImportError.catalog(.readOnly) = error else { return false }
            return true
        }
        var info = stat()
        #expect(stat(fixture.databasePath, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o444)
        #expect(try ids(fixture).count == 5)
    }

    @Test(arguments: [ImportMode.replace, .upsert])
    func theReplacedFileKeepsThePermissionsOfTheOld(mode: ImportMode) throws {
        var fixture = try CatalogFixture()
        try fixture.importCSV(Self.fiveProducts)
        #expect(chmod(fixture.databasePath, 0o600) == 0)
        fixture.options.mode = mode
        try fixture.importCSV("productId\nB1\n")
        var info = stat()
        #expect(stat(fixture.databasePath, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
    }

    // MARK: - A killed writer's hot journal

    @Test func everyCommandRollsBackTheHotJournalOfAKilledWriter() throws {
        var fixture = try CatalogFixture()
        try fixture.importCSV(Self.fiveProducts)
        let interrupted = fixture.directory.file("interrupted.sqlite")
        try HotJournal.copyInterrupted(fixture.databasePath, to: interrupted)
        #expect(FileManager.default.fileExists(atPath: interrupted + "-journal"))
        // A read-only connection cannot roll it back by itself: this is what used to fail.
        #expect {
            try Connection(path: interrupted, mode: .readOnly).scalarInt("SELECT count(*) FROM products")
        } throws: { ($0 as? SQLiteError)?.isHotJournal == true }

        fixture.options.databasePath = interrupted
        #expect(try fixture.allProducts().map(\.title) == ["One", "Two", "Three", "Four", "Five"])
        #expect(!FileManager.default.fileExists(atPath: interrupted + "-journal"))

        // And an upsert and an editor start from the rolled-back catalog.
        try HotJournal.copyInterrupted(fixture.databasePath.replacingOccurrences(of: "interrupted", with: "catalog"), to: interrupted)
        fixture.options.mode = .upsert
        try fixture.importCSV("productId,title\nB1,New\n")
        #expect(try fixture.allProducts().map(\.title) == ["One", "Two", "Three", "Four", "Five", "New"])
        try HotJournal.copyInterrupted(fixture.directory.file("catalog.sqlite"), to: interrupted)
        let editor = try CatalogEditor(databasePath: interrupted)
        try editor.delete(productId: "A1")
        #expect(try fixture.allProducts().map(\.title) == ["Two", "Three", "Four", "Five"])
    }

    /// `rm catalog.sqlite` after a program that wrote it was killed leaves its log beside the path,
    /// with committed pages no checkpoint folded in; a new catalog imported at the path, or created
    /// there by a first edit, must not take them (they made a ten-million catalog's schema unreadable in a benchmark).
    @Test(arguments: ["-wal", "-journal"], [false, true])
    func aLogLeftBesideADeletedCatalogIsNotReplayedIntoTheNextCatalog(leftover: String, byEditor: Bool) throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.fiveProducts)
        let path = fixture.databasePath
        let saved = fixture.directory.file("saved" + leftover)
        if leftover == "-wal" {
            // A writer commits into the log; the log is kept as it is before that writer's close folds it in.
            let writer = try Connection(path: path, mode: .readWrite)
            try writer.execute("""
                PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;
                UPDATE products SET title = 'FROM THE OLD LOG';
                CREATE TABLE old_catalogs_table (x);
                """)
            try FileManager.default.copyItem(atPath: path + "-wal", toPath: saved)
        } else {
            try HotJournal.copyInterrupted(path, to: fixture.directory.file("interrupted.sqlite"))
            try FileManager.default.copyItem(atPath: fixture.directory.file("interrupted.sqlite") + "-journal", toPath: saved)
        }
        try FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: saved, toPath: path + leftover)

        if byEditor {
            try CatalogEditor.createCatalogIfMissing(at: path)
            _ = try CatalogEditor(databasePath: path).add(Product(productId: "B1", title: "New one"))
            _ = try CatalogEditor(databasePath: path).add(Product(productId: "B2", title: "New two"))
        } else {
            try fixture.importCSV("productId,title\nB1,New one\nB2,New two\n")
        }
        let reader = try Connection(path: path, mode: .readOnly)
        #expect(try reader.scalarText("PRAGMA integrity_check") == "ok")
        #expect(try reader.scalarInt("SELECT count(*) FROM sqlite_master WHERE name = 'old_catalogs_table'") == 0)
        #expect(try fixture.allProducts().map(\.title) == ["New one", "New two"])
    }

    // MARK: - Edits and imports

    @Test func anEditWhileAnImportRunsIsRefusedNotLost() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.fiveProducts)
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        do {
            let lock = try ImportLock(importInto: fixture.databasePath)
            #expect {
                try editor.add(Product(productId: "HAND-1", title: "By hand"))
            } throws: { error in
                if case EditError.importRunning = error { return true }
                return false
            }
            withExtendedLifetime(lock) {}
        }
        try editor.add(Product(productId: "HAND-1", title: "By hand"))
        #expect(try ids(fixture).contains("HAND-1"))
    }

    @Test func aReplacingImportCountsTheHandEditsItDiscards() throws {
        var fixture = try CatalogFixture()
        try fixture.importCSV(Self.fiveProducts)
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        try editor.add(Product(productId: "HAND-1", title: "By hand"))
        try editor.replace(productId: "A2", with: Product(productId: "A2", title: "Edited"))
        try editor.delete(productId: "A3")
        #expect(try editor.handEditsSinceImport() == 3)

        fixture.options.mode = .upsert
        #expect(try fixture.importCSV("productId,title\nB1,New\n").editsReplaced == 0)
        fixture.options.mode = .replace
        #expect(try fixture.importCSV(Self.fiveProducts).editsReplaced == 3)
        #expect(try fixture.importCSV(Self.fiveProducts).editsReplaced == 0)
        #expect(try CatalogEditor(databasePath: fixture.databasePath).handEditsSinceImport() == 0)
    }

    // MARK: - Headers

    @Test func aHeaderWithTooManyColumnsIsAShortOneLineError() throws {
        let fixture = try CatalogFixture()
        let header = "productId," + (1...2500).map { "c\($0)" }.joined(separator: ",")
        #expect {
            try fixture.importCSV(header + "\n")
        } throws: { error in
            let text = String(describing: error)
            return text.contains("2501 columns") && text.count < 300 && !text.contains("CREATE")
        }
    }

    @Test func aHeaderNameWithANulByteIsAOneLineError() throws {
        let fixture = try CatalogFixture()
        #expect {
            try fixture.importCSV("productId,ti\u{0}tle\nA1,One\n")
        } throws: { error in
            let text = String(describing: error)
            return text.contains("header column 2") && !text.contains("SQLite")
        }
    }
}

/// What a failed import leaves of its rejects file: the file when its rows are the reason, nothing otherwise.
@Suite struct FailedImportRejectsTests {
    @Test func anImportThatFailsForAnotherReasonRemovesTheRejectsItWrote() throws {
        var fixture = try CatalogFixture()
        try fixture.importCSV("productId,title,listPrice\nA1,One,1\n")
        fixture.options.onDuplicate = .fail
        // Line 2 is rejected (its price), then line 4 repeats line 3's productId: the import stops.
        #expect(throws: ImportError.self) {
            try fixture.importCSV("productId,title,listPrice\nB1,Bad,abc\nB2,Two,2\nb2,Again,3\n")
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.databasePath + ".rejects.csv"))
        #expect(try fixture.allProducts().map(\.productId) == ["A1"])
    }

    @Test func anImportStoppedByItsRejectsKeepsThemToExplainWhy() throws {
        var fixture = try CatalogFixture()
        fixture.options.maxErrors = 1
        #expect {
            try fixture.importCSV("productId,title,listPrice\nB1,Bad,abc\nB2,Worse,xyz\nB3,Fine,3\n")
        } throws: { error in
            if case ImportError.tooManyRejects = error { return true }
            return false
        }
        #expect(try fixture.rejects().count == 3)
    }
}
