/// A known field's value as a catalog stores it: text, or an integer (prices in thousandths, the quantity).
public enum FieldValue: Sendable, Hashable {
    case text(String)
    case integer(Int64)

    /// The text, or the integer written in decimal.
    public var text: String {
        switch self {
        case .text(let text): text
        case .integer(let number): String(number)
        }
    }

    /// The integer; nil for text.
    public var integer: Int64? {
        if case .integer(let number) = self { number } else { nil }
    }
}

extension Product {
    /// The value of `field` as stored (nil for none): the one place that names each field of a
    /// product, so that every engine reads and writes a product by looping over ``ProductField``.
    public subscript(field: ProductField) -> FieldValue? {
        get {
            switch field {
            case .productId: .text(productId)
            case .title: title.map(FieldValue.text)
            case .listPrice: listPrice.map { .integer($0.thousandths) }
            case .salesPrice: salesPrice.map { .integer($0.thousandths) }
            case .color: color.map(FieldValue.text)
            case .size: size.map(FieldValue.text)
            case .productType: productType.map(FieldValue.text)
            case .taxRate: taxRate.map(FieldValue.text)
            case .imageURL: imageURL.map(FieldValue.text)
            case .groupId: groupId.map(FieldValue.text)
            case .currency: currency.map(FieldValue.text)
            case .quantity: quantity.map(FieldValue.integer)
            case .brand: brand.map(FieldValue.text)
            case .description: description.map(FieldValue.text)
            case .options: options.map(FieldValue.text)
            }
        }
        set {
            switch field {
            case .productId: productId = newValue?.text ?? ""
            case .title: title = newValue?.text
            case .listPrice: listPrice = newValue?.integer.map { Price(thousandths: max(0, $0)) }
            case .salesPrice: salesPrice = newValue?.integer.map { Price(thousandths: max(0, $0)) }
            case .color: color = newValue?.text
            case .size: size = newValue?.text
            case .productType: productType = newValue?.text
            case .taxRate: taxRate = newValue?.text
            case .imageURL: imageURL = newValue?.text
            case .groupId: groupId = newValue?.text
            case .currency: currency = newValue?.text
            case .quantity: quantity = newValue?.integer
            case .brand: brand = newValue?.text
            case .description: description = newValue?.text
            case .options: options = newValue?.text
            }
        }
    }
}
