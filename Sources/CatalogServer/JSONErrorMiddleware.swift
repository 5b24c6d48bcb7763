import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import ProductCatalog

/// Turns every error a route throws into the JSON error shape, never a stack trace.
///
/// Hummingbird's own errors (an unknown path, a body too large) keep their status with a
/// message that says what to do; a malformed body is a 400. Anything unexpected is a 500 whose
/// message says no more than that: SQL, file paths and library internals go to the server's
/// log, not to the client.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            return try Self.answer(for: error, request: request, logger: context.logger).response(from: request, context: context)
        }
    }

    static func answer(for error: any Error, request: Request, logger: Logger) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as EditError:
            return APIError(error)
        case let error as CollectionError:
            return APIError(error)
        case let error as EngineError:
            switch error {
            case .unreachable, .serverFailed, .unreadable: logger.error("\(request.method) \(request.uri.path) failed: \(error)")
            case .noCatalog, .keptChanging, .notKept: break
            }
            return APIError(error)
        case let error as CatalogError:
            return APIError(.internalServerError, APIError.catalogMessage(error))
        case is CursorOfAnotherBuild:
            return APIError(.conflict, "The catalog was replaced by an import since this page was made; search again from the first page.",
                            fields: ["after": "Leave it out: the catalog this cursor was made on is gone."])
        case let error as SQLiteError where error.isBusy:
            return .busy("The catalog is busy for a moment; try again.")
        case let error as HTTPError:
            switch error.status {
            case .notFound:
                return APIError(error.status, "Nothing is at \(request.method) \(String(request.uri.path.prefix(200))). The API is under /api/products and /api/imports; the page is at /.")
            case .contentTooLarge:
                return APIError(error.status, "The request body is too large for this endpoint.")
            default:
                return APIError(error.status, error.status.reasonPhrase)
            }
        case is NIOTooManyBytesError:
            return APIError(.contentTooLarge, "The request body is too large for this endpoint.")
        case is HTTPParserError:
            return APIError(.badRequest, "The request is malformed (its body or chunked encoding could not be read); send it again.")
        default:
            logger.error("\(request.method) \(request.uri.path) failed: \(error)")
            return APIError(.internalServerError, "The server could not answer this request; try again. If it keeps failing, the server's output says why.")
        }
    }
}
