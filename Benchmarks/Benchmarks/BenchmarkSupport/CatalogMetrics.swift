import Benchmark

/// The metrics and regression thresholds every ProductCatalog benchmark uses.
///
/// Thresholds apply when results are compared: with a saved baseline
/// (`swift package benchmark baseline check main`) or with committed p90 values
/// (`swift package benchmark thresholds check`). A value past a threshold in the worse direction
/// is reported as a regression and the command exits with a non-zero status.
public enum CatalogMetrics {
    /// Parsing speed: bytes of input per second of wall-clock time.
    public static let bytesPerSecond = BenchmarkMetric.custom("bytes/s", polarity: .prefersLarger, useScalingFactor: false)
    /// Import speed: data rows per second of wall-clock time.
    public static let rowsPerSecond = BenchmarkMetric.custom("rows/s", polarity: .prefersLarger, useScalingFactor: false)

    /// Wall clock, throughput, peak resident memory and mallocs, plus `custom` metrics.
    public static func metrics(_ custom: BenchmarkMetric...) -> [BenchmarkMetric] {
        [.wallClock, .throughput, .peakMemoryResident, .mallocCountTotal] + custom
    }

    /// Tolerances chosen for a shared 2-core machine, where timings of the same binary vary by a
    /// few percent from run to run:
    ///
    /// - time and speed (wall clock, throughput, `custom`): 10% at the median, 20% at p75;
    /// - peak resident memory: 8 MiB at p90, so a buffer that grows with the input shows up
    ///   while the sampling noise of a few pages does not;
    /// - mallocs: `mallocs`, since their count is exact for the same code and input.
    public static func thresholds(
        mallocs: BenchmarkThresholds,
        custom: [BenchmarkMetric] = []
    ) -> [BenchmarkMetric: BenchmarkThresholds] {
        let timing = BenchmarkThresholds(relative: [.p50: 10, .p75: 20])
        var thresholds: [BenchmarkMetric: BenchmarkThresholds] = [
            .wallClock: timing,
            .throughput: timing,
            .peakMemoryResident: BenchmarkThresholds(absolute: [.p90: 8 << 20]),
            .mallocCountTotal: mallocs,
        ]
        for metric in custom { thresholds[metric] = timing }
        return thresholds
    }

    /// Allows `count` more mallocs per iteration than the baseline at the median and at p90: for
    /// code that should allocate a fixed, small number of times however large its input.
    public static func atMost(_ count: Int) -> BenchmarkThresholds {
        BenchmarkThresholds(absolute: [.p50: count, .p90: count])
    }

    /// Allows `percent` more mallocs per iteration than the baseline at the median.
    public static func relative(_ percent: Double) -> BenchmarkThresholds {
        BenchmarkThresholds(relative: [.p50: percent])
    }
}
