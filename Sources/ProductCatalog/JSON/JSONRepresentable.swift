/// A value whose JSON is its ``jsonValue``; it is `Encodable` through it.
///
/// `catalog` and the server write ``JSONValue/serialized``, which keeps the documented key
/// order; an app may hand the same values to its own `JSONEncoder` instead.
public protocol JSONRepresentable: Encodable {
    /// The value as JSON, keys in their documented order.
    var jsonValue: JSONValue { get }
}

extension JSONRepresentable {
    public func encode(to encoder: any Encoder) throws {
        try jsonValue.encode(to: encoder)
    }
}
