import Foundation
import HTTPTypes
import Hummingbird

/// Keeps other web sites out: every request must name this server, and every write must come from its own page.
///
/// A server on 127.0.0.1 is reachable from every page open in the user's browser. Three checks
/// close that door:
/// - **Host.** A request whose `Host` is not an address the server listens on is refused (403),
///   whatever its method: a DNS-rebinding page reaches us under its own host name.
/// - **Origin.** A request that changes something (`POST`, `PUT`, `PATCH`, `DELETE`) is refused
///   when the browser says it comes from another origin (`Origin`) or another site
///   (`Sec-Fetch-Site`).
/// - **Content type.** Product bodies must be `application/json` and uploads a CSV type (see
///   ``ContentType``); other sites can send neither without a CORS preflight, which this server
///   never grants.
struct SameOriginGuard<Context: RequestContext>: RouterMiddleware {
    /// Host names (without port) this server answers to; nil answers to any (listening on all addresses).
    let allowedHosts: Set<String>?

    /// The host names to accept when listening on `address`.
    static func allowedHosts(listeningOn address: String) -> Set<String>? {
        let host = address.lowercased()
        if host == "0.0.0.0" || host == "::" || host.isEmpty { return nil }
        if host == "localhost" || host == "::1" || host.hasPrefix("127.") {
            return ["localhost", "127.0.0.1", "::1", host]
        }
        return [host]
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let refusal = refusal(
            method: request.method, host: request.head.authority ?? request.headers[.hostHeader],
            origin: request.headers[.origin], fetchSite: request.headers[.secFetchSite]) {
            throw refusal
        }
        return try await next(request, context)
    }

    /// Why a request with these headers is refused; nil when it may go on.
    func refusal(method: HTTPRequest.Method, host: String?, origin: String?, fetchSite: String?) -> APIError? {
        if let host, let allowedHosts, !allowedHosts.contains(Self.hostName(of: host)) {
            return APIError(.forbidden, "This server answers only to \(allowedHosts.sorted().joined(separator: ", ")); open it by that address.")
        }
        guard Self.changesState(method) else { return nil }
        if let site = fetchSite?.lowercased(), site != "same-origin", site != "none" { return Self.crossSite }
        guard let origin else { return nil }
        if let host {
            return origin.lowercased() == "http://" + host.lowercased() ? nil : Self.crossSite
        }
        if let allowedHosts {
            guard let originHost = Self.host(ofOrigin: origin), allowedHosts.contains(originHost) else { return Self.crossSite }
        }
        return nil
    }

    private static var crossSite: APIError {
        APIError(.forbidden, "Changes are accepted only from this server's own page; the request came from another site.")
    }

    static func changesState(_ method: HTTPRequest.Method) -> Bool {
        method != .get && method != .head && method != .options
    }

    /// `localhost` of `localhost:8080`, `::1` of `[::1]:8080`, lower-cased.
    static func hostName(of authority: String) -> String {
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
    private static func host(ofOrigin origin: String) -> String? {
        guard let schemeEnd = origin.range(of: "://") else { return nil }
        return hostName(of: String(origin[schemeEnd.upperBound...]))
    }
}

/// Media types the API accepts, read from `Content-Type` without its parameters.
enum ContentType {
    /// The media type of `request`, lower-cased, without `; charset=…`; nil when there is none.
    static func mediaType(of request: Request) -> String? {
        guard let value = request.headers[.contentType] else { return nil }
        return value.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    /// Throws 415 unless `request` is JSON.
    static func requireJSON(_ request: Request) throws {
        guard mediaType(of: request) == "application/json" else {
            throw APIError(.unsupportedMediaType, "Send the product as a JSON object with the header Content-Type: application/json.")
        }
    }

    /// Types a CSV (or TSV, or gzip) upload may be labelled with; none of them can be sent cross-site without a preflight.
    static let uploadTypes: Set<String> = [
        "text/csv", "text/tab-separated-values", "application/csv", "application/vnd.ms-excel",
        "application/gzip", "application/x-gzip", "application/octet-stream",
    ]

    /// Throws 415 unless `request` is labelled as a CSV file.
    static func requireUpload(_ request: Request) throws {
        guard let type = mediaType(of: request), uploadTypes.contains(type) else {
            throw APIError(.unsupportedMediaType, "Send the CSV file as the request body with the header Content-Type: text/csv (or application/gzip for a compressed one).")
        }
    }
}

extension HTTPField.Name {
    static var secFetchSite: Self { Self("Sec-Fetch-Site")! }
    /// `Host`, for requests that carry it as a header rather than as the authority.
    static var hostHeader: Self { Self("Host")! }
}
