import Foundation

// What the in-process timing tools (SortsAndFacets, StoreFilters, CollectionBrowsing) share:
// their arguments, their output, and the percentiles they print.

/// A timing tool's arguments: the catalog's path, and `--name value` options.
public struct TimingArguments {
    public let catalog: String
    private let options: [String: String]

    /// Reads `arguments` (`CommandLine.arguments`); without a catalog, prints `usage` and exits with status 2.
    public init(_ arguments: [String], usage: String) {
        var catalog = ""
        var options: [String: String] = [:]
        var rest = arguments.dropFirst()
        while let argument = rest.popFirst() {
            if argument.hasPrefix("--") {
                options[String(argument.dropFirst(2))] = rest.popFirst() ?? ""
            } else {
                catalog = argument
            }
        }
        guard !catalog.isEmpty else {
            FileHandle.standardError.write(Data("usage: \(usage)\n".utf8))
            exit(2)
        }
        self.catalog = catalog
        self.options = options
    }

    /// The whole number given as `--name`, or `value`.
    public func int(_ name: String, default value: Int) -> Int {
        options[name].flatMap { Int($0) } ?? value
    }
}

/// Writes a line at once (print buffers a pipe's output, and a run takes minutes).
public func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// A duration in milliseconds.
public func milliseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) / 1e15
}

/// The p50, p99 and worst of some timings, in milliseconds.
public struct Percentiles {
    public var p50: Double
    public var p99: Double
    public var worst: Double

    public init(_ timings: [Double]) {
        let sorted = timings.sorted()
        func percentile(_ p: Double) -> Double { sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
        (p50, p99, worst) = (percentile(0.5), percentile(0.99), sorted.last ?? .nan)
    }

    /// `p50   0.12 ms · p99   0.30 ms · worst   0.31 ms`
    public var line: String {
        String(format: "p50 %6.2f ms · p99 %6.2f ms · worst %6.2f ms", p50, p99, worst)
    }

    /// `|    0.12 |    0.30 |    0.31 |`, the cells of a Markdown table's row.
    public var cells: String {
        String(format: "| %7.2f | %7.2f | %7.2f |", p50, p99, worst)
    }
}

/// The timings of `runs` runs of `body`, in milliseconds.
public func timings(runs: Int, _ body: () throws -> Void) rethrows -> [Double] {
    let clock = ContinuousClock()
    var timings: [Double] = []
    for _ in 0..<runs { timings.append(milliseconds(try clock.measure(body))) }
    return timings
}
