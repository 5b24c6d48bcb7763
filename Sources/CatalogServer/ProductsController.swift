import Hummingbird
import ProductCatalog

/// `/api/products`: search a page at a time, read one product, add, edit and delete.
struct ProductsController<Context: RequestContext> {
    let store: any CatalogEngine
    /// Shared by every add and edit: the JSON bodies in hand at once.
    let bodies: BodyBudget
    /// The stored pictures, swept after a change that may let go of one.
    let pictures: PictureFolder

    /// The largest page a client may ask for.
    static var maxLimit: Int { 100 }

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.getAndHead(use: list)
        routes.post(use: add)
        routes.post("batch", use: batch)
        routes.getAndHead("{productId}", use: show)
        routes.getAndHead("{productId}/variants", use: variants)
        routes.getAndHead("{productId}/stock", use: stock)
        routes.put("{productId}", use: edit)
        routes.delete("{productId}", use: remove)
        return routes
    }

    /// `GET ?q=&after=&limit=` (or `prefix=` for productId prefixes alone), with the filters of
    /// ``SearchParameters``: the page shape of `catalog search --json` plus `count`, the matches in
    /// all, and `countComplete`: false when a `q` with words matches more than 10,000 and `count`
    /// stopped there (or stopped earlier, a lower bound); and `queryTruncated: true` when `q` has
    /// more than 10 words, of which the first were used; and `stock`, the stores of the page's
    /// products that have stock by store, by productId (`{"A-1": [{"store": …, "quantity": …}]}`).
    ///
    /// The query is form-encoded, as browsers send it: `q=a+b` looks for `a b`, `q=a%2Bb` for `a+b`.
    @Sendable func list(request: Request, context: Context) async throws -> Response {
        let query = FormQuery(request.uri.query)
        let search = try await SearchParameters.read(query, in: store)
        var limit = ProductSearch.defaultPageSize
        if let text = query["limit"] {
            guard let value = Int(text), (1...Self.maxLimit).contains(value) else {
                throw APIError(.badRequest, "limit must be a whole number from 1 to \(Self.maxLimit).",
                               fields: ["limit": "Use a whole number from 1 to \(Self.maxLimit)."])
            }
            limit = value
        }
        var cursor: KeysetCursor?
        if let text = query["after"], !text.isEmpty {
            guard let value = KeysetCursor(text) else {
                throw APIError(.badRequest, "after is not a cursor from this API; pass nextCursor back unchanged.",
                               fields: ["after": "Pass the nextCursor of the previous page unchanged."])
            }
            cursor = value
        }
        let (page, count, complete) = try await store.page(search.request, after: cursor, limit: limit)
        guard case .object(var members) = page.jsonValue else { return JSONResponse.response(page.jsonValue) }
        members.append(.init("count", .int(count)))
        members.append(.init("countComplete", .bool(complete)))
        if page.countIsEstimate { members.append(.init("countEstimated", .bool(true))) }
        members.append(.init("counts", .string(search.listing == .families ? "families" : "variants")))
        if search.isTruncated { members.append(.init("queryTruncated", .bool(true))) }
        let stock = try await store.stockKeeping?.stock(of: page.products.map(\.productId)) ?? [:]
        if !stock.isEmpty { members.append(.init("stock", StoreQuantity.jsonValue(stock))) }
        return JSONResponse.response(.object(members))
    }

    /// `GET /{productId}/stock`: `{"stock": [{"store": "Berlin", "quantity": 4}, …]}`, the product's
    /// quantity at each store, by store (empty when it has none); 404 without the product.
    @Sendable func stock(request: Request, context: Context) async throws -> Response {
        let productId = try ProductIdPath.decode(from: context)
        guard let product = try await store.product(id: productId) else {
            throw APIError(.notFound, "No product has productId \"\(productId)\".")
        }
        let stock = try await store.stockKeeping?.stock(of: [product.productId])[product.productId] ?? []
        return JSONResponse.response(.object([.init("stock", .array(stock.map(\.jsonValue)))]))
    }

    /// `GET /{productId}/variants`: `{"products": [...]}`, the products of its family (same
    /// `groupId`, itself included, in productId order, at most 500), each with its options, or only
    /// itself without a groupId, and `stock` as ``list(request:context:)`` gives it; 404 without the product.
    @Sendable func variants(request: Request, context: Context) async throws -> Response {
        let productId = try ProductIdPath.decode(from: context)
        guard let products = try await store.variants(of: productId) else {
            throw APIError(.notFound, "No product has productId \"\(productId)\".")
        }
        var members: [JSONValue.Member] = [.init("products", .array(products.map(\.jsonValue)))]
        let stock = try await store.stockKeeping?.stock(of: products.map(\.productId)) ?? [:]
        if !stock.isEmpty { members.append(.init("stock", StoreQuantity.jsonValue(stock))) }
        return JSONResponse.response(.object(members))
    }

    /// `GET /{productId}`: one product, or 404.
    @Sendable func show(request: Request, context: Context) async throws -> Response {
        let productId = try ProductIdPath.decode(from: context)
        guard let product = try await store.product(id: productId) else {
            throw APIError(.notFound, "No product has productId \"\(productId)\".")
        }
        return JSONResponse.response(product.jsonValue)
    }

    /// `POST`: adds the product in the body; 201 with the stored product, 422 per field, 409 when the productId is taken.
    @Sendable func add(request: Request, context: Context) async throws -> Response {
        try await bodies.withBudget(bytes: ProductRequestBody.size(of: request, context: context)) {
            let draft = try await ProductRequestBody.draft(from: request, context: context)
            let product = try validated(draft)
            let stored = try await store.add(product)
            return JSONResponse.response(stored.jsonValue, status: .created, headers: [.location: ProductIdPath.url(of: stored.productId)])
        }
    }

    /// `PUT /{productId}`: replaces the product's fields (and its productId, when the body gives a new one).
    @Sendable func edit(request: Request, context: Context) async throws -> Response {
        let productId = try ProductIdPath.decode(from: context)
        return try await bodies.withBudget(bytes: ProductRequestBody.size(of: request, context: context)) {
            var draft = try await ProductRequestBody.draft(from: request, context: context)
            if draft.values[.productId] == nil {
                // Keep the id exactly as stored, whatever case the path used.
                guard let current = try await store.product(id: productId) else {
                    throw APIError(.notFound, "No product has productId \"\(productId)\".")
                }
                draft[.productId] = current.productId
            }
            let product = try validated(draft)
            let previous = try await store.product(id: productId)?.imageURL
            let stored = try await store.replace(productId: productId, with: product)
            if previous != stored.imageURL, previous.flatMap(PictureFolder.storedName) != nil { await pictures.sweepSoon() }
            return JSONResponse.response(stored.jsonValue)
        }
    }

    /// `POST /batch`: one change for up to 1,000 products at once (see ``BatchRequestBody``), in one
    /// transaction: `{"changed":N,"changedIds":[…],"refused":[{"productId":…,"message":…,"fields":{…}}],
    /// "replaced":[{"productId":…,"fields":{"color":"Gray"}}]}`, the refused left as they were;
    /// `fields` of a refusal names each field that broke a rule, and `replaced` (for `set`) gives
    /// what each changed product had, which a `set` of the same texts restores. Stored pictures no
    /// product shows any more go at the next sweep.
    @Sendable func batch(request: Request, context: Context) async throws -> Response {
        try await bodies.withBudget(bytes: ProductRequestBody.size(of: request, context: context)) {
            let (change, productIds) = try await BatchRequestBody.read(from: request, context: context)
            let outcome = try await store.apply(change, to: productIds)
            if !outcome.changed.isEmpty { await pictures.sweepSoon() }
            return JSONResponse.response(.object([
                .init("changed", .int(outcome.changed.count)),
                .init("changedIds", .array(outcome.changed.map(JSONValue.string))),
                .init("refused", .array(outcome.refused.map { refusal in
                    let error = APIError(refusal.error)
                    return .object([.init("productId", .string(refusal.productId)), .init("message", .string(error.message)), .init("fields", Self.texts(error.fields))])
                })),
                .init("replaced", .array(outcome.changed.compactMap { productId in
                    outcome.replaced[productId].map {
                        .object([.init("productId", .string(productId)), .init("fields", Self.texts(Dictionary(uniqueKeysWithValues: $0.map { ($0.key.rawValue, $0.value) })))])
                    }
                })),
            ]))
        }
    }

    /// `DELETE /{productId}`: 204, or 404 when there is no such product; its stored picture goes
    /// at the next sweep, unless another product shows it too.
    @Sendable func remove(request: Request, context: Context) async throws -> Response {
        let productId = try ProductIdPath.decode(from: context)
        let imageURL = try await store.product(id: productId)?.imageURL
        try await store.delete(productId: productId)
        if imageURL.flatMap(PictureFolder.storedName) != nil { await pictures.sweepSoon() }
        return Response(status: .noContent)
    }

    /// `{"name":"text",…}`, the names in order.
    private static func texts(_ values: [String: String]) -> JSONValue {
        .object(values.sorted { $0.key < $1.key }.map { .init($0.key, .string($0.value)) })
    }

    private func validated(_ draft: ProductDraft) throws -> Product {
        do {
            return try ProductValidation.product(from: draft)
        } catch {
            throw APIError(EditError.invalid(error))
        }
    }
}
