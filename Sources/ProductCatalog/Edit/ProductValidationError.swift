/// What is wrong with a product someone entered: the problem of each field that breaks a rule.
public struct ProductValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The problem of each field that needs fixing, by field name (`listPrice`, or an extra column's name).
    public var problems: [String: FieldProblem]

    /// An error with one problem per field.
    public init(problems: [String: FieldProblem]) {
        self.problems = problems
    }

    /// The problem of `field`, if it needs fixing.
    public subscript(field: ProductField) -> FieldProblem? { problems[field.rawValue] }

    /// Every field and its problem, for logs.
    public var description: String {
        let list = problems.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: "; ")
        return "the product has \(problems.count == 1 ? "a field" : "fields") to fix: \(list)"
    }
}
