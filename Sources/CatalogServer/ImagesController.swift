import Foundation
import Hummingbird
import ProductCatalog

/// Product images uploaded from the page: stored in a folder beside the catalog and served from it.
///
/// `PUT /api/products/{productId}/image` with a JPEG or PNG body (the page crops it to a square)
/// streams the file into `<catalog>.images/<random>.jpg` (see ``PictureFolder``) and sets the
/// product's `imageURL` to `/images/<name>`, which `GET /images/{name}` serves. A picture is
/// deleted once no product names it any more.
struct ImagesController<Context: RequestContext> {
    let store: any CatalogEngine
    let pictures: PictureFolder
    /// How long an upload may send nothing before it is dropped (408).
    let stallTimeout: Duration

    /// The largest image accepted.
    static var maxBytes: Int { 5 << 20 }

    /// `PUT {productId}/image`, to add at `/api/products`.
    var uploads: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.put("{productId}/image", use: upload)
        return routes
    }

    /// `GET {name}`, to add at `/images`.
    var files: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.getAndHead("{name}", use: file)
        return routes
    }

    /// Stores the body as the product's image and answers with the product as now stored.
    ///
    /// 415 unless the body is labelled and shaped as a JPEG or PNG, 413 past 5 MiB, 404 without
    /// the product, 507 when the server's disk is full. The body goes to the file as it arrives:
    /// only a buffer of it is in memory at a time.
    @Sendable func upload(request: Request, context: Context) async throws -> Response {
        let productId = try ProductIdPath.decode(from: context)
        guard let kind = ImageKind(contentType: request.headers[.contentType]) else {
            throw APIError(.unsupportedMediaType, "Send a JPEG or PNG image with the header Content-Type: image/jpeg or image/png.")
        }
        guard var product = try await store.product(id: productId) else {
            throw APIError(.notFound, "No product has productId \"\(productId)\".")
        }
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > Self.maxBytes {
            throw APIError(.contentTooLarge, "The image is larger than 5 MB; choose a smaller one.")
        }
        let name = try await pictures.receive(request.body, kind: kind, maxBytes: Self.maxBytes, stallTimeout: stallTimeout)
        product.imageURL = PictureFolder.urlPrefix + name
        let stored: Product
        do {
            stored = try await store.replace(productId: product.productId, with: product)
        } catch {
            await pictures.saved(name)
            throw error
        }
        // The picture it had before goes at the sweep, unless another product shows it too.
        await pictures.saved(name)
        return JSONResponse.response(stored.jsonValue)
    }

    /// Serves a stored image; its name never changes content, so browsers may keep it.
    @Sendable func file(request: Request, context: Context) async throws -> Response {
        guard let name = context.parameters.get("name"), let kind = PictureFolder.storedName(PictureFolder.urlPrefix + name).flatMap(ImageKind.init(fileName:)) else {
            throw APIError(.notFound, "No image is stored under that name.")
        }
        let path = pictures.path + "/" + name
        guard FileManager.default.fileExists(atPath: path) else { throw APIError(.notFound, "No image is stored under that name.") }
        let body = try await FileIO().loadFile(path: path, context: context)
        return Response(status: .ok, headers: [
            .contentType: kind.mediaType,
            .cacheControl: "public, max-age=31536000, immutable",
            .xContentTypeOptions: "nosniff",
        ], body: body)
    }
}

/// The image types the page may upload, known by media type, file extension and first bytes.
enum ImageKind {
    case jpeg, png

    init?(contentType: String?) {
        switch contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() {
        case "image/jpeg": self = .jpeg
        case "image/png": self = .png
        default: return nil
        }
    }

    init?(fileName: String) {
        if fileName.hasSuffix(".jpg") { self = .jpeg } else if fileName.hasSuffix(".png") { self = .png } else { return nil }
    }

    var name: String { self == .jpeg ? "JPEG" : "PNG" }
    var mediaType: String { self == .jpeg ? "image/jpeg" : "image/png" }
    var fileExtension: String { self == .jpeg ? "jpg" : "png" }

    /// True when `bytes` start as this kind's files do.
    func matches(_ bytes: [UInt8]) -> Bool {
        switch self {
        case .jpeg: bytes.starts(with: [0xFF, 0xD8, 0xFF])
        case .png: bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        }
    }
}
