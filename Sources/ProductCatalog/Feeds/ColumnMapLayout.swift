/// A format with one product per row, each field straight from one column: the layout only
/// says which column, by the platform's own names.
struct ColumnMapLayout: FeedLayout {
    let outputHeader: [String]
    let foldedRecords = 0
    private let columns: [ProductField: Int]
    private let extras: [Int]
    /// The columns that tell a family's variants apart, by name, read as options of a row with a groupId.
    private let options: [(name: String, column: Int)]

    /// Picks each field's column from `header` with `pick`; the columns it takes are not extras.
    /// A row with a groupId has the columns of `options` (by their names in `header`) as its options.
    init(header: [String], options: [(name: String, header: String)] = [], pick: (inout FeedColumns) -> [ProductField: Int?]) {
        var feed = FeedColumns(header: header)
        columns = pick(&feed).compactMapValues { $0 }
        self.options = options.compactMap { option in feed.index(option.header).map { (option.name, $0) } }
        extras = feed.extras
        outputHeader = feed.outputHeader(extras: extras)
    }

    mutating func take(_ fields: [String], line: Int, emit: (FeedRow) throws -> Void) throws {
        var row = FeedRow(line: line, extras: extras.map { fields[$0] })
        for (field, column) in columns { row[field] = fields[column: column] }
        if !options.isEmpty, !row[.groupId].isEmpty {
            row[.options] = ProductOptions(options.map { (name: $0.name, value: fields[$0.column]) }).text
        }
        try emit(row)
    }

    mutating func finish(emit: (FeedRow) throws -> Void) throws {}
}
