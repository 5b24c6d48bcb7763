import Hummingbird
import ProductCatalog

/// An error answered as `{"error":{"message":…,"fields":{…}}}` with its HTTP status.
///
/// The message says what happened and what to do; `fields` holds one message per request
/// field that needs fixing (empty when the problem is not about a field).
public struct APIError: HTTPResponseError, Sendable, CustomStringConvertible {
    /// The HTTP status of the answer.
    public var status: HTTPResponse.Status
    /// What happened and what to do about it.
    public var message: String
    /// One message per request field that needs fixing.
    public var fields: [String: String]

    /// An error with `status`, `message` and the messages for `fields`.
    public init(_ status: HTTPResponse.Status, _ message: String, fields: [String: String] = [:]) {
        self.status = status
        self.message = message
        self.fields = fields
    }

    /// The JSON body: known product fields first in their usual order, then others by name.
    public var jsonValue: JSONValue {
        let order = Dictionary(uniqueKeysWithValues: ProductField.allCases.enumerated().map { ($1.rawValue, $0) })
        let sorted = fields.sorted { a, b in
            let (x, y) = (order[a.key] ?? Int.max, order[b.key] ?? Int.max)
            return x != y ? x < y : a.key < b.key
        }
        return .object([
            "error": .object([
                "message": .string(message),
                "fields": .object(sorted.map { JSONValue.Member($0.key, .string($0.value)) }),
            ]),
        ])
    }

    /// The JSON answer.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONResponse.response(jsonValue, status: status)
    }

    /// The status code and message, for logs.
    public var description: String { "\(status.code) \(message)" }
}

extension APIError {
    /// The answer for an error thrown while editing the catalog.
    init(_ error: EditError) {
        switch error {
        case .invalid(let invalid):
            self.init(.unprocessableContent, "Some fields need fixing; see the message next to each.", fields: invalid.fields)
        case .duplicate(let productId):
            self.init(.conflict, "A product with productId \"\(productId)\" already exists.",
                      fields: [ProductField.productId.rawValue: "This productId is taken; choose another one or edit that product."])
        case .notFound(let productId):
            self.init(.notFound, "No product has productId \"\(productId)\"; it may have been deleted or replaced by an import.")
        case .catalogReplaced:
            self.init(.serviceUnavailable, "The catalog was being replaced by an import; try again.")
        case .catalog(let error):
            self.init(.internalServerError, error.description)
        case .database(_, let error):
            self.init(.internalServerError, "The catalog could not be written: \(error.message). Try again; if it keeps failing, see the server's output.")
        }
    }
}
