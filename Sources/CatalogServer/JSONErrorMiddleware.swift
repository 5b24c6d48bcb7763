import Hummingbird
import ProductCatalog

/// Turns every error a route throws into the JSON error shape, never a stack trace.
///
/// Hummingbird's own errors (an unknown path, a body too large) keep their status with a
/// message that says what to do; anything unexpected is a 500 whose message names the error.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return try error.response(from: request, context: context)
        } catch let error as EditError {
            return try APIError(error).response(from: request, context: context)
        } catch let error as HTTPError {
            let message: String
            switch error.status {
            case .notFound:
                message = "Nothing is at \(request.method) \(request.uri.path). The API is under /api/products and /api/imports; the page is at /."
            case .contentTooLarge:
                message = "The request body is too large for this endpoint."
            default:
                message = error.body ?? error.status.reasonPhrase
            }
            return try APIError(error.status, message).response(from: request, context: context)
        } catch {
            context.logger.error("\(request.method) \(request.uri.path) failed: \(error)")
            let answer = APIError(.internalServerError, "The server could not answer: \(error). Try again; if it keeps failing, see the server's output.")
            return try answer.response(from: request, context: context)
        }
    }
}
