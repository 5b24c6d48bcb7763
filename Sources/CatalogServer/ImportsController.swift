import Foundation
import Hummingbird
import ProductCatalog

/// `/api/imports`: upload a CSV to replace or update the catalog (or its stock by store), follow the import live, download its rejects.
struct ImportsController<Context: RequestContext> {
    let imports: ImportCoordinator
    let maxUploadBytes: Int
    /// How long an upload may send nothing before it is dropped (408) and the import slot freed.
    let uploadStallTimeout: Duration

    var endpoints: RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        routes.post(use: upload)
        routes.post("preview", use: preview)
        routes.getAndHead("{id}", use: status)
        routes.getAndHead("{id}/events", use: events)
        routes.getAndHead("{id}/rejects", use: rejects)
        return routes
    }

    /// `POST ?mode=replace|upsert[&deleteMissing=true]` with the CSV as the body: 202 and the
    /// import's record. `deleteMissing` (upsert only) deletes the products the file does not list,
    /// at most `maxDeletes` of them (`250` or `25%`; a tenth of the catalog by default).
    /// `maxErrors` (1,000 by default) and `allowEmpty=true` are the command line's `--max-errors`
    /// and `--allow-empty`, for products and stock alike.
    /// `kind=stock` imports a local inventory file into the stock by store instead (see
    /// ``StockImporter``; `mode` replaces the stock or changes the pairs the file names).
    ///
    /// 409 while another import runs, 413 past the size limit, 415 unless the body is labelled
    /// as CSV (`text/csv`), which other web sites cannot send without the server's consent.
    @Sendable func upload(request: Request, context: Context) async throws -> Response {
        try ContentType.requireUpload(request)
        let mode: ImportMode
        switch FormQuery(request.uri.query)["mode"] {
        case nil, "", "replace": mode = .replace
        case "upsert": mode = .upsert
        default: throw APIError(.badRequest, "mode is replace (the file becomes the catalog) or upsert (the file's products are added or updated).",
                                fields: ["mode": "Use replace or upsert."])
        }
        let deleteMissing: Bool
        switch FormQuery(request.uri.query)["deleteMissing"] {
        case nil, "", "false": deleteMissing = false
        case "true" where mode == .upsert: deleteMissing = true
        case "true":
            throw APIError(.badRequest, "deleteMissing needs mode=upsert: a replacing import already makes the catalog equal to the file.",
                           fields: ["deleteMissing": "Leave it out, or send mode=upsert with it."])
        default:
            throw APIError(.badRequest, "deleteMissing is true or false.", fields: ["deleteMissing": "Use true or false."])
        }
        var limits = ImportLimits()
        if let text = FormQuery(request.uri.query)["maxDeletes"] {
            guard deleteMissing else {
                throw APIError(.badRequest, "maxDeletes limits deleteMissing; send deleteMissing=true with it, or leave it out.",
                               fields: ["maxDeletes": "Leave it out, or send deleteMissing=true."])
            }
            guard let limit = DeleteLimit(text) else {
                throw APIError(.badRequest, "maxDeletes is a number of products (250) or a share of the catalog (25%).",
                               fields: ["maxDeletes": "Use a number such as 250, or a share such as 25%."])
            }
            limits.maxDeletes = limit
        }
        switch FormQuery(request.uri.query)["allowEmpty"] {
        case nil, "", "false": break
        case "true": limits.allowEmpty = true
        default: throw APIError(.badRequest, "allowEmpty is true or false.", fields: ["allowEmpty": "Use true or false."])
        }
        if let text = FormQuery(request.uri.query)["maxErrors"] {
            guard let count = Int(text), count >= 0 else {
                throw APIError(.badRequest, "maxErrors is a whole number of rejected rows, 0 or more.", fields: ["maxErrors": "Use a whole number such as 1000."])
            }
            limits.maxErrors = count
        }
        let stock: Bool
        switch FormQuery(request.uri.query)["kind"] {
        case nil, "", "products": stock = false
        case "stock" where !deleteMissing: stock = true
        case "stock":
            throw APIError(.badRequest, "deleteMissing is for products; a stock import with mode=replace already makes the stock the file's.",
                           fields: ["deleteMissing": "Leave it out for kind=stock."])
        default:
            throw APIError(.badRequest, "kind is products (the default) or stock (a local inventory file: each product's quantity at each store).",
                           fields: ["kind": "Use products or stock."])
        }
        if stock { _ = try imports.keptStock() }
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > maxUploadBytes {
            throw UploadFile.tooLarge(limit: maxUploadBytes)
        }
        // A stock import replaces no products: edits wait only while it writes (the import lock), not while it uploads.
        let id = try await imports.reserve(mode: stock ? .upsert : mode)
        do {
            let size = try await UploadFile.write(
                request.body, to: imports.uploadPath(for: id), limit: maxUploadBytes, stallTimeout: uploadStallTimeout)
            guard size > 0 else {
                throw APIError(.badRequest, "The file is empty; choose a CSV file with a header line and products.")
            }
        } catch {
            await imports.abandonUpload(id)
            throw error
        }
        let started = stock ? await imports.startStock(id, mode: mode, limits: limits)
            : await imports.start(id, mode: mode, deletingMissing: deleteMissing, limits: limits)
        guard let record = started else { throw APIError(.internalServerError, "Import \(id) vanished before it started.") }
        return JSONResponse.response(record.jsonValue, status: .accepted, headers: [.location: "/api/imports/\(id)"])
    }

    /// `POST /preview` with (the start of) a CSV: what an import of it would do, from its first megabyte.
    ///
    /// The same JSON as `catalog inspect --json`: format, key, each field's source, the first
    /// products as they would be stored and the first rejects. Nothing is written to the catalog.
    @Sendable func preview(request: Request, context: Context) async throws -> Response {
        try ContentType.requireUpload(request)
        // The start of the file goes to disk as it arrives: a client that stalls holds no memory.
        let path = imports.workDirectory + "/preview-\(UInt64.random(in: 0...UInt64.max)).csv"
        let size = try await UploadFile.write(request.body, to: path, limit: Self.previewBytes, stallTimeout: uploadStallTimeout,
                                              keepingFirst: Self.previewBytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        guard size > 0 else {
            throw APIError(.badRequest, "The file is empty; choose a CSV file with a header line and products.")
        }
        // The last line may be cut short: keep whole lines only.
        if size >= Self.previewBytes { try Self.cutAfterLastLine(path) }
        // A local inventory file is named beside (or, when it reads as no product file, instead of) the products' preview.
        let stock: JSONValue = (try? FileByteSource(path: path)).flatMap { StockImporter.recognise(source: $0) }
            .map { .object(["format": .string($0.rawValue), "formatName": .string($0.displayName)]) } ?? .null
        // So is a collection file (`collection,productId` rows).
        let collections = (try? FileByteSource(path: path)).map { CollectionImporter.recognises(source: $0) } ?? false
        do {
            let preview = try ImportPreview(source: try FileByteSource(path: path))
            guard case .object(var members) = preview.jsonValue else { return JSONResponse.response(preview.jsonValue) }
            members.append(.init("stock", stock))
            members.append(.init("collections", .bool(collections)))
            return JSONResponse.response(.object(members))
        } catch let error as ImportError {
            guard stock != .null || collections else { throw APIError(.unprocessableContent, error.pageMessage) }
            return JSONResponse.response(.object(["stock": stock, "collections": .bool(collections), "productsError": .string(error.pageMessage)]))
        }
    }

    /// How much of an upload a preview reads.
    static var previewBytes: Int { 1 << 20 }

    /// Truncates the file at `path` after its last line end, if it has one.
    private static func cutAfterLastLine(_ path: String) throws {
        guard let handle = FileHandle(forUpdatingAtPath: path) else { return }
        defer { try? handle.close() }
        let bytes = try handle.readToEnd() ?? Data()
        guard let newline = bytes.lastIndex(of: 0x0A) else { return }
        try handle.truncate(atOffset: UInt64(newline - bytes.startIndex + 1))
    }

    /// `GET /{id}`: where the import stands and its newest counters.
    @Sendable func status(request: Request, context: Context) async throws -> Response {
        JSONResponse.response(try await record(context).jsonValue)
    }

    /// `GET /{id}/events`: Server-Sent Events, the newest snapshot first, ending with `finished` or `failed`.
    @Sendable func events(request: Request, context: Context) async throws -> Response {
        let id = try await record(context).id
        guard let stream = await imports.events(id) else { throw Self.unknown(id) }
        let headers: HTTPFields = [
            .contentType: "text/event-stream; charset=utf-8",
            .cacheControl: "no-store",
        ]
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            for await numbered in stream {
                try await writer.write(ByteBuffer(string: numbered.event.serverSentEvent(id: numbered.number)))
            }
            try await writer.finish(nil)
        })
    }

    /// `GET /{id}/rejects`: the rejected rows as CSV, with their line numbers and reasons.
    @Sendable func rejects(request: Request, context: Context) async throws -> Response {
        let record = try await record(context)
        guard record.hasRejects else {
            throw APIError(.notFound, "Import \(record.id) has no rejected rows\(record.isOver ? "" : " yet; it is still running").")
        }
        let body = try await FileIO().loadFile(path: imports.rejectsPath(for: record.id), context: context)
        return Response(status: .ok, headers: [
            .contentType: "text/csv; charset=utf-8",
            .contentDisposition: "attachment; filename=\"import-\(record.id)-rejects.csv\"",
        ], body: body)
    }

    private func record(_ context: Context) async throws -> ImportRecord {
        guard let id = context.parameters.get("id", as: Int.self) else {
            throw APIError(.notFound, "Import ids are whole numbers, as returned by POST /api/imports.")
        }
        guard let record = await imports.record(id) else { throw Self.unknown(id) }
        return record
    }

    private static func unknown(_ id: Int) -> APIError {
        APIError(.notFound, "This server has no import \(id); imports are remembered only while it runs.")
    }
}
