/// The whole catalog's facet counts (``FacetIndex``), tallied by a replacing import as it writes
/// its rows, so that the table is filled without reading the products again at the end.
///
/// Values are grouped as the table groups them (ASCII case folded, a missing value under the
/// empty key) and spelled as the first row spells them: rows come in productId order, so that
/// is the spelling of the lowest productId, as the table's own fill chooses. A catalog with more
/// distinct values than it keeps (``maxValues`` by default) stops tallying, and its table is
/// filled from the products.
struct FacetTotals {
    /// The most distinct values kept in memory, over all counted fields.
    static let maxValues = 100_000

    private struct Count {
        var value: [UInt8]
        var products: Int
    }

    /// The most distinct values this tally keeps.
    private let valuesKept: Int
    /// Where each counted field is among a batch's values (nil for a column the file lacks).
    private let columns: [Int?]
    private var counts: [[[UInt8]: Count]]
    private var values = 0
    private var key: [UInt8] = []
    /// False once there were too many values to keep.
    private(set) var isComplete = true

    /// A tally of rows that fill `insertColumns`, keeping at most `valuesKept` distinct values.
    init(insertColumns: [String], valuesKept: Int = maxValues) {
        self.valuesKept = valuesKept
        columns = FacetIndex.fields.map { insertColumns.firstIndex(of: $0.columnName) }
        counts = Array(repeating: [:], count: FacetIndex.fields.count)
    }

    /// Counts the values of every row of `rows`.
    mutating func add(_ rows: CheckedRows) {
        guard isComplete else { return }
        var texts: [UnsafeRawBufferPointer?] = Array(repeating: nil, count: columns.count)
        for index in 0..<rows.count {
            rows.texts(inRow: index, columns: columns, into: &texts)
            // A missing value counts under the empty key.
            for (slot, text) in texts.enumerated() { count(text ?? UnsafeRawBufferPointer(start: nil, count: 0), in: slot) }
            if values > valuesKept {
                isComplete = false
                counts = []
                return
            }
        }
    }

    private mutating func count(_ value: UnsafeRawBufferPointer, in slot: Int) {
        key.removeAll(keepingCapacity: true)
        for byte in value { key.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) }
        if (counts[slot][key]?.products += 1) != nil { return }
        counts[slot][key] = Count(value: Array(value), products: 1)
        values += 1
    }

    /// Creates the facet table on `connection` and fills it with the counts.
    func write(into connection: Connection) throws {
        precondition(isComplete, "write only a complete tally")
        try connection.execute(FacetIndex.createTable)
        let insert = try connection.prepare("INSERT INTO \(FacetIndex.table) (field, valueKey, value, products) VALUES (?1, ?2, ?3, ?4)")
        for (slot, field) in FacetIndex.fields.enumerated() {
            for (key, count) in counts[slot] {
                try insert.using {
                    try insert.bind(1, field.rawValue)
                    try insert.bind(2, utf8: key)
                    try insert.bind(3, utf8: count.value)
                    try insert.bind(4, Int64(count.products))
                    _ = try insert.step()
                }
            }
        }
    }
}
