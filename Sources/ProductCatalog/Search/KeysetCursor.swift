import Foundation

/// Where the next page of a search starts: just after the last productId of the page before.
///
/// Its text form is opaque (base64url of the key) so that people pass it back unchanged.
public struct KeysetCursor: Sendable, Hashable, CustomStringConvertible {
    /// The last productId of the previous page.
    public var lastProductId: String

    public init(after productId: String) {
        lastProductId = productId
    }

    /// Reads a cursor produced by ``description``; nil when `text` is not one.
    public init?(_ text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard !text.isEmpty, let data = Data(base64Encoded: base64), let key = String(data: data, encoding: .utf8)
        else { return nil }
        lastProductId = key
    }

    /// The opaque text to hand back for the next page.
    public var description: String {
        Data(lastProductId.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
