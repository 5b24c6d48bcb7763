import Foundation
import Testing
@testable import FeedGenerator
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

    @Test func theWholeJobFractionNeverFallsAndReachesOneOnlyAtTheEnd() throws {
        var fixture = try CatalogFixture()
        fixture.options.progressInterval = .zero
        fixture.options.sortMemory = 4 << 20
        var snapshots: [ImportProgress] = []
        try fixture.importCSV(Self.csv(rows: 60_000)) { snapshots.append($0) }
        let fractions = snapshots.compactMap(\.fractionCompleted)
        #expect(fractions.count == snapshots.count, "the size is known, so every snapshot has a fraction")
        #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(fractions.dropLast().allSatisfy { $0 < 1 })
        #expect(fractions.last == 1)
        // Writing has a share of the bar of its own: the bar is not full when reading ends.
        let firstWriting = try #require(snapshots.first { $0.phase == .writing })
        #expect(try #require(firstWriting.fractionCompleted) < 0.8)
        #expect(snapshots.filter { $0.phase != .finished && $0.elapsed.seconds > 0.1 }.allSatisfy { $0.estimatedTimeRemaining != nil })
        // The rate is the phase's: rows written per second while writing.
        let writing = snapshots.filter { $0.phase == .writing && $0.rowsInserted > 0 }
        #expect(writing.allSatisfy { $0.rowsInPhase == $0.rowsInserted && $0.rowsPerSecond > 0 })
    }

    /// A step that reports nothing itself (the swap) still moves the bar: another thread reports
    /// for it, and has stopped when the step returns. The step here waits until three snapshots
    /// came, so the test waits on events, not on time.
    @Test func aSilentStepIsReportedForUntilItEnds() throws {
        let snapshots = SnapshotLog()
        var reporter = ProgressReporter(source: InMemoryByteSource(Array("id\n1\n".utf8)), interval: .milliseconds(1),
                                        progress: { snapshots.append($0) }, isCancelled: { false })
        reporter.report(.finishing)
        let answer = try reporter.reportingEachInterval(.finishing) { () -> Int in
            snapshots.waitForCount(4)
            return 42
        }
        let count = snapshots.count
        #expect(answer == 42)
        let seen = snapshots.all
        #expect(seen.count >= 4 && seen.allSatisfy { $0.phase == .finishing })
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.elapsed <= $1.elapsed })
        // Stopped: reporting again from this thread follows the ticker's last snapshot, and nothing else comes.
        reporter.report(.finishing)
        #expect(snapshots.count == count + 1)
        #expect(snapshots.all.last!.elapsed >= seen.last!.elapsed)
    }

    @Test("a writing phase that begins with a sort predicts the rest from the rate of the rows written since, not since reading ended")
    func writingRateAfterASort() {
        var estimate = ProgressEstimate.stock
        var progress = ImportProgress(phase: .loading, rowsRead: 2_000, bytesRead: 100, totalBytes: 100, elapsed: .seconds(10))
        estimate.update(&progress, rowsToWrite: nil)
        progress.phase = .writing
        progress.elapsed = .seconds(50)
        estimate.update(&progress, rowsToWrite: 2_000)
        estimate.noteFirstWrite(at: 50)
        progress.rowsInserted = 1_000
        progress.elapsed = .seconds(60)
        estimate.noteCommit(rows: 1_000, at: 60)
        estimate.update(&progress, rowsToWrite: 2_000)
        // 10 s reading, 40 s sorting, then 1,000 rows in 10 s: 1,000 more take 10 s, and the
        // whole job (with its small finishing share) about 71 s. Measured from the end of
        // reading, the rate would be 20 rows a second and the time left 52 s.
        let left = progress.estimatedTimeRemaining.map { Double($0.components.seconds) } ?? -1
        #expect((10...13).contains(left), "time left \(left) s")
        #expect(abs((progress.fractionCompleted ?? 0) - 60 / 71.4) < 0.02)
    }

    /// A real import's snapshots, phase by phase: every one has a fraction and, once writing has
    /// run a moment, a time left; reading stays below the bar's end. How close the fraction is to
    /// the share of time passed is a benchmark's question (`Benchmarks/progress.sh`): under the
    /// test run's parallel load, wall time says nothing about the import.
    @Test func aRealImportReportsAFractionAndATimeLeftInEveryPhase() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("generated.csv")
        try ProductGenerator(rows: 150_000, seed: 9).write(toPath: path)
        var options = ImportOptions(databasePath: directory.file("catalog.sqlite"))
        options.progressInterval = .milliseconds(10)
        var snapshots: [ImportProgress] = []
        try CatalogImporter(options: options).run(source: try FileByteSource(path: path)) { snapshots.append($0) }
        let writingStart = try #require(snapshots.first { $0.phase == .writing }).elapsed.seconds
        let settled = snapshots.filter { $0.phase == .writing && $0.elapsed.seconds > writingStart + 0.1 }
        #expect(!settled.isEmpty)
        #expect(settled.allSatisfy { $0.fractionCompleted != nil && $0.estimatedTimeRemaining != nil })
        #expect(Set(snapshots.map(\.phase)).isSuperset(of: [.loading, .writing, .finishing]))
        #expect(snapshots.filter { $0.phase == .loading }.allSatisfy { ($0.fractionCompleted ?? 0) < 0.99 })
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

/// Snapshots sent from any thread, and a wait for a number of them.
private final class SnapshotLog: @unchecked Sendable {
    private let condition = NSCondition()
    private var snapshots: [ImportProgress] = []

    func append(_ snapshot: ImportProgress) {
        condition.lock()
        snapshots.append(snapshot)
        condition.broadcast()
        condition.unlock()
    }

    func waitForCount(_ count: Int) {
        condition.lock()
        while snapshots.count < count { condition.wait() }
        condition.unlock()
    }

    var all: [ImportProgress] {
        condition.lock()
        defer { condition.unlock() }
        return snapshots
    }

    var count: Int { all.count }
}
