import Hummingbird
import ProductCatalog

/// `/api/catalog`: what the page needs to know about the catalog as a whole.
struct CatalogController<Context: RequestContext> {
    let store: any CatalogEngine

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.getAndHead(use: summary)
        routes.getAndHead("types", use: types)
        routes.getAndHead("stores", use: stores)
        return routes
    }

    /// `GET`: `{"products": N, "handEditsSinceImport": N}`; the second is how many products
    /// were added, edited or deleted by hand since the last replacing import, which the next
    /// replacing import would undo.
    @Sendable func summary(request: Request, context: Context) async throws -> Response {
        let products = try await store.productCount()
        let edits = try await store.handEditsSinceImport()
        return JSONResponse.response(.object([.init("products", .int(products)), .init("handEditsSinceImport", .int(edits))]))
    }

    /// `GET /types`: `{"types": [...]}`, the product types in use, the most used first (at most 500).
    @Sendable func types(request: Request, context: Context) async throws -> Response {
        let types = try await store.productTypes()
        return JSONResponse.response(.object([.init("types", .array(types.map { .string($0) }))]))
    }

    /// `GET /stores`: `{"stores": [...]}`, the stores with at least one product in stock, by name
    /// (none for a catalog that keeps no stock by store).
    @Sendable func stores(request: Request, context: Context) async throws -> Response {
        let stores = try await store.stockKeeping?.stores() ?? []
        return JSONResponse.response(.object([.init("stores", .array(stores.map { .string($0) }))]))
    }
}
