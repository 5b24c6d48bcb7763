import Hummingbird
import ProductCatalog

/// An error answered as `{"error":{"message":…,"fields":{…}}}` with its HTTP status.
///
/// The message says what happened and what to do; `fields` holds one message per request
/// field that needs fixing (empty when the problem is not about a field). An answer stays
/// small whatever the request held: at most ``maxFields`` fields are listed, and the message
/// says how many more there were.
public struct APIError: HTTPResponseError, Sendable, CustomStringConvertible {
    /// The HTTP status of the answer.
    public var status: HTTPResponse.Status
    /// What happened and what to do about it.
    public var message: String
    /// One message per request field that needs fixing.
    public var fields: [String: String]
    /// Extra response headers, such as `Retry-After`.
    public var headers: HTTPFields

    /// The most field messages one answer lists.
    public static let maxFields = 20

    /// An error with `status`, `message` and the messages for `fields`.
    public init(_ status: HTTPResponse.Status, _ message: String, fields: [String: String] = [:], headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.headers = headers
        if fields.count > Self.maxFields {
            let kept = Self.ordered(fields).prefix(Self.maxFields)
            self.fields = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, Self.short($0.value)) })
            self.message += " (\(fields.count - Self.maxFields) more fields have problems too; only the first \(Self.maxFields) are listed.)"
        } else {
            self.fields = fields.mapValues(Self.short)
        }
    }

    /// The JSON body: known product fields first in their usual order, then others by name.
    public var jsonValue: JSONValue {
        .object([
            "error": .object([
                "message": .string(message),
                "fields": .object(Self.ordered(fields).map { JSONValue.Member(Self.short($0.key), .string($0.value)) }),
            ]),
        ])
    }

    /// The JSON answer.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        JSONResponse.response(jsonValue, status: status, headers: headers)
    }

    /// The status code and message, for logs.
    public var description: String { "\(status.code) \(message)" }

    private static func ordered(_ fields: [String: String]) -> [(key: String, value: String)] {
        let order = Dictionary(uniqueKeysWithValues: ProductField.allCases.enumerated().map { ($1.rawValue, $0) })
        return fields.sorted { a, b in
            let (x, y) = (order[a.key] ?? Int.max, order[b.key] ?? Int.max)
            return x != y ? x < y : a.key < b.key
        }
    }

    /// Text cut to 200 characters, so a huge key or value is not echoed back whole.
    private static func short(_ text: String) -> String {
        text.count > 200 ? String(text.prefix(200)) + "…" : text
    }
}

extension APIError {
    /// 503 with `Retry-After`: the catalog is busy for a moment.
    static func busy(_ message: String, retryAfter seconds: Int = 1) -> APIError {
        APIError(.serviceUnavailable, message, headers: [.retryAfter: String(seconds)])
    }

    /// 507: the server's disk is full.
    static func diskFull(_ message: String) -> APIError {
        APIError(.init(code: 507, reasonPhrase: "Insufficient Storage"), message)
    }

    /// The answer for an error thrown while editing the catalog.
    init(_ error: EditError) {
        switch error {
        case .invalid(let invalid):
            self.init(.unprocessableContent, "Some fields need fixing; see the message next to each.", fields: invalid.formMessages)
        case .duplicate(let productId):
            self.init(.conflict, "A product with productId \"\(Self.short(productId))\" already exists.",
                      fields: [ProductField.productId.rawValue: "This productId is taken; choose another one or edit that product."])
        case .notFound(let productId):
            self.init(.notFound, "No product has productId \"\(Self.short(productId))\"; it may have been deleted or replaced by an import.")
        case .collection(let error):
            self.init(error)
        case .catalogReplaced:
            self = .busy("The catalog was being replaced by an import; try again.")
        case .importRunning:
            self.init(.conflict, "An import into this catalog is running, and it would discard this change when it finishes; nothing was saved. Try again when the import has finished.",
                      headers: [.retryAfter: "5"])
        case .busy:
            self = .busy("Another program is writing the catalog; nothing was saved. Try again in a moment.")
        case .catalog(.readOnly):
            self.init(.serviceUnavailable, "The catalog file is read-only on the server, so the change was not saved; searching still works.")
        case .catalog(let error):
            self.init(.internalServerError, Self.catalogMessage(error))
        case .database(_, let error):
            if error.isFull {
                self = .diskFull("The server's disk is full, so the change was not saved; free some space and try again.")
            } else if error.isReadOnly {
                self.init(.serviceUnavailable, "The catalog file or its folder is read-only on the server, so the change was not saved; searching still works.")
            } else {
                self.init(.internalServerError, "The catalog could not be written (SQLite: \(error.message)); nothing was saved. Try again; if it keeps failing, see the server's output.")
            }
        }
    }

    /// The answer for a collection that could not be made, found or changed.
    init(_ error: CollectionError) {
        switch error {
        case .invalidName(let error):
            self.init(.unprocessableContent, "The collection's name needs fixing.", fields: ["name": error.description.prefix(1).uppercased() + error.description.dropFirst() + "."])
        case .exists(let name):
            self.init(.conflict, "A collection named \"\(Self.short(name))\" exists already.", fields: ["name": "Choose another name."])
        case .notFound(let name):
            self.init(.notFound, "No collection is named \"\(Self.short(name))\"; it may have been deleted.")
        case .smart(let name):
            self.init(.conflict, "\"\(Self.short(name))\" is a smart collection: it lists what its search finds, so products cannot be put in it or taken out.")
        case .noColumn(let name, _):
            self.init(.unprocessableContent, "The catalog has no column \"\(Self.short(name))\" to make collections from.")
        case .searchGiven(let name):
            self.init(.badRequest, "\"\(Self.short(name))\" is a smart collection, which brings its own search, filters and sort; ask for collection= alone.",
                      fields: ["collection": "Leave out q, prefix, the filters and sort, or choose a manual collection."])
        }
    }

    /// The answer for what only an engine reports: no catalog yet, its server away, a sort it does not offer.
    init(_ error: EngineError) {
        switch error {
        case .noCatalog:
            self.init(.notFound, Self.catalogMessage(.noCatalog(path: "")))
        case .unreachable:
            self = .busy("The catalog's database server cannot be reached; try again in a moment. The server's output says why.", retryAfter: 5)
        case .serverFailed(_, let doing, let message):
            self.init(.internalServerError, "The database server could not \(doing) (\(Self.short(message))); nothing was changed. Try again; if it keeps failing, see the server's output.")
        case .keptChanging:
            self = .busy("The catalog file is being replaced again and again; try again in a moment.")
        case .unreadable:
            self.init(.internalServerError, "The server's --db is not a catalog it can read; see the server's output.")
        case .notKept(_, let what):
            self.init(.notImplemented, "This catalog is on PostgreSQL, which keeps no \(what) yet; a catalog file (.sqlite) does.")
        }
    }

    /// The answer for a catalog that cannot be read or written as it is.
    static func catalogMessage(_ error: CatalogError) -> String {
        switch error {
        case .noCatalog: "There is no catalog yet: import a CSV file or add a product first."
        case .notACatalog, .notAFile: "The server's --db file is not a product catalog; start catalog serve with another --db."
        case .readOnly: "The catalog file is read-only on the server."
        case .unfinishedWrite: "A program was stopped while writing the catalog, and the server cannot roll its write back (no write access); see the server's output."
        case .inUse: "Another program has the catalog open in write-ahead-log mode; close it and try again."
        case .importRunning: "An import into this catalog is running; try again when it has finished."
        case .cannotWrite: "The server cannot write the files beside its catalog; see the server's output."
        case .database(_, let error): "The catalog could not be read or written (SQLite: \(error.message)); see the server's output."
        case .outputOverCatalog: "The server was to write a file over its own catalog; nothing was written. See the server's output."
        case .outputExists: "The server was to write a file where one already is; nothing was written. See the server's output."
        }
    }
}
