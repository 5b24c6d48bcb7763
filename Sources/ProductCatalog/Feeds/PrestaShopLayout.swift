/// PrestaShop product files: the import template (`Name *`, `Price tax included`, `Reference #`)
/// and the back office's export (`Product ID`, `Reference`, `Final price`).
///
/// The key is the reference, else the id. The list price is the price with tax when the file
/// has it; a discount amount or percent gives the sale price.
struct PrestaShopLayout: FeedLayout {
    let outputHeader: [String]
    let foldedRecords = 0
    private let extras: [Int]
    private let id, reference, name, price, discountAmount, discountPercent, quantity, categories, brand, description, images: Int?

    init(header: [String]) {
        var feed = FeedColumns(header: header)
        id = feed.take("ID", "Product ID")
        reference = feed.take("Reference #", "Reference")
        name = feed.take("Name")
        price = feed.take("Price tax included", "Final price", "Price tax excluded", "Base price")
        discountAmount = feed.take("Discount amount")
        discountPercent = feed.take("Discount percent")
        quantity = feed.take("Quantity")
        categories = feed.take("Categories (x,y,z...)", "Categories", "Category")
        brand = feed.take("Manufacturer", "Brand")
        description = feed.take("Description")
        images = feed.take("Image URLs (x,y,z...)", "Image")
        extras = feed.extras
        outputHeader = feed.outputHeader(extras: extras)
    }

    mutating func take(_ fields: [String], line: Int, emit: (FeedRow) throws -> Void) throws {
        var row = FeedRow(line: line, extras: extras.map { fields[$0] })
        let ownReference = fields[column: reference]
        row[.productId] = ownReference.isEmpty ? fields[column: id] : ownReference
        row[.title] = fields[column: name]
        row[.listPrice] = fields[column: price]
        if let list = FeedValues.thousandths(fields[column: price]) {
            if let amount = FeedValues.thousandths(fields[column: discountAmount]), amount > 0 {
                row[.salesPrice] = FeedValues.price(thousandths: list - amount)
            } else if let percent = FeedValues.thousandths(fields[column: discountPercent]), percent > 0 {
                row[.salesPrice] = FeedValues.price(thousandths: FeedValues.less(percent: percent, of: list))
            }
        }
        row[.quantity] = fields[column: quantity]
        row[.productType] = fields[column: categories].split(separator: ",").first.map(String.init) ?? ""
        row[.brand] = fields[column: brand]
        row[.description] = fields[column: description]
        row[.imageURL] = FeedValues.firstURL(fields[column: images])
        try emit(row)
    }

    mutating func finish(emit: (FeedRow) throws -> Void) throws {}
}
