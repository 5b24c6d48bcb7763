import HTTPTypes
import Hummingbird

/// The web page: its HTML, style sheet and script, compiled into the binary (no CDN, no files beside it).
struct PageController<Context: RequestContext> {
    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.getAndHead { _, _ in Self.asset(PackageResources.index_html, type: "text/html; charset=utf-8") }
        routes.getAndHead("app.css") { _, _ in Self.asset(PackageResources.app_css, type: "text/css; charset=utf-8") }
        routes.getAndHead("app.js") { _, _ in Self.asset(PackageResources.app_js, type: "text/javascript; charset=utf-8") }
        return routes
    }

    /// Only this server's own files run; images may come from any http(s) address or a data: URL.
    static var contentSecurityPolicy: String {
        "default-src 'self'; img-src 'self' data: http: https:; style-src 'self'; script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'"
    }

    private static func asset(_ bytes: [UInt8], type: String) -> Response {
        Response(status: .ok, headers: [
            .contentType: type,
            .cacheControl: "no-cache",
            .contentSecurityPolicy: contentSecurityPolicy,
            .xContentTypeOptions: "nosniff",
        ], body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

extension HTTPField.Name {
    static var contentSecurityPolicy: Self { Self("Content-Security-Policy")! }
    static var xContentTypeOptions: Self { Self("X-Content-Type-Options")! }
}
