/// Shopify product exports, the classic layout and the newer one (`URL handle`, `Compare-at price`).
///
/// Rows sharing a `Handle` are one product: the first row holds the product's title, body,
/// vendor, type and tags; each row with an option value or a price is a variant, whose blank
/// product fields are filled down from the first; rows with only an image are folded into the
/// product (their URLs join its `images`). A variant's key is the handle joined with its option
/// values (`classic-tee/Red/M`), or the handle alone for a product without options, since SKUs
/// are often empty or shared. `Variant Compare At Price` above `Variant Price` makes the
/// former the list price and the latter the sale price.
struct ShopifyLayout: FeedLayout {
    let outputHeader: [String]
    private(set) var foldedRecords = 0
    private let extras: [Int]
    private let handle, title, body, vendor, type, category, tags: Int?
    private let sku, price, compareAt, quantity, image, variantImage: Int?
    private let options: [(name: Int?, value: Int?)]
    /// The records of the family being read: (line, fields).
    private var family: [(line: Int, fields: [String])] = []

    init(header: [String]) {
        var feed = FeedColumns(header: header)
        handle = feed.take("Handle", "URL handle")
        title = feed.take("Title")
        body = feed.take("Body (HTML)", "Description")
        vendor = feed.take("Vendor")
        type = feed.take("Type")
        category = feed.take("Product Category")
        tags = feed.index("Tags")
        sku = feed.take("Variant SKU", "SKU")
        price = feed.take("Variant Price", "Price")
        compareAt = feed.take("Variant Compare At Price", "Compare-at price")
        quantity = feed.take("Variant Inventory Qty", "Inventory quantity")
        image = feed.take("Image Src", "Product image URL")
        variantImage = feed.take("Variant Image", "Variant image URL")
        options = (1...3).map { (feed.take("Option\($0) Name"), feed.take("Option\($0) Value")) }
        extras = feed.extras
        outputHeader = feed.outputHeader(extras: extras) + ["images"]
    }

    /// A variant's productId: its handle joined with its option values (`classic-tee/Red/M`), the
    /// handle alone for a product without options. Shopify's inventory export is read by the same key.
    static func variantKey(handle: String, optionValues: [String]) -> String {
        let chosen = optionValues.filter { !$0.isEmpty && $0 != "Default Title" }
        return chosen.isEmpty ? handle : ([handle] + chosen).joined(separator: "/")
    }

    mutating func take(_ fields: [String], line: Int, emit: (FeedRow) throws -> Void) throws {
        if let first = family.first, first.fields[column: handle] != fields[column: handle] {
            try finish(emit: emit)
        }
        family.append((line, fields))
    }

    mutating func finish(emit: (FeedRow) throws -> Void) throws {
        defer { family.removeAll(keepingCapacity: true) }
        guard let first = family.first?.fields else { return }
        let key = first[column: handle]
        let images = family.map { $0.fields[column: image] }.filter { !$0.isEmpty }
        let optionNames = options.map { first[column: $0.name] }
        for (line, fields) in family {
            let values = options.map { fields[column: $0.value] }
            let isVariant = !fields[column: price].isEmpty || !fields[column: sku].isEmpty || values.contains { !$0.isEmpty }
            guard isVariant else {
                foldedRecords += 1
                continue
            }
            var row = FeedRow(line: line, extras: extras.map { fields[$0] } + [images.joined(separator: " ")])
            func filled(_ column: Int?) -> String {
                let own = fields[column: column]
                return own.isEmpty ? first[column: column] : own
            }
            row[.productId] = Self.variantKey(handle: key, optionValues: values)
            row[.groupId] = key
            row[.title] = filled(title)
            row[.description] = filled(body)
            row[.brand] = filled(vendor)
            row[.productType] = filled(type).isEmpty ? filled(category) : filled(type)
            if let tags, let slot = extras.firstIndex(of: tags) { row.extras[slot] = filled(tags) }
            let (list, sale) = FeedValues.listAndSale(price: fields[column: price], compareAt: fields[column: compareAt])
            row[.listPrice] = list
            row[.salesPrice] = sale
            row[.quantity] = fields[column: quantity]
            row[.imageURL] = fields[column: variantImage].isEmpty ? (images.first ?? "") : fields[column: variantImage]
            let named = zip(optionNames, values).map { (name: $0, value: $1) }
            row.setOptions(named)
            try emit(row)
        }
    }
}
