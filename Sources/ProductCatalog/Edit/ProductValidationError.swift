/// What is wrong with a product someone entered: one message per field, saying what to do.
public struct ProductValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The message for each field that needs fixing, by field name (`listPrice`, or an extra column's name).
    public var fields: [String: String]

    /// An error with one message per field.
    public init(fields: [String: String]) {
        self.fields = fields
    }

    /// The message for `field`, if it needs fixing.
    public subscript(field: ProductField) -> String? { fields[field.rawValue] }

    /// Every field and its message, for logs.
    public var description: String {
        let list = fields.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; ")
        return "the product has \(fields.count == 1 ? "a field" : "fields") to fix: \(list)"
    }
}
