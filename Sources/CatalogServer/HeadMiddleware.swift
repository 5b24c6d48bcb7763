import Hummingbird

/// Answers `HEAD` wherever `GET` answers: the same status and headers, no body.
///
/// Routes are registered for both methods with ``RouteCollection/getAndHead(_:use:)``; this
/// middleware drops the body of the `HEAD` answer.
struct HeadMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response = try await next(request, context)
        guard request.method == .head else { return response }
        return Response(status: response.status, headers: response.headers, body: ResponseBody())
    }
}

extension RouteCollection {
    /// Adds `handler` for `GET` and `HEAD` at `path`.
    @discardableResult
    func getAndHead(_ path: RouterPath = "", use handler: @escaping @Sendable (Request, Context) async throws -> some ResponseGenerator) -> Self {
        get(path, use: handler)
        return head(path, use: handler)
    }
}
