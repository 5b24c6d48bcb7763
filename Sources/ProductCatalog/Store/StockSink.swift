/// Where a stock import (``StockImporter``) writes: a catalog file's stock (``StockFileSink``) or
/// another engine's. The importer reads and checks the records; the sink stages the rows it is
/// given, then writes them into the catalog's stock in one transaction.
///
/// The calls come in this order, on the import's own thread: ``check(output:)``,
/// ``claim(mode:)``, ``stage(_:)`` for each row, ``endStaging()``, ``write(_:)``, ``counts()``,
/// ``commit()``; ``abandon()`` after a failure at any step; ``release()`` last, whatever happened.
/// Until ``commit()`` the stock is as it was: searches read the old stock, and an interrupted
/// import leaves it so.
public protocol StockSink: AnyObject {
    /// The catalog as messages and the summary name it: a path, or a URL without its password.
    var catalogName: String { get }
    /// Where rejected rows go when the import names no file.
    var defaultRejectsPath: String { get }

    /// Throws when `output`, a file the import will write (its rejects), names the catalog or a
    /// file that belongs to it (see ``CatalogCompanions``); called before anything is written.
    func check(output: String) throws
    /// Checks that the catalog exists and can be written, and takes its import lock, held until
    /// ``release()``; `mode` says what ``write(_:)`` will do.
    func claim(mode: ImportMode) throws
    /// Keeps one checked row until the reading ends.
    func stage(_ row: StagedStockRow) throws
    /// The reading ended: every row is staged.
    func endStaging() throws
    /// Opens the write's transaction and writes the staged rows into the stock: replacing, the
    /// stock becomes theirs; upserting, only the product–store pairs they name change. Of the rows
    /// naming one pair (ASCII case ignored) the last read wins, each earlier one counted with
    /// ``StockWriteProgress/duplicate()``; a row whose product the catalog does not hold goes to
    /// ``StockWriteProgress/unknownProduct(_:line:fields:)``, in productId order. Returns how many
    /// pairs it wrote.
    func write(_ progress: StockWriteProgress) throws -> Int
    /// The rows the stock holds and the stores with a product in stock, as the write left them.
    func counts() throws -> (rows: Int, stores: Int)
    /// Commits the write: searches see the new stock.
    func commit() throws
    /// Drops what was written, leaving the stock as it was.
    func abandon()
    /// Releases the import lock and whatever the staging kept.
    func release()
}

extension StockSink {
    /// A catalog that is no file has no file an output could overwrite.
    public func check(output: String) throws {}
}

/// A stock file's record as the importer checked it: one product's quantity at one store, with
/// its line and its fields for the rejects file, should its product be unknown.
public struct StagedStockRow: Sendable {
    public var productId: String
    public var store: String
    /// 0 or more.
    public var quantity: Int64
    /// The record's line in the file.
    public var line: Int
    /// The record's fields, packed: hand them back as they are to ``StockWriteProgress/unknownProduct(_:line:fields:)``.
    public var fields: [UInt8]
}

/// What a ``StockSink`` says while it writes: progress, duplicates, rows naming products the
/// catalog lacks; the import counts them, reports and can stop the write (by throwing
/// ``ImportError/cancelled`` from ``tick()`` or ``wrote(_:)``).
public final class StockWriteProgress {
    var reporter: ProgressReporter
    private let rejectUnknown: (String, Int, CSVRecord.Fields) throws -> Void

    init(reporter: ProgressReporter, rejectUnknown: @escaping (String, Int, CSVRecord.Fields) throws -> Void) {
        self.reporter = reporter
        self.rejectUnknown = rejectUnknown
    }

    /// Reports progress when due, while the sink works on something long (a sort); throws when
    /// the import was cancelled.
    public func tick() throws {
        try reporter.reportIfDue(.writing)
    }

    /// The first row is about to be written: the time before it (sorting, looking up) is the write's start.
    public func startedWriting() {
        reporter.noteFirstWrite()
    }

    /// `rows` pairs are written so far; reports when due, and throws when the import was cancelled.
    public func wrote(_ rows: Int) throws {
        reporter.counts.rowsInserted = rows
        reporter.noteCommit()
        try reporter.reportIfDue(.writing)
    }

    /// A row gave way to a later one naming the same product and store.
    public func duplicate() {
        reporter.counts.duplicates += 1
    }

    /// A row names `productId`, which the catalog does not hold: rejected with its line and
    /// `fields` (as staged); throws when that is one rejection too many.
    public func unknownProduct(_ productId: String, line: Int, fields: some Collection<UInt8>) throws {
        try StagedStockRow.unpacked(fields) { try rejectUnknown(productId, line, $0) }
    }
}

extension StagedStockRow {
    /// A record's fields, each its byte count (4 bytes, little-endian) then its bytes.
    static func packed(_ fields: CSVRecord.Fields) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(fields.allBytes.count + 4 * fields.count)
        for index in 0..<fields.count {
            let field = fields[index]
            withUnsafeBytes(of: UInt32(field.count).littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: field)
        }
        return bytes
    }

    /// Calls `body` with the fields `packed(_:)` made.
    static func unpacked(_ packed: some Collection<UInt8>, _ body: (CSVRecord.Fields) throws -> Void) throws {
        let bytes = Array(packed)
        var fields: [String] = []
        var offset = 0
        while offset + 4 <= bytes.count {
            let count = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
            offset += 4
            fields.append(String(decoding: bytes[offset..<min(bytes.count, offset + count)], as: UTF8.self))
            offset += count
        }
        try CSVRecord(fields).withFields(body)
    }
}
