/// The names a server answers to, and the origin its page is served from.
///
/// A request may name (`Host`):
/// - the loopback names (`localhost`, `127.0.0.1`, `::1`), which only this machine reaches;
/// - the address the server listens on (`--host`), unless it is every address (`0.0.0.0`, `::`);
/// - the host of its public URL (`--public-url`), the name a proxy or a team's DNS gives it;
/// - and, listening on every address, any IP address: a DNS-rebinding page names its own host,
///   never an address, so an address is always typed by someone who meant this server.
///
/// Never any name: a page of another site whose name resolves to this machine is refused.
public struct ServedNames: Sendable, Equatable {
    /// Host names accepted, lower-cased and without port or brackets.
    public let hosts: Set<String>
    /// Whether any IP address is accepted (the server listens on every address).
    public let anyAddress: Bool
    /// `scheme://host[:port]` of `--public-url`, lower-cased and without a default port; nil without one.
    public let publicOrigin: String?

    static let loopback: Set<String> = ["localhost", "127.0.0.1", "::1"]

    /// The names of a server listening on `address`, reached at `publicURL` (checked by ``origin(ofPublicURL:)``) if given.
    public init(listeningOn address: String, publicURL: String? = nil) {
        let listening = Self.hostName(of: address)
        let wildcard = listening.isEmpty || listening == "0.0.0.0" || listening == "::"
        var hosts = Self.loopback
        if !wildcard { hosts.insert(listening) }
        let origin = publicURL.flatMap(Self.origin(ofPublicURL:))
        if let origin, let host = Self.host(ofOrigin: origin) { hosts.insert(host) }
        self.hosts = hosts
        self.anyAddress = wildcard
        self.publicOrigin = origin
    }

    /// Whether a request naming `host` (as ``hostName(of:)`` reads it) is for this server.
    public func answers(to host: String) -> Bool {
        hosts.contains(host) || (anyAddress && Self.isIPAddress(host))
    }

    /// The names, for a message: `127.0.0.1, ::1, catalog.example.com, localhost or any of this machine's addresses`.
    var described: String {
        let names = hosts.sorted().joined(separator: ", ")
        return anyAddress ? names + " or any of this machine's addresses" : names
    }

    /// The origin of a public URL, `https://catalog.example.com` of `https://Catalog.example.com:443/`;
    /// nil unless it is an `http` or `https` URL with a host and no more than `/` after it.
    public static func origin(ofPublicURL text: String) -> String? {
        let lowered = text.lowercased()
        guard let schemeEnd = lowered.range(of: "://") else { return nil }
        let scheme = String(lowered[..<schemeEnd.lowerBound])
        guard scheme == "http" || scheme == "https" else { return nil }
        var authority = lowered[schemeEnd.upperBound...]
        if authority.hasSuffix("/") { authority = authority.dropLast() }
        guard !authority.contains(where: { "/?#@ ".contains($0) }) else { return nil }
        // host, host:port, [v6] or [v6]:port
        let host: Substring, port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return nil }
            port = after.isEmpty ? nil : after.dropFirst()
        } else {
            let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { return nil }
            host = parts[0]
            port = parts.count == 2 ? parts[1] : nil
        }
        guard !host.isEmpty else { return nil }
        if let port, port.isEmpty || !port.allSatisfy({ $0.isASCII && $0.isNumber }) { return nil }
        let shownHost = host.contains(":") ? "[\(host)]" : String(host)
        let defaultPort = scheme == "https" ? "443" : "80"
        guard let port, port != defaultPort else { return scheme + "://" + shownHost }
        return scheme + "://" + shownHost + ":" + port
    }

    /// `localhost` of `localhost:8080`, `::1` of `[::1]:8080`, lower-cased.
    public static func hostName(of authority: String) -> String {
        let text = authority.lowercased()
        if text.hasPrefix("["), let end = text.firstIndex(of: "]") {
            return String(text[text.index(after: text.startIndex)..<end])
        }
        if let colon = text.lastIndex(of: ":"), text.firstIndex(of: ":") == colon {
            return String(text[..<colon])
        }
        return text
    }

    /// The host name of `http://name:port`, nil for `null` or anything unreadable.
    static func host(ofOrigin origin: String) -> String? {
        guard let schemeEnd = origin.range(of: "://") else { return nil }
        return hostName(of: String(origin[schemeEnd.upperBound...]))
    }

    /// Whether `host` is an IPv4 address in dotted decimal or an IPv6 address (host names never hold a colon).
    static func isIPAddress(_ host: String) -> Bool {
        if host.contains(":") { return host.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." } }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber) && Int(part)! <= 255
        }
    }
}
