/// One product as stored in the catalog.
public struct Product: Sendable, Hashable {
    public var productId: String
    public var title: String?
    public var listPrice: Price?
    public var salesPrice: Price?
    public var color: String?
    public var size: String?
    public var productType: String?
    public var taxRate: String?
    public var imageURL: String?
    /// The product family a variant belongs to (Shopify's handle, Google's `item_group_id`).
    public var groupId: String?
    /// The ISO 4217 code of the prices, when the feed gave one.
    public var currency: String?
    /// Stock on hand; nil when unknown or unlimited.
    public var quantity: Int64?
    public var brand: String?
    public var description: String?
    /// A variant's options by name, as ``ProductOptions/text`` writes them (`Length: 14 Inches; Color: beige`).
    public var options: String?
    /// Columns beyond the known fields, in catalog order, under their header names.
    public var extras: [Extra]

    /// A value of an extra column.
    public struct Extra: Sendable, Hashable {
        public var name: String
        public var value: String?

        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    public init(
        productId: String, title: String? = nil, listPrice: Price? = nil, salesPrice: Price? = nil,
        color: String? = nil, size: String? = nil, productType: String? = nil, taxRate: String? = nil,
        imageURL: String? = nil, groupId: String? = nil, currency: String? = nil, quantity: Int64? = nil,
        brand: String? = nil, description: String? = nil, options: String? = nil, extras: [Extra] = []
    ) {
        self.productId = productId
        self.title = title
        self.listPrice = listPrice
        self.salesPrice = salesPrice
        self.color = color
        self.size = size
        self.productType = productType
        self.taxRate = taxRate
        self.imageURL = imageURL
        self.groupId = groupId
        self.currency = currency
        self.quantity = quantity
        self.brand = brand
        self.description = description
        self.options = options
        self.extras = extras
    }
}

extension Product: JSONRepresentable {
    /// The product as JSON: field names as keys in a fixed order, prices as exact decimal
    /// strings (`"12.50"`), missing values as `null`, then each extra column under its header.
    public var jsonValue: JSONValue {
        var members = ProductField.allCases.map { field -> JSONValue.Member in
            let value: JSONValue = switch self[field] {
            case nil: .null
            case .integer(let thousandths)? where field.isPrice: .string(Price(thousandths: thousandths).text(currency: currency))
            case .integer(let number)?: .int(Int(number))
            case .text(let text)?: .string(text)
            }
            return JSONValue.Member(field.rawValue, value)
        }
        members += extras.map { .init($0.name, .string($0.value)) }
        return .object(members)
    }
}

extension Product: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        self.init(productId: try container.decode(String.self, forKey: AnyCodingKey(ProductField.productId.rawValue)))
        for field in ProductField.allCases where field != .productId {
            let key = AnyCodingKey(field.rawValue)
            self[field] = if field.isPrice {
                try container.decodeIfPresent(Price.self, forKey: key).map { .integer($0.thousandths) }
            } else if field.isInteger {
                try container.decodeIfPresent(Int64.self, forKey: key).map(FieldValue.integer)
            } else {
                try container.decodeIfPresent(String.self, forKey: key).map(FieldValue.text)
            }
        }
        let known = Set(ProductField.allCases.map(\.rawValue))
        extras = try container.allKeys.filter { !known.contains($0.stringValue) }.map {
            Extra(name: $0.stringValue, value: try container.decodeIfPresent(String.self, forKey: $0))
        }
    }
}
