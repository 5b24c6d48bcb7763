/// How exported products are written.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// RFC 4180 CSV with a header of the catalog's column names, which `catalog import` reads back unchanged.
    case csv
    /// `{"products":[…]}`, each product as `catalog search --json` prints it.
    case json

    /// The HTTP content type of an export in this format.
    public var contentType: String {
        switch self {
        case .csv: "text/csv; charset=utf-8"
        case .json: "application/json"
        }
    }
}

/// Encodes the products of an export a batch at a time, so that any number of them is written in
/// constant memory: ``encode(_:)`` each batch in order, then ``finish()``.
///
/// A CSV's columns are those of the product JSON (the known fields by their names, then the extra
/// columns under their header names), so an export imports back into the same catalog: prices are
/// exact decimals, a missing value is an empty field.
public struct ProductExport: Sendable {
    public let format: ExportFormat
    /// With CSV, a text field a spreadsheet would run as a formula (`=…`, `+…`, `-…`, `@…`) is
    /// written after an apostrophe, which spreadsheets show as text; an import takes it off again,
    /// so the file still imports back into the same products.
    public let spreadsheetSafe: Bool
    /// The products encoded so far.
    public private(set) var count = 0

    public init(format: ExportFormat, spreadsheetSafe: Bool = false) {
        self.format = format
        self.spreadsheetSafe = spreadsheetSafe
    }

    /// The bytes of `products`, after the header (CSV) or the opening (JSON) when they are the first.
    public mutating func encode(_ products: [Product]) -> [UInt8] {
        var output: [UInt8] = []
        for product in products {
            guard case .object(let members) = product.jsonValue else { continue }
            switch format {
            case .csv:
                if count == 0 { output += Self.csvRecord(members.map(\.key)) }
                output += Self.csvRecord(members.map { Self.text(of: $0.value, spreadsheetSafe: spreadsheetSafe) })
            case .json:
                output += Array((count == 0 ? "{\"products\":[\n" : ",\n").utf8)
                output += Array(JSONValue.object(members).serialized.utf8)
            }
            count += 1
        }
        return output
    }

    /// The bytes that end the export: for no products, a CSV of the known fields' header alone, or an empty list.
    public mutating func finish() -> [UInt8] {
        switch format {
        case .csv: count == 0 ? Self.csvRecord(ProductField.allCases.map(\.rawValue)) : []
        case .json: Array((count == 0 ? "{\"products\":[]}\n" : "\n]}\n").utf8)
        }
    }

    private static func csvRecord(_ fields: [String]) -> [UInt8] {
        var encoder = CSVEncoder()
        for var field in fields { field.withUTF8 { encoder.appendField($0) } }
        encoder.endRecord()
        return encoder.bytes
    }

    /// ``text(of:)`` with text escaped as ``SpreadsheetEscape`` says, so that an import reads it back as it was.
    private static func text(of value: JSONValue, spreadsheetSafe: Bool) -> String {
        guard case .string(let text) = value else { return Self.text(of: value) }
        return SpreadsheetEscape.escaped(text, spreadsheetSafe: spreadsheetSafe)
    }

    /// A JSON value of a product as CSV text: null is empty, a number its digits.
    private static func text(of value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .int(let number): String(number)
        case .null: ""
        default: value.serialized
        }
    }
}

/// Encodes the stock by store of an export's products, a batch at a time, as the CSV that
/// `catalog import-stock` reads back: `productId,store,quantity`, a row per product and store.
public struct StockExport: Sendable {
    /// The rows encoded so far.
    public private(set) var count = 0
    /// True once the header is written (a first batch may have no rows).
    private var started = false

    public init() {}

    /// The rows of `products`' stock (`stock` as ``CatalogEngine/stock(of:)`` answers it), in
    /// the products' order, after the header when they are the first.
    public mutating func encode(_ products: [Product], stock: [String: [StoreQuantity]]) -> [UInt8] {
        var encoder = CSVEncoder()
        if !started { appendRecord(["productId", "store", "quantity"], to: &encoder) }
        started = true
        for product in products {
            for entry in stock[product.productId] ?? [] {
                appendRecord([product.productId, entry.store, String(entry.quantity)], to: &encoder)
                count += 1
            }
        }
        return encoder.bytes
    }

    /// The bytes that end the export: the header alone when nothing was encoded.
    public func finish() -> [UInt8] {
        guard !started else { return [] }
        var encoder = CSVEncoder()
        appendRecord(["productId", "store", "quantity"], to: &encoder)
        return encoder.bytes
    }
}

/// Encodes manual collections' members, a batch at a time, as the CSV that
/// `catalog collections import` reads back: `collection,productId`, a row per member.
public struct MembersExport: Sendable {
    /// The rows encoded so far.
    public private(set) var count = 0
    /// True once the header is written (a collection may have no members).
    private var started = false

    public init() {}

    /// The rows of `productIds` in `collection`, after the header when they are the first.
    public mutating func encode(_ collection: String, _ productIds: [String]) -> [UInt8] {
        var encoder = CSVEncoder()
        if !started { appendRecord(["collection", "productId"], to: &encoder) }
        started = true
        for productId in productIds {
            appendRecord([collection, productId], to: &encoder)
            count += 1
        }
        return encoder.bytes
    }

    /// The bytes that end the export: the header alone when nothing was encoded.
    public func finish() -> [UInt8] {
        guard !started else { return [] }
        var encoder = CSVEncoder()
        appendRecord(["collection", "productId"], to: &encoder)
        return encoder.bytes
    }
}

/// Appends one record of `fields` to `encoder`.
private func appendRecord(_ fields: [String], to encoder: inout CSVEncoder) {
    for var field in fields { field.withUTF8 { encoder.appendField($0) } }
    encoder.endRecord()
}
