/// Google Merchant Center and Meta catalog feeds: one row per item, variants linked by `item_group_id`.
///
/// Key `id`; `price` and `sale_price` carry their currency (`12.00 USD`); Meta's stock is
/// `quantity_to_sell_on_facebook` (or `inventory`).
struct MerchantFeedLayout: FeedLayout {
    let outputHeader: [String]
    let foldedRecords = 0
    private let columns: [ProductField: Int]
    private let extras: [Int]

    init(header: [String]) {
        var feed = FeedColumns(header: header)
        var columns: [ProductField: Int] = [:]
        columns[.productId] = feed.take("id")
        columns[.title] = feed.take("title")
        columns[.description] = feed.take("description")
        columns[.listPrice] = feed.take("price")
        columns[.salesPrice] = feed.take("sale_price")
        columns[.groupId] = feed.take("item_group_id")
        columns[.color] = feed.take("color")
        columns[.size] = feed.take("size")
        columns[.productType] = feed.take("product_type", "google_product_category", "category")
        columns[.brand] = feed.take("brand")
        columns[.imageURL] = feed.take("image_link")
        columns[.quantity] = feed.take("quantity_to_sell_on_facebook", "inventory")
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
