import Foundation
import Hummingbird
import ProductCatalog

/// `/api/collections`: list, make and delete collections, and put products in a manual one or take them out.
struct CollectionsController<Context: RequestContext> {
    let store: any CatalogEngine
    /// Shared with every other route that reads a JSON body: the bodies in hand at once.
    let bodies: BodyBudget
    /// Where an uploaded collection file waits while it is imported.
    let workDirectory: String
    /// How long an upload may send nothing before it is dropped (408).
    let stallTimeout: Duration

    /// The catalog's collections; a 501 that says the catalog keeps none, when its engine does not.
    private var kept: any CollectionKeeping {
        get throws { try store.keptCollections() }
    }

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.getAndHead(use: list)
        routes.post(use: create)
        routes.post("import", use: importFile)
        routes.getAndHead("{name}", use: show)
        routes.delete("{name}", use: remove)
        // A collection may be named `import`: the file import's route would otherwise take its address.
        routes.getAndHead("import") { _, _ in try await show(name: "import") }
        routes.delete("import") { _, _ in try await remove(name: "import") }
        routes.post("{name}/products", use: addProducts)
        routes.delete("{name}/products", use: removeProducts)
        return routes
    }

    /// `GET`: `{"collections": [{"name", "kind": "manual"|"smart", "products", "search"}, …]}` by
    /// name; `search` is what `/api/products` takes to list the collection (`collection=Summer`,
    /// or a smart one's own `q=linen&sort=price`), and `products` a manual one's count (null for a smart one).
    @Sendable func list(request: Request, context: Context) async throws -> Response {
        let collections = try await kept.collections()
        return JSONResponse.response(.object([.init("collections", .array(collections.map(\.jsonValue)))]))
    }

    /// `GET /{name}`: one collection, or 404.
    @Sendable func show(request: Request, context: Context) async throws -> Response {
        try await show(name: try Self.name(from: context))
    }

    private func show(name: String) async throws -> Response {
        guard let collection = try await kept.collection(named: name) else { throw CollectionError.notFound(name: name) }
        return JSONResponse.response(collection.jsonValue)
    }

    /// `POST {"name": "Summer"}` makes a manual collection, with `"productIds": […]` put in it;
    /// `{"name": "Cheap linen", "search": "q=linen&maxPrice=20&sort=price"}` a smart one, with the
    /// parameters of `/api/products`. 201 with the collection; 409 when the name is taken.
    @Sendable func create(request: Request, context: Context) async throws -> Response {
        let body = try await body(CreateBody.self, of: request, context: context,
                                       example: #"{"name":"Summer","productIds":["AB-1"]} or {"name":"Cheap linen","search":"q=linen&maxPrice=20"}"#)
        var search: SavedSearch?
        if let text = body.search {
            let parameters = try SearchParameters(FormQuery(text.hasPrefix("?") ? String(text.dropFirst()) : text))
            guard parameters.filters.collection == nil else {
                throw APIError(.unprocessableContent, "A smart collection cannot search another collection.",
                               fields: ["search": "Leave out collection=."])
            }
            search = SavedSearch(text: parameters.text, byPrefix: parameters.byPrefix, filters: parameters.filters, sort: parameters.sort)
        }
        guard search == nil || (body.productIds ?? []).isEmpty else {
            throw APIError(.unprocessableContent, "A smart collection lists what its search finds; leave out productIds, or search.",
                           fields: ["productIds": "Leave out productIds for a smart collection."])
        }
        // Checked before the collection is made, so a refused list leaves no empty collection behind.
        let productIds = try Self.checked(body.productIds ?? [])
        var collection = try await kept.createCollection(body.name, search: search)
        if !productIds.isEmpty {
            _ = try await kept.changeCollection(collection.name, adding: productIds, removing: false)
            collection = try await kept.collection(named: collection.name) ?? collection
        }
        return JSONResponse.response(collection.jsonValue, status: .created,
                                     headers: [.location: "/api/collections/" + ProductIdPath.encode(collection.name)])
    }

    /// `POST /import?mode=upsert|replace` with a `collection,productId` CSV as the body (`text/csv`):
    /// puts its products into manual collections, made when missing (see ``CollectionImporter``;
    /// `replace` empties each collection the file names first), and answers the summary of
    /// `catalog collections import --json` with the first rejected rows' lines and reasons.
    @Sendable func importFile(request: Request, context: Context) async throws -> Response {
        try ContentType.requireUpload(request)
        let mode: ImportMode
        switch FormQuery(request.uri.query)["mode"] {
        case nil, "", "upsert": mode = .upsert
        case "replace": mode = .replace
        default: throw APIError(.badRequest, "mode is upsert (put the file's products in) or replace (each collection the file names holds exactly its products).",
                                fields: ["mode": "Use upsert or replace."])
        }
        // The file goes to disk as it arrives, so a client that stalls holds no memory.
        let path = workDirectory + "/collections-\(UInt64.random(in: 0...UInt64.max)).csv"
        let size = try await UploadFile.write(request.body, to: path, limit: Self.maxFileBytes, stallTimeout: stallTimeout,
                                              tooLarge: APIError(.contentTooLarge, "The file is larger than \(Self.maxFileBytes >> 20) MB; split it into several files."))
        // The answer lists the first rejected rows; the rejects file goes with the upload.
        defer {
            try? FileManager.default.removeItem(atPath: path)
            try? FileManager.default.removeItem(atPath: path + ".rejects.csv")
        }
        guard size > 0 else { throw APIError(.badRequest, "The file is empty; choose a CSV file with collection and productId columns.") }
        do {
            var summary = try await kept.importCollections(from: .file(path: path), mode: mode, rejectsPath: path + ".rejects.csv")
            summary.databasePath = store.nameForClients
            summary.rejectsPath = nil
            return JSONResponse.response(summary.jsonValue)
        } catch let error as ImportError {
            throw APIError(.unprocessableContent, error.pageMessage)
        }
    }

    /// The largest collection file the server reads in one request (about a million rows).
    static var maxFileBytes: Int { 64 << 20 }

    /// `DELETE /{name}`: deletes the collection (204); its products stay.
    @Sendable func remove(request: Request, context: Context) async throws -> Response {
        try await remove(name: try Self.name(from: context))
    }

    private func remove(name: String) async throws -> Response {
        try await kept.deleteCollection(name)
        return Response(status: .noContent)
    }

    /// `POST /{name}/products {"productIds": […]}`: puts the products in the manual collection:
    /// `{"changed": 2, "unknown": ["ZZ-9"], "collection": {…}}`, `unknown` the productIds the catalog lacks.
    @Sendable func addProducts(request: Request, context: Context) async throws -> Response {
        try await change(request: request, context: context, removing: false)
    }

    /// `DELETE /{name}/products {"productIds": […]}`: takes the products out, in the same shape.
    @Sendable func removeProducts(request: Request, context: Context) async throws -> Response {
        try await change(request: request, context: context, removing: true)
    }

    private func change(request: Request, context: Context, removing: Bool) async throws -> Response {
        let name = try Self.name(from: context)
        let body = try await body(ProductsBody.self, of: request, context: context, example: #"{"productIds":["AB-1","AB-2"]}"#)
        let change = try await kept.changeCollection(name, adding: try Self.checked(body.productIds), removing: removing)
        let collection = try await kept.collection(named: name)
        return JSONResponse.response(.object([
            .init("changed", .int(change.changed)),
            .init("unknown", .array(change.unknown.map(JSONValue.string))),
            .init("collection", collection?.jsonValue ?? .null),
        ]))
    }

    private struct CreateBody: Decodable {
        var name: String
        var search: String?
        var productIds: [String]?
    }

    private struct ProductsBody: Decodable {
        var productIds: [String]
    }

    /// At most ``CatalogEditor/maxBatchProducts`` productIds a request, as a batch takes.
    private static func checked(_ productIds: [String]) throws -> [String] {
        let limit = CatalogEditor.maxBatchProducts
        guard productIds.count <= limit else {
            throw APIError(.unprocessableContent, "A request names at most \(limit.formatted()) products; this one names \(productIds.count.formatted()). Send them in parts.",
                           fields: ["productIds": "Give at most \(limit.formatted()) productIds."])
        }
        return productIds
    }

    /// The `{name}` of the route, percent-decoded.
    private static func name(from context: Context) throws -> String {
        guard let raw = context.parameters.get("name"), let decoded = raw.removingPercentEncoding else {
            throw APIError(.badRequest, "The collection's name in the path is not valid percent-encoded UTF-8; encode it with encodeURIComponent.")
        }
        return decoded
    }

    /// The JSON body of `request` as `T`, read within the shared budget; 400 with `example` when it is not.
    private func body<T: Decodable & Sendable>(_ type: T.Type, of request: Request, context: Context, example: String) async throws -> T {
        try ContentType.requireJSON(request)
        return try await bodies.withBudget(bytes: ProductRequestBody.size(of: request, context: context)) {
            var request = request
            let buffer = try await request.collectBody(upTo: context.maxUploadSize)
            do {
                return try JSONDecoder().decode(T.self, from: Data(buffer.readableBytesView))
            } catch {
                throw APIError(.badRequest, "The body is not what this endpoint reads; send one such as \(example).")
            }
        }
    }
}
