import Hummingbird

/// Refuses edits (409) while a replacing import is under way, from the moment it is requested.
///
/// A replacing import's swap discards whatever was written to the old catalog after it started
/// reading, so an edit made meanwhile must not be acknowledged. The import lock refuses edits
/// once the importer runs (``EditError/importRunning(path:)``); this gate covers the time before,
/// while the file is still uploading, which can take minutes. Reads and the import routes
/// themselves pass.
struct EditGate<Context: RequestContext>: RouterMiddleware {
    let imports: ImportCoordinator

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if SameOriginGuard<Context>.changesState(request.method), !request.uri.path.hasPrefix("/api/imports"),
           let (id, status) = await imports.replacingImport() {
            let doing = status == .uploading ? "is uploading" : "is running"
            throw APIError(
                .conflict,
                "Import \(id), which replaces the catalog, \(doing), and it would discard this change when it finishes; nothing was saved. Try again when the import has finished.",
                headers: [.retryAfter: "5"])
        }
        return try await next(request, context)
    }
}
