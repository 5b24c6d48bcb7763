import HTTPTypes
import Hummingbird

/// Refuses to let any other page show this server's in a frame: every answer says so twice,
/// `X-Frame-Options: DENY` for older browsers and `Content-Security-Policy: frame-ancestors 'none'`.
///
/// A framed page's requests are its own, same-origin ones: a site that framed the page under a
/// decoy could have a visitor click Delete without knowing (clickjacking). The page's own answers
/// carry the whole policy (``PageController/contentSecurityPolicy``); the others get this part.
struct FramingGuard<Context: RequestContext>: RouterMiddleware {
    static var policy: String { "frame-ancestors 'none'" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.xFrameOptions] = "DENY"
        if response.headers[.contentSecurityPolicy] == nil { response.headers[.contentSecurityPolicy] = Self.policy }
        return response
    }
}

extension HTTPField.Name {
    static var xFrameOptions: Self { Self("X-Frame-Options")! }
}
