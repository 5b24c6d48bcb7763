import Hummingbird
import ProductCatalog

/// `/api/export`: every product a search finds, as a CSV file or JSON, streamed.
struct ExportController<Context: RequestContext> {
    let store: any CatalogEngine

    /// Products read from the catalog and written at a time.
    static var batchSize: Int { 500 }

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.getAndHead(use: export)
        return routes
    }

    /// `GET ?q=` (or `prefix=`), the filters, `typos=` and `sort=` of `/api/products`, and
    /// `format=csv` (the default: the columns an import reads, so the file imports back unchanged)
    /// or `format=json` (`{"products":[…]}`): all the matches in the list's order, as a download.
    /// `spreadsheet=safe` (the page's download) escapes what a spreadsheet would run as a formula
    /// (see ``ProductExport/spreadsheetSafe``); the file still imports back unchanged.
    /// The products are read 500 at a time as the body is sent, so any number costs the same memory,
    /// all from one snapshot of the catalog (``CatalogSnapshot``): an import that swaps a new
    /// catalog in meanwhile does not mix into the file.
    @Sendable func export(request: Request, context: Context) async throws -> Response {
        let query = FormQuery(request.uri.query)
        let search = try await SearchParameters.read(query, in: store)
        let format: ExportFormat
        if let text = query["format"] {
            guard let value = ExportFormat(rawValue: text) else {
                throw APIError(.badRequest, "format must be csv or json.", fields: ["format": "Use csv or json."])
            }
            format = value
        } else {
            format = .csv
        }
        let spreadsheetSafe: Bool
        switch query["spreadsheet"] {
        case nil, "": spreadsheetSafe = false
        case "safe" where format == .csv: spreadsheetSafe = true
        default:
            throw APIError(.badRequest, "spreadsheet=safe is the one value, for a CSV export to open in a spreadsheet.",
                           fields: ["spreadsheet": "Use safe, with format=csv, or leave it out."])
        }
        // Every variant the search finds, whatever the list shows.
        let every = { var request = search.request; request.listing = .variants; return request }()
        // The first batch is read before answering, so that a search the catalog refuses is an error status.
        let snapshot = try await store.snapshot()
        let first: SearchPage
        do {
            first = try await snapshot.products(every, after: nil, limit: Self.batchSize)
        } catch {
            await snapshot.close()
            throw error
        }
        let headers: HTTPFields = [
            .contentType: format.contentType,
            .contentDisposition: "attachment; filename=\"products.\(format.rawValue)\"",
            .cacheControl: "no-store",
        ]
        // A HEAD answer has no body to read the rest into.
        if request.method == .head {
            await snapshot.close()
            return Response(status: .ok, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            var export = ProductExport(format: format, spreadsheetSafe: spreadsheetSafe)
            do {
                var page = first
                while true {
                    try await writer.write(ByteBuffer(bytes: export.encode(page.products)))
                    guard let cursor = page.nextCursor else { break }
                    page = try await snapshot.products(every, after: cursor, limit: Self.batchSize)
                }
                await snapshot.close()
            } catch {
                await snapshot.close()
                throw error
            }
            try await writer.write(ByteBuffer(bytes: export.finish()))
            try await writer.finish(nil)
        })
    }
}
