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
    init(source: any ByteSource, reading options: FeedReading) throws {
        sourceName = source.name
        let reader = CSVReader(source: source, options: CSVReader.Options(
            delimiter: options.delimiter, chunkSize: options.chunkSize, maxFieldBytes: options.maxFieldBytes))
        self.reader = reader
        record = try Self.readHeader(reader, source: source, options: options)
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

    /// Reads the header record of `source`, refusing what is not a CSV: a known binary file, an
    /// empty one, a first megabyte without a line end, a header that is not valid CSV.
    /// The header of `source`, its names cleaned as imports clean them; nil when it has none (or is no CSV).
    static func cleanHeader(of source: any ByteSource, reading: FeedReading = FeedReading()) -> [String]? {
        let reader = CSVReader(source: source, options: CSVReader.Options(
            delimiter: reading.delimiter, chunkSize: reading.chunkSize, maxFieldBytes: reading.maxFieldBytes))
        return try? readHeader(reader, source: source, options: reading).strings.map(HeaderName.clean)
    }

    static func readHeader(_ reader: CSVReader, source: any ByteSource, options: FeedReading) throws -> CSVRecord {
        let leading = try Self.reading { try reader.leadingBytes() }
        if let signature = leading.withUnsafeBufferPointer(FileSignature.of) {
            throw ImportError.notText(source: source.name, signature)
        }
        // A file with no line end in its first megabyte is not a CSV: it is refused now rather than
        // read to its end, however long that is (/dev/zero never ends).
        var first = CSVRecord()
        do {
            guard try Self.reading({ try reader.readRecord(into: &first, byteLimit: Self.headerByteLimit(options)) }) else {
                throw ImportError.emptyInput(source: source.name)
            }
        } catch let malformation as CSVMalformation {
            throw ImportError.malformedHeader(source: source.name, malformation)
        }
        if let malformation = first.malformation { throw ImportError.malformedHeader(source: source.name, malformation) }
        return first
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

    /// The longest header line read before the input is refused as not a CSV: a field's limit,
    /// and at least 1 MiB, so a small `maxFieldBytes` does not refuse a header of many columns.
    static func headerByteLimit(_ options: FeedReading) -> Int {
        max(options.maxFieldBytes, 1 << 20)
    }

    /// Reads the next record, turning a source failure into ``ImportError/source(_:)``.
    static func readNext(_ reader: CSVReader, into record: inout CSVRecord) throws -> Bool {
        try reading { try reader.readRecord(into: &record) }
    }

    /// Runs `body`, turning a source failure into ``ImportError/source(_:)``.
    private static func reading<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ByteSourceError {
            throw ImportError.source(error)
        }
    }
}
