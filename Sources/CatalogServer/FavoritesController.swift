import Hummingbird
import ProductCatalog

/// `/api/favorites`: the starred products; star and unstar one.
struct FavoritesController<Context: RequestContext> {
    let store: any CatalogEngine

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.getAndHead(use: list)
        routes.put("{productId}", use: star)
        routes.delete("{productId}", use: unstar)
        return routes
    }

    /// `GET`: `{"products": [...]}`, the starred products in productId order (at most 1,000).
    @Sendable func list(request: Request, context: Context) async throws -> Response {
        let products = try await store.favorites()
        return JSONResponse.response(.object([.init("products", .array(products.map(\.jsonValue)))]))
    }

    /// `PUT /{productId}`: stars the product (204); 404 when there is no such product.
    @Sendable func star(request: Request, context: Context) async throws -> Response {
        try await store.setFavorite(try ProductIdPath.decode(from: context), true)
        return Response(status: .noContent)
    }

    /// `DELETE /{productId}`: unstars the product (204, also when it was not starred).
    @Sendable func unstar(request: Request, context: Context) async throws -> Response {
        try await store.setFavorite(try ProductIdPath.decode(from: context), false)
        return Response(status: .noContent)
    }
}
