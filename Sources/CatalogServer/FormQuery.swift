import Foundation

/// A URL query read as browsers write it (`application/x-www-form-urlencoded`, as `URLSearchParams` does):
/// `+` is a space and `%2B` a plus sign.
struct FormQuery {
    private var values: [String: [String]] = [:]
    /// Names whose value is not valid percent-encoded UTF-8 (`prefix=%FF`).
    private(set) var undecodable: Set<String> = []

    /// The values of each name in `query` (the part after `?`, without it).
    init(_ query: String?) {
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]) else { continue }
            if let value = parts.count > 1 ? Self.decode(parts[1]) : "" {
                values[name, default: []].append(value)
            } else {
                undecodable.insert(name)
            }
        }
    }

    /// The first value of `name`; nil when it is missing or is not valid percent-encoded UTF-8.
    subscript(name: String) -> String? {
        undecodable.contains(name) ? nil : values[name]?.first
    }

    /// Every value of `name` (`color=a&color=b`), in order; empty when it is missing or one is not valid.
    func all(_ name: String) -> [String] {
        undecodable.contains(name) ? [] : values[name] ?? []
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}
