import HTTPTypes
import Hummingbird

/// The web page: its HTML, style sheet and script modules, compiled into the binary (no CDN, no files beside it).
struct PageController<Context: RequestContext> {
    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.getAndHead { _, _ in Self.asset(PackageResources.index_html, type: "text/html; charset=utf-8") }
        routes.getAndHead("app.css") { _, _ in Self.asset(PackageResources.app_css, type: "text/css; charset=utf-8") }
        for (name, bytes) in Self.scripts {
            routes.getAndHead(RouterPath(name)) { _, _ in Self.asset(bytes, type: "text/javascript; charset=utf-8") }
        }
        routes.getAndHead("sw.js") { _, _ in Self.asset(Self.serviceWorker, type: "text/javascript; charset=utf-8") }
        return routes
    }

    /// The page's files, which the service worker keeps so that the page loads without the server.
    static var shellFiles: [String] {
        ["/", "/app.css"] + scripts.map { "/" + $0.0 }
    }

    /// `sw.js`, told which files are the page's.
    static var serviceWorker: [UInt8] {
        let list = shellFiles.map { "\"\($0)\"" }.joined(separator: ", ")
        return Array("self.SHELL_FILES = [\(list)];\n".utf8) + PackageResources.sw_js
    }

    /// The page's script modules by file name; `app.js` is the entry point and imports the others.
    static var scripts: [(String, [UInt8])] {
        [
            ("address.js", PackageResources.address_js),
            ("api.js", PackageResources.api_js),
            ("app.js", PackageResources.app_js),
            ("bulk.js", PackageResources.bulk_js),
            ("collections.js", PackageResources.collections_js),
            ("columns.js", PackageResources.columns_js),
            ("connection.js", PackageResources.connection_js),
            ("detail.js", PackageResources.detail_js),
            ("dialogs.js", PackageResources.dialogs_js),
            ("elements.js", PackageResources.elements_js),
            ("editor.js", PackageResources.editor_js),
            ("facets.js", PackageResources.facets_js),
            ("favorites.js", PackageResources.favorites_js),
            ("fields.js", PackageResources.fields_js),
            ("formats.js", PackageResources.formats_js),
            ("images.js", PackageResources.images_js),
            ("importer.js", PackageResources.importer_js),
            ("keys.js", PackageResources.keys_js),
            ("list.js", PackageResources.list_js),
            ("messages.js", PackageResources.messages_js),
            ("outbox.js", PackageResources.outbox_js),
            ("pills.js", PackageResources.pills_js),
            ("remove.js", PackageResources.remove_js),
            ("schema.js", PackageResources.schema_js),
            ("selection.js", PackageResources.selection_js),
            ("sorting.js", PackageResources.sorting_js),
            ("state.js", PackageResources.state_js),
        ]
    }

    /// Only this server's own files run; images may come from any http(s) address or a data: URL;
    /// no other page may frame this one (see ``FramingGuard``).
    static var contentSecurityPolicy: String {
        "default-src 'self'; img-src 'self' data: http: https:; style-src 'self'; script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    }

    private static func asset(_ bytes: [UInt8], type: String) -> Response {
        Response(status: .ok, headers: [
            .contentType: type,
            .cacheControl: "no-cache",
            .contentSecurityPolicy: contentSecurityPolicy,
            .xContentTypeOptions: "nosniff",
        ], body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

extension HTTPField.Name {
    static var contentSecurityPolicy: Self { Self("Content-Security-Policy")! }
    static var xContentTypeOptions: Self { Self("X-Content-Type-Options")! }
}
