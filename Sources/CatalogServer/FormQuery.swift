import Foundation

/// A URL query read as browsers write it (`application/x-www-form-urlencoded`, as `URLSearchParams` does):
/// `+` is a space and `%2B` a plus sign.
struct FormQuery {
    private var values: [String: String] = [:]
    /// Names whose value is not valid percent-encoded UTF-8 (`prefix=%FF`).
    private(set) var undecodable: Set<String> = []

    /// The first value of each name in `query` (the part after `?`, without it).
    init(_ query: String?) {
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]), values[name] == nil, !undecodable.contains(name) else { continue }
            if let value = parts.count > 1 ? Self.decode(parts[1]) : "" {
                values[name] = value
            } else {
                undecodable.insert(name)
            }
        }
    }

    /// The value of `name`; nil when it is missing or not valid percent-encoded UTF-8.
    subscript(name: String) -> String? { values[name] }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
