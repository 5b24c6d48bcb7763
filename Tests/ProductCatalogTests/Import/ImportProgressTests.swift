import Foundation
import Testing
@testable import ProductCatalog

@Suite struct ImportProgressTests {
    static func csv(rows: Int) -> String {
        "productId,title,listPrice\n" + (0..<rows).map { "P\($0),Title \($0),\($0 % 100).99\n" }.joined()
    }

    @Test func snapshotsAreMonotoneAndTheLastIsExact() throws {
        var fixture = try CatalogFixture()
        fixture.options.progressInterval = .zero
        var snapshots: [ImportProgress] = []
        let summary = try fixture.importCSV(Self.csv(rows: 5_000) + ",no id\n") { snapshots.append($0) }
        #expect(snapshots.count > 3)
        for (earlier, later) in zip(snapshots, snapshots.dropFirst()) {
            #expect(later.rowsRead >= earlier.rowsRead)
            #expect(later.bytesRead >= earlier.bytesRead)
            #expect(later.elapsed >= earlier.elapsed)
        }
        let last = try #require(snapshots.last)
        #expect(last == summary.progress)
        #expect(last.phase == .finished && last.rowsRead == 5_001 && last.rowsInserted == 5_000 && last.rowsRejected == 1)
        #expect(last.fractionCompleted == 1)
    }

    @Test func reportsAtTheIntervalNotPerRow() throws {
        var fixture = try CatalogFixture()
        fixture.options.progressInterval = .seconds(3600)
        var phases: [ImportProgress.Phase] = []
        try fixture.importCSV(Self.csv(rows: 5_000)) { phases.append($0.phase) }
        // Only the snapshot at the start of each phase, and the final one.
        #expect(phases == [.loading, .writing, .finishing, .finished])
    }

    @Test func rateAndTimeLeftFollowFromTheCounters() {
        let progress = ImportProgress(rowsRead: 1_000, bytesRead: 250, totalBytes: 1_000, elapsed: .seconds(2))
        #expect(progress.rowsPerSecond == 500)
        #expect(progress.fractionCompleted == 0.25)
        #expect(progress.estimatedTimeRemaining == .seconds(6))
    }

    @Test func aBackgroundJobStreamsProgressAndEndsWithTheSummary() async throws {
        let directory = try TemporaryDirectory()
        let input = try directory.write("products.csv", Self.csv(rows: 20_000))
        var options = ImportOptions(databasePath: directory.file("catalog.sqlite"))
        options.progressInterval = .zero
        let job = CatalogImporter(options: options).start(input: .file(path: input))
        var snapshots: [ImportProgress] = []
        for await snapshot in job.progress { snapshots.append(snapshot) }
        let summary = try await job.summary
        #expect(summary.rowsInserted == 20_000)
        #expect(snapshots.last == summary.progress)
        #expect(try ProductSearch(databasePath: options.databasePath).count(prefix: "p1") == 11_111)
    }

    @Test func cancellingAJobLeavesTheOldCatalog() async throws {
        let directory = try TemporaryDirectory()
        var options = ImportOptions(databasePath: directory.file("catalog.sqlite"))
        let small = try directory.write("small.csv", "sku\nOLD\n")
        _ = try await CatalogImporter(options: options).start(input: .file(path: small)).summary
        let big = try directory.write("big.csv", Self.csv(rows: 50_000))
        options.progressInterval = .zero
        let job = CatalogImporter(options: options).start(input: .file(path: big))
        job.cancel()
        await #expect {
            try await job.summary
        } throws: { error in
            guard case ImportError.cancelled = error else { return false }
            return true
        }
        let search = try ProductSearch(databasePath: options.databasePath)
        #expect(try search.count(prefix: "") == 1)
        #expect(!FileManager.default.fileExists(atPath: options.databasePath + ".importing"))
    }
}
