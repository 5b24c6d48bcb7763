import Foundation

/// A URL query read as browsers write it (`application/x-www-form-urlencoded`, as `URLSearchParams` does):
/// `+` is a space and `%2B` a plus sign.
struct FormQuery {
    private var values: [String: String] = [:]

    /// The first value of each name in `query` (the part after `?`, without it).
    init(_ query: String?) {
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]), values[name] == nil else { continue }
            values[name] = parts.count > 1 ? Self.decode(parts[1]) : ""
        }
    }

    /// The value of `name`; nil when it is missing or not valid percent-encoded UTF-8.
    subscript(name: String) -> String? { values[name] }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
