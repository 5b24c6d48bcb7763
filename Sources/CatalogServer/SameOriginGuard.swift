import Foundation
import HTTPTypes
import Hummingbird

/// Keeps other web sites out: every request must name this server, and every write must come from its own page.
///
/// A server on 127.0.0.1 is reachable from every page open in the user's browser, and one on
/// another address from every machine that can reach it. Three checks close the door to other
/// sites' pages:
/// - **Host.** A request whose `Host` is not a name this server answers to (``ServedNames``) is
///   refused (403), whatever its method and whatever address the server listens on: a
///   DNS-rebinding page reaches us under its own host name.
/// - **Origin.** A request that changes something (`POST`, `PUT`, `PATCH`, `DELETE`) is refused
///   when the browser says it comes from another origin (`Origin`) or another site
///   (`Sec-Fetch-Site`). Behind a proxy, the page's origin is the public URL's.
/// - **Content type.** Product bodies must be `application/json` and uploads a CSV type (see
///   ``ContentType``); other sites can send neither without a CORS preflight, which this server
///   never grants.
struct SameOriginGuard<Context: RequestContext>: RouterMiddleware {
    let names: ServedNames

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
        if let host, !names.answers(to: ServedNames.hostName(of: host)) {
            return APIError(.forbidden, "This server answers only to \(names.described); open it by one of them, or start it with --public-url naming the address you use.")
        }
        guard Self.changesState(method) else { return nil }
        if let site = fetchSite?.lowercased(), site != "same-origin", site != "none" { return Self.crossSite }
        guard let origin = origin?.lowercased() else { return nil }
        if let publicOrigin = names.publicOrigin {
            if origin == publicOrigin { return nil }
            // Under the public URL's name, the page is the public URL's (not its plain-HTTP twin).
            if let host, ServedNames.hostName(of: host) == ServedNames.host(ofOrigin: publicOrigin) { return Self.crossSite }
        }
        if let host {
            if origin == "http://" + host.lowercased() { return nil }
            // Over HTTPS, the page was reached through a proxy the server was not told about (or
            // it is another site's: the advice is only ever shown by our own page).
            if names.publicOrigin == nil, origin.hasPrefix("https://") {
                return APIError(.forbidden, "Changes are accepted only from this server's own page, and it does not know \(origin) as its address; if that is where people open it (through a proxy), start catalog serve with --public-url \(origin).")
            }
            return Self.crossSite
        }
        guard let originHost = ServedNames.host(ofOrigin: origin), names.answers(to: originHost) else { return Self.crossSite }
        return nil
    }

    private static var crossSite: APIError {
        APIError(.forbidden, "Changes are accepted only from this server's own page; the request came from another site.")
    }

    static func changesState(_ method: HTTPRequest.Method) -> Bool {
        method != .get && method != .head && method != .options
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
