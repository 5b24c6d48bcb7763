/// A product as someone typed it into a form: text for each field, not yet checked.
///
/// ``ProductValidation/product(from:)`` turns a draft into a ``Product`` or says,
/// field by field, what to fix.
public struct ProductDraft: Sendable, Hashable {
    /// The text of each known field; a field that is not here is empty.
    public var values: [ProductField: String]
    /// Values for the catalog's extra columns, by column name; columns not named keep their value on an edit.
    public var extras: [String: String]

    /// A draft with these field texts and extra column values.
    public init(values: [ProductField: String] = [:], extras: [String: String] = [:]) {
        self.values = values
        self.extras = extras
    }

    /// The text of `field`, empty when it was not given.
    public subscript(field: ProductField) -> String {
        get { values[field] ?? "" }
        set { values[field] = newValue }
    }
}

extension ProductDraft {
    /// The draft that ``ProductValidation`` would turn back into `product`.
    public init(_ product: Product) {
        var values: [ProductField: String] = [:]
        for field in ProductField.allCases {
            // A price as a person writes it in the product's currency; every other value as stored.
            values[field] = field.isPrice ? product[field]?.integer.map { Price(thousandths: $0).text(currency: product.currency) } : product[field]?.text
        }
        self.init(values: values, extras: Dictionary(product.extras.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { $1 }))
    }
}
