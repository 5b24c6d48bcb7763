/// What an import of a file would do, worked out from its first rows without writing anything.
///
/// ```swift
/// let preview = try ImportPreview(source: try FileByteSource(path: "feed.csv"))
/// print(preview.format.displayName, preview.products.first?.title ?? "")
/// ```
public struct ImportPreview: Sendable {
    /// Where one catalog field comes from.
    public struct FieldSource: Sendable, Equatable {
        public var field: ProductField
        /// The column (or, for a platform format, the rule) that fills it.
        public var source: String
    }

    /// A row the import would reject, with its line and reason.
    public struct Reject: Sendable, Equatable {
        public var line: Int
        public var reason: String
    }

    /// The format the file is read as.
    public var format: FeedFormat
    /// The field delimiter: `,` `;` `tab` or `|`.
    public var delimiter: String
    /// The text encoding read.
    public var encoding: TextEncoding
    /// How each row's productId is made.
    public var keyRule: String
    /// Each field the file fills, and from what.
    public var fields: [FieldSource]
    /// The columns kept as extra columns, under these names.
    public var extraColumns: [String]
    /// The first products as the catalog would store them.
    public var products: [Product]
    /// The first rejected rows.
    public var rejects: [Reject]
    /// Data records read to make the preview.
    public var rowsRead: Int
}

extension ImportPreview {
    /// Reads the start of `source` as ``CatalogImporter`` would with `options`, and holds the
    /// first `rows` products it would store and the first rejects, reading at most `maxRecords`
    /// records. Nothing is written: no catalog, no rejects file, no lock.
    public init(source: any ByteSource, reading options: FeedReading = FeedReading(), rows: Int = 5, maxRecords: Int = 10_000) throws {
        let source = options.encoding == .utf8 ? source : TranscodingByteSource(source, encoding: options.encoding)
        var reading = try ImportReading(source: source, reading: options)
        let arena = RowArena(capacity: 4 << 20)
        var checker = reading.checker
        var products: [Product] = []
        var rejects: [ImportPreview.Reject] = []
        let columns = checker.columnNames
        let integers = checker.slots.map(\.kind.isInteger)
        func accept(_ record: CSVRecord, line: Int) {
            guard products.count < rows || rejects.count < rows else { return }
            let malformation = record.malformation
            switch record.withFields({ checker.encode($0, malformation: malformation, line: line, into: arena) }) {
            case .encoded:
                if products.count < rows {
                    products.append(arena.row(arena.entries.count - 1).product(columns: columns, integers: integers))
                }
            case .rejected(let reason):
                if rejects.count < rows { rejects.append(.init(line: line, reason: reason)) }
            case .noRoom:
                arena.removeAll()
            }
        }
        while reading.recordsRead < maxRecords, products.count < rows || rejects.count < rows,
              try reading.readRows(accept) {}
        try reading.finishRows(accept)
        let fields: [ImportPreview.FieldSource] = ProductField.allCases.compactMap { field in
            if let rule = reading.format.fieldRules[field] { return .init(field: field, source: rule) }
            guard reading.layout == nil, let column = reading.mapping.fieldColumns[field] else { return nil }
            return .init(field: field, source: reading.header[column])
        }
        let delimiter = reading.reader.delimiter.map { $0 == 0x09 ? "tab" : String(UnicodeScalar($0)) } ?? ","
        self.init(
            format: reading.format, delimiter: delimiter, encoding: options.encoding,
            keyRule: reading.format.keyRule ?? "the \(fields.first?.source ?? "productId") column",
            fields: fields, extraColumns: reading.mapping.extras.map(\.name),
            products: products, rejects: rejects, rowsRead: reading.recordsRead)
    }
}

extension EncodedRow {
    /// The row as a product, for a preview: `columns` and `integers` as the checker encoded it.
    func product(columns: [String], integers: [Bool]) -> Product {
        var product = Product(productId: "")
        let byColumn = Dictionary(uniqueKeysWithValues: ProductField.allCases.map { ($0.columnName, $0) })
        var cursor = base + Self.headerSize
        for (name, isInteger) in zip(columns, integers) {
            let count = cursor.loadUnaligned(as: UInt32.self)
            cursor += 4
            var text: String?
            var number: Int64?
            if count != Self.nullMarker {
                if isInteger {
                    number = cursor.loadUnaligned(as: Int64.self)
                    cursor += 8
                } else {
                    text = String(decoding: UnsafeRawBufferPointer(start: cursor, count: Int(count)), as: UTF8.self)
                    cursor += Int(count)
                }
            }
            if let field = byColumn[name] {
                product[field] = number.map(FieldValue.integer) ?? text.map(FieldValue.text)
            } else {
                product.extras.append(.init(name: name, value: text))
            }
        }
        return product
    }
}

extension ImportPreview: JSONRepresentable {
    /// The preview as `catalog inspect --json` prints it and `POST /api/imports/preview` answers.
    public var jsonValue: JSONValue {
        .object([
            "format": .string(format.rawValue),
            "formatName": .string(format.displayName),
            "delimiter": .string(delimiter),
            "encoding": .string(encoding.rawValue),
            "key": .string(keyRule),
            "fields": .object(fields.map { JSONValue.Member($0.field.rawValue, .string($0.source)) }),
            "extraColumns": .array(extraColumns.map { .string($0) }),
            "products": .array(products.map(\.jsonValue)),
            "rejects": .array(rejects.map { .object(["line": .int($0.line), "reason": .string($0.reason)]) }),
            "rowsRead": .int(rowsRead),
        ])
    }
}
