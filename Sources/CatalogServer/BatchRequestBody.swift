import Foundation
import Hummingbird
import ProductCatalog

/// Reads the JSON body of `POST /api/products/batch`:
/// `{"action":"star"|"unstar"|"delete"|"set","productIds":[…],"fields":{"color":"Navy",…}}`.
///
/// `fields` is for `set` alone: known product fields other than productId, each a string (empty
/// clears it) checked on each product as a single edit checks it.
struct BatchRequestBody: Decodable {
    var action: String
    var productIds: [String]
    var fields: [String: String]?

    /// The change and the products it is for; a 400 or 422 that names what to fix.
    static func read(from request: Request, context: some RequestContext) async throws -> (BatchChange, [String]) {
        try ContentType.requireJSON(request)
        var request = request
        let buffer = try await request.collectBody(upTo: context.maxUploadSize)
        let body: BatchRequestBody
        do {
            body = try JSONDecoder().decode(BatchRequestBody.self, from: Data(buffer.readableBytesView))
        } catch {
            throw APIError(.badRequest, "The body is not a batch; send one such as {\"action\":\"set\",\"productIds\":[\"AB-1\",\"AB-2\"],\"fields\":{\"color\":\"Navy\"}}.")
        }
        let limit = CatalogEditor.maxBatchProducts
        guard (1...limit).contains(body.productIds.count) else {
            throw APIError(.unprocessableContent, "A batch names 1 to \(limit.formatted()) products; this one names \(body.productIds.count.formatted()).",
                           fields: ["productIds": "Give 1 to \(limit.formatted()) productIds."])
        }
        switch body.action {
        case "star": return (.star(true), body.productIds)
        case "unstar": return (.star(false), body.productIds)
        case "delete": return (.delete, body.productIds)
        case "set":
            var values: [ProductField: String] = [:]
            var wrong: [String: String] = [:]
            for (name, text) in body.fields ?? [:] {
                if let field = ProductField(rawValue: name), field != .productId {
                    values[field] = text
                } else {
                    wrong[name] = "A batch sets the product fields other than productId (\(ProductField.allCases.dropFirst().map(\.rawValue).joined(separator: ", ")))."
                }
            }
            guard wrong.isEmpty, !values.isEmpty else {
                throw APIError(.unprocessableContent, "Name the fields to set, as {\"fields\":{\"color\":\"Navy\"}}.",
                               fields: wrong.isEmpty ? ["fields": "Give at least one field to set."] : wrong)
            }
            return (.set(values), body.productIds)
        default:
            throw APIError(.unprocessableContent, "action must be star, unstar, delete or set.", fields: ["action": "Use star, unstar, delete or set."])
        }
    }
}
