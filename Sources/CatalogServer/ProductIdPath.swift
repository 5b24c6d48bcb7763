import Foundation
import Hummingbird

/// A productId carried in a URL path: percent-decoded and checked, never trusted as it came.
enum ProductIdPath {
    /// The `{productId}` parameter of the route, decoded; 400 when it is not a productId.
    static func decode(from context: some RequestContext) throws -> String {
        guard let raw = context.parameters.get("productId"), let decoded = raw.removingPercentEncoding else {
            throw APIError(.badRequest, "The productId in the path is not valid percent-encoded UTF-8; encode it with encodeURIComponent.")
        }
        guard !decoded.isEmpty, !decoded.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw APIError(.badRequest, "The productId in the path is empty or holds control characters; no product has such an id.")
        }
        return decoded
    }

    /// `/api/products/<productId percent-encoded>`.
    static func url(of productId: String) -> String {
        "/api/products/" + encode(productId)
    }

    /// `productId` with everything but unreserved characters percent-encoded, so `/` and `?` stay inside one segment.
    static func encode(_ productId: String) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~")
        return productId.addingPercentEncoding(withAllowedCharacters: allowed) ?? productId
    }
}
