import Foundation
import Hummingbird
import ProductCatalog

/// Reads the JSON object of an add or edit request into a ``ProductDraft``.
///
/// Keys are the product fields (`productId`, `title`, `listPrice`, …); any other key names an
/// extra column. Values are strings or null: a price is sent as text (`"19.99"`) so that it stays
/// exact. A field of another type is answered with 422 and a message for that field.
enum ProductRequestBody {
    /// The largest body accepted (413 past it): Hummingbird's default `maxUploadSize`, 2 MiB.
    static let maxBytes = 2 << 20

    /// The most keys a body may have: the product fields and as many extra columns as a SQLite table can hold.
    static let maxKeys = ProductField.allCases.count + 2_000

    /// The bytes the body of `request` will take: its `Content-Length`, or the most a body may be.
    static func size(of request: Request, context: some RequestContext) -> Int {
        request.headers[.contentLength].flatMap { Int($0) }.map { min($0, context.maxUploadSize) } ?? context.maxUploadSize
    }

    static func draft(from request: Request, context: some RequestContext) async throws -> ProductDraft {
        try ContentType.requireJSON(request)
        var request = request
        let buffer = try await request.collectBody(upTo: context.maxUploadSize)
        let object: [String: Value]
        do {
            object = try JSONDecoder().decode([String: Value].self, from: Data(buffer.readableBytesView))
        } catch {
            throw APIError(.badRequest, "The body is not a JSON object; send one such as {\"productId\":\"AB-1\",\"title\":\"Mug\",\"listPrice\":\"12.50\"}.")
        }
        // More keys than a catalog can have columns cannot all be fields; refusing them here keeps
        // the work (and the error's size) bounded whatever the body holds.
        guard object.count <= maxKeys else {
            throw APIError(.unprocessableContent, "The body has \(object.count) keys; a product has at most \(maxKeys): its fields and the catalog's extra columns.")
        }
        var draft = ProductDraft()
        var wrongTypes: [String: String] = [:]
        for (key, value) in object {
            let text: String
            switch value {
            case .text(let string): text = string
            case .null: text = ""
            case .other:
                wrongTypes[key] = "Send this field as a string (a price as \"19.99\") or null."
                continue
            }
            if let field = ProductField(rawValue: key) {
                draft.values[field] = text
            } else {
                draft.extras[key] = text
            }
        }
        guard wrongTypes.isEmpty else {
            throw APIError(.unprocessableContent, "Some fields need fixing; see the message next to each.", fields: wrongTypes)
        }
        return draft
    }

    /// A JSON value as a form field sees it.
    enum Value: Decodable {
        case text(String)
        case null
        case other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let text = try? container.decode(String.self) {
                self = .text(text)
            } else {
                self = .other
            }
        }
    }
}
