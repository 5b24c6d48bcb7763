/// How an import reads its input (``reading``) and writes the catalog.
public struct ImportOptions: Sendable {
    /// The catalog file to create or replace, and what the rejects file is named after.
    public var databasePath: String
    /// Whether the file replaces the catalog or updates it.
    public var mode: ImportMode
    /// How the feed is read: columns, encoding, delimiter, field size, format.
    public var reading: FeedReading
    /// What happens when a productId appears again.
    public var onDuplicate: DuplicatePolicy
    /// Where rejected rows are written; nil means `<databasePath>.rejects.csv`.
    public var rejectsPath: String?
    /// The import stops (and the catalog stays as it was) after this many rejected rows.
    public var maxErrors: Int
    /// Rows per transaction while writing; each commit also indexes the transaction's words, as one
    /// segment of the word index, and the import's progress counts rows at each commit.
    public var rowsPerTransaction: Int
    /// Memory for sorting rows by productId; larger inputs are sorted in runs of this size on disk.
    public var sortMemory: Int
    /// How often progress is reported.
    public var progressInterval: Duration
    /// With an upsert, deletes the products the file does not list, so that the catalog ends up
    /// equal to the file while only the difference is written.
    public var deleteMissing = false
    /// With ``deleteMissing``, the most products the upsert may delete; past it the import stops
    /// with ``ImportError/tooManyDeletes(wouldDelete:catalogProducts:limit:)`` and the catalog unchanged.
    public var maxDeletes = DeleteLimit.default
    /// Lets an import replace the catalog with an empty one (from a header-only file, or one whose rows were all rejected).
    public var allowEmpty = false

    public init(
        databasePath: String = "catalog.sqlite",
        mode: ImportMode = .replace,
        reading: FeedReading = FeedReading(),
        onDuplicate: DuplicatePolicy = .last,
        rejectsPath: String? = nil,
        maxErrors: Int = 1_000,
        rowsPerTransaction: Int = 25_000,
        sortMemory: Int = 8 << 20,
        progressInterval: Duration = .milliseconds(100)
    ) {
        self.databasePath = databasePath
        self.mode = mode
        self.reading = reading
        self.onDuplicate = onDuplicate
        self.rejectsPath = rejectsPath
        self.maxErrors = maxErrors
        self.rowsPerTransaction = rowsPerTransaction
        self.sortMemory = sortMemory
        self.progressInterval = progressInterval
    }

    /// Caps the new catalog's size in pages (`PRAGMA max_page_count`), to test a full disk.
    var maxDatabasePages: Int?

    /// The rejects file actually used.
    public var resolvedRejectsPath: String { rejectsPath ?? databasePath + ".rejects.csv" }
}
