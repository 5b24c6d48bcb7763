import Benchmark
import BenchmarkSupport
import ProductCatalog

/// Rows in the generated file each iteration imports (about 5 MB).
let importRows = 100_000

/// The generated file, written once per process by the setup hook, outside measurement.
nonisolated(unsafe) var inputPath = ""
/// What the progress closure last saw, so that the compiler cannot drop the reporting.
nonisolated(unsafe) var lastProgress: ImportProgress?

let benchmarks: @Sendable () -> Void = {
    let custom = [CatalogMetrics.rowsPerSecond]
    let configuration = Benchmark.Configuration(
        metrics: CatalogMetrics.metrics(CatalogMetrics.rowsPerSecond),
        warmupIterations: 1,
        maxDuration: .seconds(10),
        maxIterations: 20,
        thresholds: CatalogMetrics.thresholds(mallocs: CatalogMetrics.relative(5), custom: custom)
    )

    Benchmark.setup = {
        inputPath = try BenchmarkFiles.generatedCSV(rows: importRows)
    }

    // The library's default: a progress snapshot about every 100 ms, here kept by the closure.
    Benchmark("CatalogImporter.run 100k rows, progress every 100 ms", configuration: configuration) { benchmark in
        try importOnce(benchmark, options: ImportOptions()) { lastProgress = $0 }
    }

    // For comparison: a progress closure that does nothing, called about once an hour, i.e.
    // only at the start and the end. The difference is the cost of reporting progress.
    Benchmark("CatalogImporter.run 100k rows, no-op progress", configuration: configuration) { benchmark in
        try importOnce(benchmark, options: ImportOptions(progressInterval: .seconds(3_600))) { _ in }
    }

    // What `catalog import` does: the import on a background thread, progress through the
    // job's AsyncStream, consumed here as the command line's display would.
    Benchmark("CatalogImporter.start 100k rows, progress stream", configuration: configuration) { benchmark in
        let path = BenchmarkFiles.freshDatabasePath("import-job")
        defer { BenchmarkFiles.removeDatabase(at: path) }
        let start = ContinuousClock.now
        let job = CatalogImporter(options: ImportOptions(databasePath: path)).start(input: .file(path: inputPath))
        for await snapshot in job.progress { lastProgress = snapshot }
        let summary = try await job.summary
        let elapsed = ContinuousClock.now - start
        benchmark.stopMeasurement()
        try check(summary)
        benchmark.measurement(CatalogMetrics.rowsPerSecond, rowsPerSecond(summary.rowsInserted, elapsed))
    }
}

/// Imports the generated file into a fresh catalog with `options`; the database is removed
/// afterwards, outside measurement.
func importOnce(_ benchmark: Benchmark, options: ImportOptions, progress: (ImportProgress) -> Void) throws {
    var options = options
    options.databasePath = BenchmarkFiles.freshDatabasePath("import")
    defer { BenchmarkFiles.removeDatabase(at: options.databasePath) }
    let start = ContinuousClock.now
    let summary = try CatalogImporter(options: options).run(source: try FileByteSource(path: inputPath), progress: progress)
    let elapsed = ContinuousClock.now - start
    benchmark.stopMeasurement()
    try check(summary)
    benchmark.measurement(CatalogMetrics.rowsPerSecond, rowsPerSecond(summary.rowsInserted, elapsed))
}

/// Stops a benchmark whose import did not store every generated row.
func check(_ summary: ImportSummary) throws {
    guard summary.rowsInserted == importRows, summary.rowsRejected == 0 else {
        throw BenchmarkSetupError(
            "imported \(summary.rowsInserted) rows and rejected \(summary.rowsRejected), expected \(importRows) and 0")
    }
}

func rowsPerSecond(_ rows: Int, _ elapsed: Duration) -> Int {
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    return seconds > 0 ? Int(Double(rows) / seconds) : 0
}
