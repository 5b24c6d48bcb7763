/// The start of every import: the reader, the header read, the format recognised and the mapping made.
///
/// ``CatalogImporter/run(source:progress:isCancelled:)`` and ``CatalogImporter/preview(source:rows:maxRecords:)``
/// both begin here, so a preview shows exactly what the import would do.
struct ImportReading {
    let reader: CSVReader
    var record = CSVRecord()
    /// The header as read, each name cleaned (see ``HeaderName/clean(_:)``).
    let header: [String]
    let format: FeedFormat
    /// The platform's layout; nil for ``FeedFormat/generic``.
    var layout: (any FeedLayout)?
    let mapping: HeaderMapping
    var checker: ProductRowChecker

    /// Reads the header of `source` (already transcoded) and settles how its rows map to the catalog.
    init(source: any ByteSource, options: ImportOptions) throws {
        reader = CSVReader(source: source, options: CSVReader.Options(
            delimiter: options.delimiter, chunkSize: options.chunkSize, maxFieldBytes: options.maxFieldBytes))
        guard try Self.readNext(reader, into: &record) else { throw ImportError.emptyInput(source: source.name) }
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

    /// Reads the next record, turning a source failure into ``ImportError/source(_:)``.
    static func readNext(_ reader: CSVReader, into record: inout CSVRecord) throws -> Bool {
        do {
            return try reader.readRecord(into: &record)
        } catch let error as ByteSourceError {
            throw ImportError.source(error)
        }
    }
}
