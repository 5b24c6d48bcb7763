import Hummingbird
import ProductCatalog

/// `/api/facets`: how many of a search's products have each type, color and size.
struct FacetsController<Context: RequestContext> {
    let store: any CatalogEngine

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.getAndHead(use: counts)
        return routes
    }

    /// `GET ?q=` (or `prefix=`) and the filters of `/api/products`: the shape of
    /// ``FacetCounts/jsonValue``, the 10 most common values of each field and the rest, among
    /// all matches or, past 10,000, the first 10,000 (`"complete": false`).
    @Sendable func counts(request: Request, context: Context) async throws -> Response {
        let search = try await SearchParameters.read(FormQuery(request.uri.query), in: store)
        let counts = try await store.facets(search.request) ?? .noMatches
        return JSONResponse.response(counts.jsonValue)
    }
}
