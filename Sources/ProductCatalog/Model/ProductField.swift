/// A column the catalog understands, with the header names that map to it.
public enum ProductField: String, CaseIterable, Sendable, Codable {
    case productId, title, listPrice, salesPrice, color, size, productType, taxRate, imageURL
    case groupId, currency, quantity, brand, description, options

    /// Header names that mean this field, compared after ``HeaderName/normalize(_:)``.
    public var aliases: [String] {
        switch self {
        case .productId: ["productid", "id", "sku"]
        case .title: ["title", "name", "productname"]
        case .listPrice: ["listprice", "price", "regularprice"]
        case .salesPrice: ["salesprice", "saleprice", "specialprice"]
        case .color: ["color", "colour"]
        case .size: ["size"]
        case .productType: ["producttype", "type", "category"]
        case .taxRate: ["taxrate", "tax"]
        case .imageURL: ["imageurl", "image", "imagelink"]
        case .groupId: ["groupid", "itemgroupid", "parentid"]
        case .currency: ["currency", "currencycode"]
        case .quantity: ["quantity", "qty", "stock", "inventory", "stockquantity"]
        case .brand: ["brand", "vendor", "manufacturer"]
        case .description: ["description", "bodyhtml", "body"]
        case .options: ["options", "variantoptions"]
        }
    }

    /// What a person calls it, as a form or a column header labels it.
    public var label: String {
        switch self {
        case .productId: "productId"
        case .title: "Title"
        case .listPrice: "List price"
        case .salesPrice: "Sale price"
        case .color: "Color"
        case .size: "Size"
        case .productType: "Type"
        case .taxRate: "Tax rate (%)"
        case .imageURL: "Image address"
        case .groupId: "Product family"
        case .currency: "Currency"
        case .quantity: "Stock"
        case .brand: "Brand"
        case .description: "Description"
        case .options: "Options"
        }
    }

    /// What a form says under the field: the rules its value follows (``ProductValidation``); nil
    /// when any text will do.
    public var hint: String? {
        switch self {
        case .productId: "Required, at most \(ProductRules.maxProductIdBytes) characters (fewer with accents)."
        case .title: "Required."
        case .listPrice: "For example 19.99"
        case .salesPrice: "Not above the list price."
        case .productType: "Pick one the catalog uses, or type a new one."
        case .taxRate: "From 0 to 100."
        case .imageURL: "http:// or https://, or choose a picture below."
        case .groupId: "Variants of one product share it."
        case .options: "A variant's options by name, such as Length: 14 Inches; Color: beige"
        case .currency: "A code such as USD or EUR."
        case .quantity: "A whole number; empty when unknown."
        case .color, .size, .brand, .description: nil
        }
    }

    /// The kind of value the field holds, which a form's keyboard follows.
    public enum ValueKind: String, Sendable {
        /// Any text.
        case text
        /// A number that may have decimals: prices, the tax rate.
        case decimal
        /// A whole number: the quantity.
        case wholeNumber
    }

    /// The kind of value the field holds.
    public var valueKind: ValueKind {
        isPrice || self == .taxRate ? .decimal : self == .quantity ? .wholeNumber : .text
    }

    /// True for prices, stored as exact integer thousandths.
    public var isPrice: Bool { self == .listPrice || self == .salesPrice }
    /// True for fields stored as SQLite INTEGER: the prices (in thousandths) and the quantity.
    public var isInteger: Bool { isPrice || self == .quantity }

    /// The column that holds this field in the `products` table.
    public var columnName: String {
        switch self {
        case .listPrice: "listPriceMilli"
        case .salesPrice: "salesPriceMilli"
        default: rawValue
        }
    }

    /// The price columns of catalogs made before prices were kept in thousandths (layout version 1),
    /// which held cents; ``CatalogSchema/upgrade(_:)`` renames them and scales their values.
    static let centsColumns: [String: ProductField] = ["listPriceCents": .listPrice, "salesPriceCents": .salesPrice]

    /// The known field stored in the column `name` of a table with `columns`, and whether it holds
    /// cents (layout version 1); nil for an extra column. A cents column is only a price while the
    /// table has no thousandths column for it: after the upgrade that name is free for an extra.
    static func stored(inColumn name: String, among columns: [String]) -> (field: ProductField, inCents: Bool)? {
        let key = name.lowercased()
        if let field = allCases.first(where: { $0.columnName.lowercased() == key }) { return (field, false) }
        guard let field = centsColumns.first(where: { $0.key.lowercased() == key })?.value,
              !columns.contains(where: { $0.lowercased() == field.columnName.lowercased() }) else { return nil }
        return (field, true)
    }

    /// `name TYPE` in the `products` table.
    var columnDefinition: String {
        "\(columnName) \(isInteger ? "INTEGER" : "TEXT")"
    }

    /// The field named `name` (its own name or an alias, in any case or spelling).
    public init?(named name: String) {
        let key = HeaderName.normalize(name)
        guard let field = Self.allCases.first(where: { HeaderName.normalize($0.rawValue) == key || $0.aliases.contains(key) })
        else { return nil }
        self = field
    }
}

/// Header-name comparison that ignores case, spaces, `_` and `-`.
public enum HeaderName {
    /// The header name as a person reads it: byte-order marks (wherever an export left them),
    /// surrounding spaces and tabs removed.
    public static func clean(_ header: String) -> String {
        ProductRules.trimmed(String(String.UnicodeScalarView(header.unicodeScalars.filter { $0 != "\u{FEFF}" })))
    }

    /// `"Product_ID "` → `"productid"`; also drops a required-field mark and an editor's note,
    /// as in PrestaShop's `Name *` and Squarespace's `Product ID [Non Editable]`.
    public static func normalize(_ header: String) -> String {
        var header = Substring(clean(header))
        if let bracket = header.firstIndex(of: "["), header.hasSuffix("]"), bracket != header.startIndex { header = header[..<bracket] }
        while header.hasSuffix("*") || header.hasSuffix(" ") { header = header.dropLast() }
        return String(String.UnicodeScalarView(header.unicodeScalars.compactMap { scalar -> Unicode.Scalar? in
            switch scalar {
            case " ", "_", "-", "\t": return nil
            case "A"..."Z": return Unicode.Scalar(scalar.value + 32)
            default: return scalar
            }
        }))
    }
}
