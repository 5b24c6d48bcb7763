/// Squarespace product exports: a product's first row, then one row per further variant.
///
/// Variant rows leave the product's fields (title, description, categories, tags, images)
/// blank; they are filled down from the product's first row. The key is the `Variant ID`, else
/// the `SKU`, else the `Product ID`; the `Product ID` is the `groupId`. `Sale Price` is the sale
/// price when `On Sale` says yes; a `Stock` of `Unlimited` is no number.
struct SquarespaceLayout: FeedLayout {
    let outputHeader: [String]
    let foldedRecords = 0
    private let extras: [Int]
    private let productId, variantId, title, description, sku, price, salePrice, onSale, stock, categories, images: Int?
    private let options: [(name: Int?, value: Int?)]
    /// The first row of the product being read.
    private var first: [String]?

    init(header: [String]) {
        var feed = FeedColumns(header: header)
        productId = feed.take("Product ID")
        variantId = feed.take("Variant ID")
        title = feed.take("Title")
        description = feed.take("Description")
        sku = feed.index("SKU")
        price = feed.take("Price")
        salePrice = feed.take("Sale Price")
        onSale = feed.index("On Sale")
        stock = feed.take("Stock")
        categories = feed.take("Categories")
        images = feed.take("Hosted Image URLs")
        options = (1...6).map { (feed.index("Option Name \($0)"), feed.index("Option Value \($0)")) }
        extras = feed.extras
        outputHeader = feed.outputHeader(extras: extras)
    }

    mutating func take(_ fields: [String], line: Int, emit: (FeedRow) throws -> Void) throws {
        let ownProduct = fields[column: productId]
        if first == nil || (!ownProduct.isEmpty && ownProduct != first?[column: productId]) || !fields[column: title].isEmpty {
            first = fields
        }
        let product = first ?? fields
        func filled(_ column: Int?) -> String {
            let own = fields[column: column]
            return own.isEmpty ? product[column: column] : own
        }
        var row = FeedRow(line: line, extras: extras.map { fields[$0] })
        let variant = fields[column: variantId], ownSKU = fields[column: sku]
        row[.productId] = !variant.isEmpty ? variant : !ownSKU.isEmpty ? ownSKU : product[column: productId]
        row[.groupId] = product[column: productId]
        row[.title] = filled(title)
        row[.description] = filled(description)
        row[.productType] = filled(categories).split(separator: ",").first.map { ProductRules.trimmed(String($0)) } ?? ""
        row[.imageURL] = FeedValues.firstURL(filled(images))
        row[.listPrice] = fields[column: price]
        if ["yes", "true", "1"].contains(fields[column: onSale].lowercased()) { row[.salesPrice] = fields[column: salePrice] }
        row[.quantity] = fields[column: stock]
        let named = options.map { (name: filled($0.name), value: fields[column: $0.value]) }
        row.setOptions(named)
        try emit(row)
    }

    mutating func finish(emit: (FeedRow) throws -> Void) throws {}
}
