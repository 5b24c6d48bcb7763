/// How long an import's rows are, in bytes of their encoded fields, counted in steps of 256
/// bytes: what a new catalog's page size is chosen from (``CatalogSchema/pageSize(for:)``).
public struct RowLengths: Sendable {
    /// The width of a step, in bytes.
    static let step = 256
    /// Rows in each step of length; the last one holds every row of 16 KiB or more.
    private var counts = [Int](repeating: 0, count: 65)
    /// Rows counted.
    public private(set) var rows = 0

    public init() {}

    /// Counts a row of `length` bytes.
    @inline(__always)
    mutating func add(_ length: Int) {
        counts[min(length / Self.step, counts.count - 1)] += 1
        rows += 1
    }

    /// Rows that may be longer than `length` bytes: every row of a step that reaches past it.
    public func rows(longerThan length: Int) -> Int {
        counts[min(max(0, length + 1) / Self.step, counts.count - 1)...].reduce(0, +)
    }
}
