/// Akeneo PIM product exports: `sku`, localized and scoped values (`name-en_US`,
/// `description-en_US-ecommerce`) and one price column per currency (`price-EUR`).
///
/// The key is the `sku`, the product model in `parent` is the `groupId`, the first `name-…`
/// and `description-…` columns give the title and description, and the first `price-XXX`
/// column with a value gives the list price in currency XXX.
struct AkeneoLayout: FeedLayout {
    let outputHeader: [String]
    let foldedRecords = 0
    private let extras: [Int]
    private let sku, parent, name, description, color, size, brand, categories: Int?
    private let prices: [(column: Int, currency: String)]

    init(header: [String]) {
        var feed = FeedColumns(header: header)
        sku = feed.take("sku")
        parent = feed.take("parent")
        name = feed.take("name") ?? feed.take(prefix: "name-")
        description = feed.take("description") ?? feed.take(prefix: "description-")
        color = feed.take("color")
        size = feed.take("size")
        brand = feed.take("brand")
        categories = feed.take("categories")
        var prices: [(Int, String)] = []
        for (index, column) in header.enumerated() where column.lowercased().hasPrefix("price-") {
            let code = String(column.dropFirst(6).prefix(3)).uppercased()
            if Currency.isCode(code) {
                _ = feed.take(column)
                prices.append((index, code))
            }
        }
        if let plain = feed.take("price") { prices.append((plain, "")) }
        self.prices = prices
        extras = feed.extras
        outputHeader = feed.outputHeader(extras: extras)
    }

    mutating func take(_ fields: [String], line: Int, emit: (FeedRow) throws -> Void) throws {
        var row = FeedRow(line: line, extras: extras.map { fields[$0] })
        row[.productId] = fields[column: sku]
        row[.groupId] = fields[column: parent]
        row[.title] = fields[column: name]
        row[.description] = fields[column: description]
        row[.color] = fields[column: color]
        row[.size] = fields[column: size]
        row[.brand] = fields[column: brand]
        row[.productType] = fields[column: categories].split(separator: ",").first.map(String.init) ?? ""
        if let price = prices.first(where: { !fields[column: $0.column].isEmpty }) {
            row[.listPrice] = fields[column: price.column]
            row[.currency] = price.currency
        }
        try emit(row)
    }

    mutating func finish(emit: (FeedRow) throws -> Void) throws {}
}
