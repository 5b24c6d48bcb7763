import Benchmark
import BenchmarkSupport
import ProductCatalog

/// Rows in the generated file both parsers read (about 10 MB).
let parsingRows = 200_000

/// The generated file, written once per process by the setup hook, outside measurement.
nonisolated(unsafe) var inputPath = ""
nonisolated(unsafe) var inputBytes = 0
/// The field bytes ProductCatalog's reader finds in the file; CSV.swift must find the same.
nonisolated(unsafe) var expectedFieldBytes = 0

let benchmarks: @Sendable () -> Void = {
    let custom = [CatalogMetrics.bytesPerSecond]

    Benchmark.setup = {
        inputPath = try BenchmarkFiles.generatedCSV(rows: parsingRows)
        inputBytes = BenchmarkFiles.size(ofFileAt: inputPath)
        (_, expectedFieldBytes) = try parseWithProductCatalog(path: inputPath)
    }

    // ProductCatalog's CSVReader: every record of the file, each field's byte count touched.
    Benchmark(
        "CSVReader 200k rows",
        configuration: .init(
            metrics: CatalogMetrics.metrics(CatalogMetrics.bytesPerSecond),
            warmupIterations: 2,
            maxDuration: .seconds(5),
            maxIterations: 50,
            thresholds: CatalogMetrics.thresholds(mallocs: CatalogMetrics.atMost(16), custom: custom)
        )
    ) { benchmark in
        let start = ContinuousClock.now
        let (records, fieldBytes) = try parseWithProductCatalog(path: inputPath)
        let elapsed = ContinuousClock.now - start
        try check(records: records, fieldBytes: fieldBytes)
        benchmark.measurement(CatalogMetrics.bytesPerSecond, bytesPerSecond(inputBytes, elapsed))
    }

    // yaslab/CSV.swift, for comparison: the same file read row by row as [String].
    Benchmark(
        "CSV.swift 200k rows",
        configuration: .init(
            metrics: CatalogMetrics.metrics(CatalogMetrics.bytesPerSecond),
            warmupIterations: 1,
            maxDuration: .seconds(10),
            maxIterations: 10,
            thresholds: CatalogMetrics.thresholds(mallocs: CatalogMetrics.relative(5), custom: custom)
        )
    ) { benchmark in
        let start = ContinuousClock.now
        let (records, fieldBytes) = try parseWithCSVSwift(path: inputPath)
        let elapsed = ContinuousClock.now - start
        try check(records: records, fieldBytes: fieldBytes)
        benchmark.measurement(CatalogMetrics.bytesPerSecond, bytesPerSecond(inputBytes, elapsed))
    }
}

/// Reads the file at `path` with ProductCatalog's CSVReader; returns the records read and their
/// field bytes. The reader reuses one record buffer, so mallocs stay a handful per file.
@inline(never)
func parseWithProductCatalog(path: String) throws -> (records: Int, fieldBytes: Int) {
    let reader = CSVReader(source: try FileByteSource(path: path))
    var record = CSVRecord()
    var records = 0
    var fieldBytes = 0
    while try reader.readRecord(into: &record) {
        records += 1
        record.withFields { fields in
            for index in 0..<fields.count { fieldBytes &+= fields[index].count }
        }
    }
    return (records, fieldBytes)
}

/// Stops a benchmark whose parser did not see the header and every generated row, or saw
/// different field contents.
func check(records: Int, fieldBytes: Int) throws {
    guard records == parsingRows + 1 else {
        throw BenchmarkSetupError("read \(records) records, expected \(parsingRows + 1)")
    }
    guard fieldBytes == expectedFieldBytes else {
        throw BenchmarkSetupError("read \(fieldBytes) bytes of fields, expected \(expectedFieldBytes)")
    }
}

func bytesPerSecond(_ bytes: Int, _ elapsed: Duration) -> Int {
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    return seconds > 0 ? Int(Double(bytes) / seconds) : 0
}
