import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import ProductCatalog

/// Builds the `catalog serve` application: the page, the JSON API, and the actors behind them.
///
/// ```swift
/// let app = try buildApplication(ServerConfiguration(catalog: SQLiteCatalog(databasePath: "catalog.sqlite")))
/// try await app.runService()
/// ```
public func buildApplication(_ configuration: ServerConfiguration) throws -> some ApplicationProtocol {
    // Uploads and rejects files go to the folder given, or to a temporary one removed at shutdown.
    if configuration.workDirectory == nil { TemporaryFolder.removeAbandoned(prefix: "catalog-serve") }
    let temporary = try configuration.workDirectory == nil ? TemporaryFolder(prefix: "catalog-serve") : nil
    let workDirectory = configuration.workDirectory ?? temporary?.path ?? ""
    let store = configuration.catalog
    let imports = ImportCoordinator(workDirectory: workDirectory, store: store, progressInterval: configuration.progressInterval)
    let router = buildRouter(
        store: store, imports: imports, maxUploadBytes: configuration.maxUploadBytes,
        names: ServedNames(listeningOn: configuration.host, publicURL: configuration.publicURL),
        uploadStallTimeout: configuration.uploadStallTimeout)
    var logger = Logger(label: "catalog-serve")
    logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .notice
    let host = configuration.host
    let onListening = configuration.onListening
    let connections = ConnectionRegistry(limit: configuration.maxConnections, headTimeout: configuration.headTimeout)
    return Application(
        router: router,
        server: .http1(configuration: .init(
            additionalChannelHandlers: [MalformedRequestHandler(), ConnectionGuard(registry: connections)],
            idleTimeout: .nanoseconds(configuration.idleTimeout.nanoseconds))),
        configuration: .init(
            address: .hostname(host, port: configuration.port), serverName: "catalog",
            availableConnectionsDelegate: MaximumAvailableConnections(connections.limit)),
        services: temporary.map { [$0] } ?? [],
        onServerRunning: { channel in
            Task {
                await store.warmUp()
                // Pictures no product shows any more (left by imports of other programs, or a stopped server).
                await imports.pictures.sweepSoon()
            }
            let port = channel.localAddress?.port ?? configuration.port
            onListening?("http://\(host.contains(":") ? "[\(host)]" : host):\(port)/")
        },
        logger: logger)
}

/// The routes of `catalog serve` over `store` and `imports`, every error answered as JSON.
///
/// `names` are the host names requests may name and the page's origin; see ``SameOriginGuard``.
public func buildRouter(
    store: any CatalogEngine, imports: ImportCoordinator, maxUploadBytes: Int,
    names: ServedNames = ServedNames(listeningOn: "127.0.0.1"), uploadStallTimeout: Duration = .seconds(30)
) -> Router<BasicRequestContext> {
    let router = Router(context: BasicRequestContext.self)
    router.add(middleware: FramingGuard())
    router.add(middleware: HeadMiddleware())
    router.add(middleware: JSONErrorMiddleware())
    router.add(middleware: SameOriginGuard(names: names))
    router.add(middleware: EditGate(imports: imports))
    router.addRoutes(PageController().endpoints)
    // Four of the largest JSON bodies at a time: decoding one takes up to 15 times its size.
    let bodies = BodyBudget(capacity: 4 * ProductRequestBody.maxBytes)
    router.addRoutes(ProductsController(store: store, bodies: bodies, pictures: imports.pictures).endpoints, atPath: "/api/products")
    let images = ImagesController<BasicRequestContext>(store: store, pictures: imports.pictures, stallTimeout: uploadStallTimeout)
    router.addRoutes(images.uploads, atPath: "/api/products")
    router.addRoutes(images.files, atPath: "/images")
    router.addRoutes(FacetsController(store: store).endpoints, atPath: "/api/facets")
    router.addRoutes(ExportController(store: store).endpoints, atPath: "/api/export")
    router.addRoutes(FavoritesController(store: store).endpoints, atPath: "/api/favorites")
    router.addRoutes(CollectionsController(store: store, bodies: bodies, workDirectory: imports.workDirectory, stallTimeout: uploadStallTimeout).endpoints,
                     atPath: "/api/collections")
    router.addRoutes(CatalogController(store: store).endpoints, atPath: "/api/catalog")
    router.addRoutes(SchemaController(store: store).endpoints, atPath: "/api/schema")
    router.addRoutes(
        ImportsController(imports: imports, maxUploadBytes: maxUploadBytes, uploadStallTimeout: uploadStallTimeout).endpoints,
        atPath: "/api/imports")
    return router
}

extension Duration {
    /// The duration in whole nanoseconds.
    var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
