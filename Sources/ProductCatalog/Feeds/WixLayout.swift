/// Wix Stores exports: a `Product` row, then its `Variant` rows, sharing a `handleId`.
///
/// A product with variants is the family of its variant rows (folded into them); one without
/// variants is a row itself. Prices live on the product row: a variant costs the product's
/// `price` plus its `surcharge`, and the product's discount (`PERCENT` or `AMOUNT`) gives the
/// sale price. A variant's key is its `sku`, or the handle joined with its option values. Color
/// options are written `#CC9BD0:Lilac`; the name after the colon is the color.
struct WixLayout: FeedLayout {
    let outputHeader: [String]
    private(set) var foldedRecords = 0
    private let extras: [Int]
    private let handle, fieldType, name, description, image, collection, sku, price, surcharge, discountMode, discountValue, inventory, brand: Int?
    private let options: [(name: Int?, value: Int?)]
    private var family: [(line: Int, fields: [String])] = []

    init(header: [String]) {
        var feed = FeedColumns(header: header)
        handle = feed.take("handleId")
        fieldType = feed.index("fieldType")
        name = feed.take("name")
        description = feed.take("description")
        image = feed.take("productImageUrl")
        collection = feed.take("collection")
        sku = feed.index("sku")
        price = feed.take("price")
        surcharge = feed.index("surcharge")
        discountMode = feed.index("discountMode")
        discountValue = feed.index("discountValue")
        inventory = feed.take("inventory")
        brand = feed.take("brand")
        options = (1...6).map { (feed.index("productOptionName\($0)"), feed.index("productOptionDescription\($0)")) }
        extras = feed.extras
        outputHeader = feed.outputHeader(extras: extras)
    }

    mutating func take(_ fields: [String], line: Int, emit: (FeedRow) throws -> Void) throws {
        if let first = family.first, first.fields[column: handle] != fields[column: handle] || fields[column: fieldType] == "Product" {
            try finish(emit: emit)
        }
        family.append((line, fields))
    }

    mutating func finish(emit: (FeedRow) throws -> Void) throws {
        defer { family.removeAll(keepingCapacity: true) }
        guard let product = family.first?.fields else { return }
        let variants = family.dropFirst().filter { $0.fields[column: fieldType] != "Product" }
        let key = product[column: handle]
        let optionNames = options.map { product[column: $0.name] }
        if !variants.isEmpty { foldedRecords += 1 }
        for (line, fields) in variants.isEmpty ? Array(family.prefix(1)) : Array(variants) {
            var row = FeedRow(line: line, extras: extras.map { fields[$0] })
            let chosen = options.map { Self.displayValue(fields[column: $0.value]) }
            let ownSKU = fields[column: sku]
            if variants.isEmpty {
                row[.productId] = ownSKU.isEmpty || ownSKU == "0" ? key : ownSKU
            } else {
                row[.productId] = ownSKU.isEmpty || ownSKU == "0" ? ([key] + chosen.filter { !$0.isEmpty }).joined(separator: "/") : ownSKU
                row.setOptions(zip(optionNames, chosen).map { (name: $0, value: $1) })
            }
            row[.groupId] = key
            row[.title] = product[column: name]
            row[.description] = product[column: description]
            row[.brand] = product[column: brand]
            row[.productType] = product[column: collection].split(separator: ";").first.map(String.init) ?? ""
            row[.imageURL] = Self.mediaURL(FeedValues.firstURL(product[column: image]))
            row[.quantity] = fields[column: inventory]
            let base = (FeedValues.thousandths(product[column: price]) ?? 0) + (FeedValues.thousandths(fields[column: surcharge]) ?? 0)
            let hasPrice = !product[column: price].isEmpty
            row[.listPrice] = hasPrice ? FeedValues.price(thousandths: base) : ""
            if hasPrice, let discount = Self.discounted(base, mode: product[column: discountMode], value: product[column: discountValue]) {
                row[.salesPrice] = FeedValues.price(thousandths: discount)
            }
            try emit(row)
        }
    }

    /// `Lilac` of `#CC9BD0:Lilac` or `rgb(255, 192, 203):pink`; other values as they are.
    private static func displayValue(_ value: String) -> String {
        guard let colon = value.lastIndex(of: ":") else { return value }
        return String(value[value.index(after: colon)...])
    }

    /// A Wix media name as the address Wix serves it from; a full URL as it is.
    private static func mediaURL(_ name: String) -> String {
        name.isEmpty || name.hasPrefix("http") ? name : "https://static.wixstatic.com/media/" + name
    }

    /// The price after the product's discount, nil when there is none.
    private static func discounted(_ base: Int64, mode: String, value: String) -> Int64? {
        guard let amount = FeedValues.thousandths(value), amount > 0 else { return nil }
        switch mode.uppercased() {
        case "PERCENT": return FeedValues.less(percent: amount, of: base)
        case "AMOUNT": return base - amount
        default: return nil
        }
    }
}
