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
        imageURL: String? = nil, extras: [Extra] = []
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
        self.extras = extras
    }
}

extension Product {
    /// The product as JSON: field names as keys in a fixed order, prices as exact decimal
    /// strings (`"12.50"`), missing values as `null`, then each extra column under its header.
    public var jsonValue: JSONValue {
        var members: [JSONValue.Member] = [
            .init(ProductField.productId.rawValue, .string(productId)),
            .init(ProductField.title.rawValue, .string(title)),
            .init(ProductField.listPrice.rawValue, .string(listPrice?.description)),
            .init(ProductField.salesPrice.rawValue, .string(salesPrice?.description)),
            .init(ProductField.color.rawValue, .string(color)),
            .init(ProductField.size.rawValue, .string(size)),
            .init(ProductField.productType.rawValue, .string(productType)),
            .init(ProductField.taxRate.rawValue, .string(taxRate)),
            .init(ProductField.imageURL.rawValue, .string(imageURL)),
        ]
        members += extras.map { .init($0.name, .string($0.value)) }
        return .object(members)
    }
}

extension Product: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyKey.self)
        func text(_ field: ProductField) throws -> String? {
            try container.decodeIfPresent(String.self, forKey: AnyKey(field.rawValue))
        }
        self.init(
            productId: try container.decode(String.self, forKey: AnyKey(ProductField.productId.rawValue)),
            title: try text(.title),
            listPrice: try container.decodeIfPresent(Price.self, forKey: AnyKey(ProductField.listPrice.rawValue)),
            salesPrice: try container.decodeIfPresent(Price.self, forKey: AnyKey(ProductField.salesPrice.rawValue)),
            color: try text(.color), size: try text(.size), productType: try text(.productType),
            taxRate: try text(.taxRate), imageURL: try text(.imageURL))
        let known = Set(ProductField.allCases.map(\.rawValue))
        extras = try container.allKeys.filter { !known.contains($0.stringValue) }.map {
            Extra(name: $0.stringValue, value: try container.decodeIfPresent(String.self, forKey: $0))
        }
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
