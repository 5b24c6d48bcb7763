/// The start of every import: the reader, the header read, the format recognised and the mapping made.
///
/// ``CatalogImporter/run(source:progress:isCancelled:)`` and ``CatalogImporter/preview(source:rows:maxRecords:)``
/// both begin here, so a preview shows exactly what the import would do.
struct ImportReading {
    let reader: CSVReader
    /// The source's name, for messages.
    let sourceName: String
    var record = CSVRecord()
    /// The header as read, each name cleaned (see ``HeaderName/clean(_:)``).
    let header: [String]
    let format: FeedFormat
    /// The platform's layout; nil for ``FeedFormat/generic``.
    var layout: (any FeedLayout)?
    let mapping: HeaderMapping
    /// The checker for the rows the mapping makes; callers take a copy to check with.
    let checker: ProductRowChecker
    /// Data records read so far (the header excluded).
    private(set) var recordsRead = 0
    /// Records read with missing trailing fields, which were filled in empty.
    private(set) var recordsPadded = 0

    /// Reads the header of `source` (already transcoded) and settles how its rows map to the catalog.
    init(source: any ByteSource, options: ImportOptions) throws {
        sourceName = source.name
        reader = CSVReader(source: source, options: CSVReader.Options(
            delimiter: options.delimiter, chunkSize: options.chunkSize, maxFieldBytes: options.maxFieldBytes))
        guard try Self.readNext(reader, into: &record) else { throw ImportError.emptyInput(source: source.name) }
        if let signature = record.withFields({ FileSignature.of($0.allBytes) }) {
            throw ImportError.notText(source: source.name, signature)
        }
        if let malformation = record.malformation { throw ImportError.malformedHeader(source: source.name, malformation) }
        header = record.strings.map(HeaderName.clean)
        // A hand-made mapping (--column) means the generic reading, unless a format is named too.
        format = options.format ?? (options.columns.isEmpty ? FeedFormat.detect(header: header) : .generic)
        layout = format.layout(header: header)
        do throws(HeaderMappingError) {
            if let layout {
                mapping = try HeaderMapping(fieldsThenExtras: layout.outputHeader)
            } else {
                mapping = try HeaderMapping(header: header, overrides: options.columns)
            }
        } catch {
            throw ImportError.header(source: source.name, error)
        }
        checker = ProductRowChecker(mapping: mapping)
    }

    /// Reads the next record and hands `body` the rows it makes, with their lines; false at the end.
    ///
    /// A record missing only its trailing fields (as spreadsheets write them) is read with them
    /// empty. Without a platform layout each record is one row; with one, the layout makes the
    /// rows, and may hold some back until ``finishRows(_:)``. Records that are not valid CSV, or
    /// have the wrong number of fields, go to `body` as they are, to be rejected.
    @inline(__always)
    mutating func readRows(_ body: (CSVRecord, _ line: Int) throws -> Void) throws -> Bool {
        guard try Self.readNext(reader, into: &record) else { return false }
        recordsRead += 1
        let line = record.position.line
        if record.count < header.count, record.malformation == nil, record.count > 0 {
            record.padFields(to: header.count)
            recordsPadded += 1
        }
        if var platform = layout, record.malformation == nil, record.count == header.count {
            try platform.take(record.strings, line: line) { try body(CSVRecord($0.fields), $0.line) }
            layout = platform
        } else {
            try body(record, line)
        }
        return true
    }

    /// Hands `body` the rows the layout still holds back, once reading stops.
    mutating func finishRows(_ body: (CSVRecord, _ line: Int) throws -> Void) throws {
        guard var platform = layout else { return }
        try platform.finish { try body(CSVRecord($0.fields), $0.line) }
        layout = platform
    }

    /// Records the layout folded into another row; 0 without a layout.
    var recordsFolded: Int { layout?.foldedRecords ?? 0 }

    /// Reads the next record, turning a source failure into ``ImportError/source(_:)``.
    static func readNext(_ reader: CSVReader, into record: inout CSVRecord) throws -> Bool {
        do {
            return try reader.readRecord(into: &record)
        } catch let error as ByteSourceError {
            throw ImportError.source(error)
        }
    }
}
