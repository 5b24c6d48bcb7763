import ArgumentParser
import CatalogServer
import Hummingbird
import ProductCatalog

extension Catalog {
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serve the catalog as a web page and a JSON API.",
            discussion: """
                Open the printed address in a browser to search as you type, scroll through \
                the products, import a CSV file while watching its progress, and add, edit or \
                delete products. The JSON API is under /api (GET /api/schema lists what a search \
                takes; docs/server.md describes it all). The server listens on 127.0.0.1 only, unless --host says otherwise. \
                Stop it with Ctrl-C.

                With --db postgres://…, several servers, on one machine or many, can serve one \
                catalog: each reads and writes the same tables, and an import by any of them (or \
                by catalog import) shows in all at once. Uploaded pictures stay in the folder \
                catalog.images where the server runs.
                """)

        @OptionGroup var database: DatabaseOptions

        @Option(help: "The address to listen on; 0.0.0.0 lets other machines reach the page by this machine's address (a name needs --public-url).")
        var host = "127.0.0.1"

        @Option(help: "The port to listen on; 0 picks a free one.")
        var port = 8080

        @Option(help: ArgumentHelp(
            "The address people open the page at, when it is not --host's: a reverse proxy's (https://catalog.example.com) or a name of this machine (http://shop-pc:8080).",
            discussion: "Requests naming another host are refused (403), and changes are accepted only from the page at this address or at the one listened on.",
            valueName: "url"))
        var publicURL: String?

        @Option(help: "The largest CSV upload accepted, in bytes (default 1 GiB).")
        var maxUploadBytes = 1 << 30

        func validate() throws {
            guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
            guard maxUploadBytes > 0 else { throw ValidationError("--max-upload-bytes must be 1 or more.") }
            if let publicURL, ServedNames.origin(ofPublicURL: publicURL) == nil {
                throw ValidationError("--public-url must be an http:// or https:// address with no path, such as https://catalog.example.com; got \(publicURL).")
            }
        }

        func run() async throws {
            // A catalog that cannot be reached, or is not a catalog, is refused now rather than on the first request.
            let catalog = try database.catalog()
            try await catalog.checkOpenable()
            let shown = catalog.name
            var configuration = ServerConfiguration(
                catalog: catalog, host: host, port: port, maxUploadBytes: maxUploadBytes,
                onListening: { [publicURL] url in
                    let opened = publicURL.map { "people open it at \($0); " } ?? ""
                    Terminal.standardOutput.write("Serving \(shown) at \(url) (\(opened)press Ctrl-C to stop)\n")
                })
            // Each connection is a file descriptor; keep room for the catalog, uploads and pictures.
            configuration.publicURL = publicURL
            configuration.maxConnections = max(16, min(configuration.maxConnections, OpenFileLimit.raise() - 128))
            let app = try buildApplication(configuration)
            do {
                try await app.runService()
            } catch {
                await catalog.close()
                throw error
            }
            await catalog.close()
        }
    }
}
