/// How a feed is read, whatever it is read for (an import, a preview): its columns, text
/// encoding, delimiter, field size limit and platform format.
public struct FeedReading: Sendable, Equatable {
    /// Header names for fields, given by hand (`productId` → `Variant SKU`).
    public var columns: [ProductField: String]
    /// The input's text encoding; others than UTF-8 are transcoded as they stream.
    public var encoding: TextEncoding
    /// The field delimiter; nil detects it from the header line.
    public var delimiter: UInt8?
    /// Fields longer than this are rejected.
    public var maxFieldBytes: Int
    /// Bytes read from the source at a time.
    public var chunkSize: Int
    /// The platform format to read the file as; nil recognises it from the header.
    public var format: FeedFormat?

    public init(
        columns: [ProductField: String] = [:],
        encoding: TextEncoding = .utf8,
        delimiter: UInt8? = nil,
        maxFieldBytes: Int = ProductRules.maxFieldBytes,
        chunkSize: Int = 1 << 20,
        format: FeedFormat? = nil
    ) {
        self.columns = columns
        self.encoding = encoding
        self.delimiter = delimiter
        self.maxFieldBytes = maxFieldBytes
        self.chunkSize = chunkSize
        self.format = format
    }
}
