/// A format with one product per row, each field straight from one column: the layout only
/// says which column, by the platform's own names.
struct ColumnMapLayout: FeedLayout {
    let outputHeader: [String]
    let foldedRecords = 0
    private let columns: [ProductField: Int]
    private let extras: [Int]

    /// Picks each field's column from `header` with `pick`; the columns it takes are not extras.
    init(header: [String], pick: (inout FeedColumns) -> [ProductField: Int?]) {
        var feed = FeedColumns(header: header)
        columns = pick(&feed).compactMapValues { $0 }
        extras = feed.extras
        outputHeader = feed.outputHeader(extras: extras)
    }

    mutating func take(_ fields: [String], line: Int, emit: (FeedRow) throws -> Void) throws {
        var row = FeedRow(line: line, extras: extras.map { fields[$0] })
        for (field, column) in columns { row[field] = fields[column: column] }
        try emit(row)
    }

    mutating func finish(emit: (FeedRow) throws -> Void) throws {}
}
