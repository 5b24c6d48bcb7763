/// How an import reads its input and writes the catalog.
public struct ImportOptions: Sendable {
    /// The catalog file to create or replace.
    public var databasePath: String
    /// Whether the file replaces the catalog or updates it.
    public var mode: ImportMode
    /// Header names for fields, given by hand (`--column productId="Variant SKU"`).
    public var columns: [ProductField: String]
    /// The input's text encoding; others than UTF-8 are transcoded as they stream.
    public var encoding: TextEncoding
    /// The field delimiter; nil detects it from the header line.
    public var delimiter: UInt8?
    /// What happens when a productId appears again.
    public var onDuplicate: DuplicatePolicy
    /// Where rejected rows are written; nil means `<databasePath>.rejects.csv`.
    public var rejectsPath: String?
    /// The import stops (and the catalog stays as it was) after this many rejected rows.
    public var maxErrors: Int
    /// Fields longer than this are rejected.
    public var maxFieldBytes: Int
    /// Bytes read from the source at a time.
    public var chunkSize: Int
    /// Rows per transaction while writing; each commit also indexes the transaction's words, as one
    /// segment of the word index, and the import's progress counts rows at each commit.
    public var rowsPerTransaction: Int
    /// Memory for sorting rows by productId; larger inputs are sorted in runs of this size on disk.
    public var sortMemory: Int
    /// How often progress is reported.
    public var progressInterval: Duration
    /// The platform format to read the file as; nil recognises it from the header.
    public var format: FeedFormat?
    /// Lets an import replace the catalog with an empty one (from a header-only file, or one whose rows were all rejected).
    public var allowEmpty = false

    public init(
        databasePath: String = "catalog.sqlite",
        mode: ImportMode = .replace,
        columns: [ProductField: String] = [:],
        encoding: TextEncoding = .utf8,
        delimiter: UInt8? = nil,
        onDuplicate: DuplicatePolicy = .last,
        rejectsPath: String? = nil,
        maxErrors: Int = 1_000,
        maxFieldBytes: Int = ProductRules.maxFieldBytes,
        chunkSize: Int = 1 << 20,
        rowsPerTransaction: Int = 25_000,
        sortMemory: Int = 16 << 20,
        progressInterval: Duration = .milliseconds(100)
    ) {
        self.databasePath = databasePath
        self.mode = mode
        self.columns = columns
        self.encoding = encoding
        self.delimiter = delimiter
        self.onDuplicate = onDuplicate
        self.rejectsPath = rejectsPath
        self.maxErrors = maxErrors
        self.maxFieldBytes = maxFieldBytes
        self.chunkSize = chunkSize
        self.rowsPerTransaction = rowsPerTransaction
        self.sortMemory = sortMemory
        self.progressInterval = progressInterval
    }

    /// Caps the new catalog's size in pages (`PRAGMA max_page_count`), to test a full disk.
    var maxDatabasePages: Int?

    /// The rejects file actually used.
    public var resolvedRejectsPath: String { rejectsPath ?? databasePath + ".rejects.csv" }
}
