import Foundation
import Hummingbird
import ProductCatalog

/// Product images uploaded from the page: stored in a folder beside the catalog and served from it.
///
/// `PUT /api/products/{productId}/image` with a JPEG or PNG body (the page crops it to a square)
/// stores the file as `<catalog>.images/<random>.jpg` and sets the product's `imageURL` to
/// `/images/<name>`, which `GET /images/{name}` serves. A picture is deleted when its product
/// gets another one, an edit changes its address, or the product is deleted.
struct ImagesController<Context: RequestContext> {
    let store: any CatalogEngine
    /// The folder the images are kept in.
    let folder: String

    /// The largest image accepted.
    static var maxBytes: Int { 5 << 20 }
    /// Where the served images are, as `imageURL` names them.
    static var urlPrefix: String { "/images/" }

    init(store: any CatalogEngine) {
        self.store = store
        folder = store.imagesFolder
    }

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
    /// 415 unless the body is labelled and shaped as a JPEG or PNG, 413 past 5 MiB, 404 without the product.
    @Sendable func upload(request: Request, context: Context) async throws -> Response {
        let productId = try ProductIdPath.decode(from: context)
        guard let kind = ImageKind(contentType: request.headers[.contentType]) else {
            throw APIError(.unsupportedMediaType, "Send a JPEG or PNG image with the header Content-Type: image/jpeg or image/png.")
        }
        guard var product = try await store.product(id: productId) else {
            throw APIError(.notFound, "No product has productId \"\(productId)\".")
        }
        var bytes: [UInt8] = []
        for try await buffer in request.body {
            bytes += buffer.readableBytesView
            guard bytes.count <= Self.maxBytes else {
                throw APIError(.contentTooLarge, "The image is larger than 5 MB; choose a smaller one.")
            }
        }
        guard kind.matches(bytes) else {
            throw APIError(.unsupportedMediaType, "The file is not a \(kind.name) image; choose a JPEG or PNG file.")
        }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let name = (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined() + "." + kind.fileExtension
        guard FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(bytes)) else {
            throw APIError(.internalServerError, "The server could not store the image in \((folder as NSString).lastPathComponent); see the server's output.")
        }
        let previous = product.imageURL
        product.imageURL = Self.urlPrefix + name
        let stored: Product
        do {
            stored = try await store.replace(productId: product.productId, with: product)
        } catch {
            try? FileManager.default.removeItem(atPath: folder + "/" + name)
            throw error
        }
        Self.discard(previous, in: folder)
        return JSONResponse.response(stored.jsonValue)
    }

    /// Serves a stored image; its name never changes content, so browsers may keep it.
    @Sendable func file(request: Request, context: Context) async throws -> Response {
        guard let name = context.parameters.get("name"), let kind = Self.storedName(Self.urlPrefix + name).flatMap(ImageKind.init(fileName:)) else {
            throw APIError(.notFound, "No image is stored under that name.")
        }
        let path = folder + "/" + name
        guard FileManager.default.fileExists(atPath: path) else { throw APIError(.notFound, "No image is stored under that name.") }
        let body = try await FileIO().loadFile(path: path, context: context)
        return Response(status: .ok, headers: [
            .contentType: kind.mediaType,
            .cacheControl: "public, max-age=31536000, immutable",
            .xContentTypeOptions: "nosniff",
        ], body: body)
    }

    /// Deletes the stored picture `imageURL` names, if it names one: its product no longer uses it.
    static func discard(_ imageURL: String?, in folder: String) {
        guard let imageURL, let name = storedName(imageURL) else { return }
        try? FileManager.default.removeItem(atPath: folder + "/" + name)
    }

    /// The file name in an `imageURL` this server gave out, or nil for any other address.
    static func storedName(_ imageURL: String) -> String? {
        guard imageURL.hasPrefix(urlPrefix) else { return nil }
        let name = imageURL.dropFirst(urlPrefix.count)
        let parts = name.split(separator: ".")
        guard parts.count == 2, parts[0].count == 32, parts[0].allSatisfy(\.isHexDigit), ["jpg", "png"].contains(parts[1]) else { return nil }
        return String(name)
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
