/// Etsy listing downloads: one row per listing, with no id column.
///
/// The key is the listing's `TITLE` (Etsy's download has no listing id, and `SKU` lists every
/// variant's SKU at once); `CURRENCY_CODE` is the prices' currency; `IMAGE1` the image.
struct EtsyLayout: FeedLayout {
    let outputHeader: [String]
    let foldedRecords = 0
    private let columns: [ProductField: Int]
    private let extras: [Int]

    init(header: [String]) {
        var feed = FeedColumns(header: header)
        var columns: [ProductField: Int] = [:]
        columns[.productId] = feed.index("TITLE")
        columns[.title] = feed.take("TITLE")
        columns[.description] = feed.take("DESCRIPTION")
        columns[.listPrice] = feed.take("PRICE")
        columns[.currency] = feed.take("CURRENCY_CODE")
        columns[.quantity] = feed.take("QUANTITY")
        columns[.imageURL] = feed.take("IMAGE1")
        self.columns = columns
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
