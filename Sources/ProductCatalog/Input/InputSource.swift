/// Where an import's bytes come from, as a value that can cross to the import's thread.
///
/// ```swift
/// importer.start(input: .file(path: "products.csv"))
/// importer.start(input: .bytes(downloadedData, name: "feed.csv"))
/// importer.start(input: .standardInput)
/// ```
///
/// Any module can add a kind of source: ``init(kind:description:open:)`` takes the closure that
/// opens it (`ProductCatalogHTTP` adds `.url(_:options:)` so). Whatever the source,
/// gzip-compressed bytes are recognised by their magic number and decompressed as they stream
/// in (see ``GzipByteSource``).
public struct InputSource: Sendable, Hashable, CustomStringConvertible {
    /// What kind of source this is: a file, standard input, bytes in memory, or one a module adds.
    public struct Kind: RawRepresentable, Sendable, Hashable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let file = Kind(rawValue: "file")
        public static let standardInput = Kind(rawValue: "standard input")
        public static let fileDescriptor = Kind(rawValue: "file descriptor")
        public static let memory = Kind(rawValue: "memory")
    }

    public let kind: Kind
    /// The source as messages name it: a path, "standard input", a URL.
    public let description: String
    private let openSource: @Sendable () throws -> any ByteSource

    /// A source of `kind`, named `description`, that `open` opens (once per import).
    public init(kind: Kind, description: String, open: @escaping @Sendable () throws -> any ByteSource) {
        self.kind = kind
        self.description = description
        openSource = open
    }

    /// A file on disk.
    public static func file(path: String) -> InputSource {
        InputSource(kind: .file, description: path) { try FileByteSource(path: path) }
    }

    /// The process's standard input.
    public static var standardInput: InputSource {
        InputSource(kind: .standardInput, description: "standard input") { FileByteSource(standardInput: ()) }
    }

    /// An open file descriptor, read from where it stands; its owner closes it after the import.
    public static func fileDescriptor(_ descriptor: Int32, name: String) -> InputSource {
        InputSource(kind: .fileDescriptor, description: name) { FileByteSource(fileDescriptor: descriptor, name: name) }
    }

    /// Bytes the caller holds, such as a file it downloaded itself (`Data` or `[UInt8]`).
    public static func bytes(_ bytes: some Sequence<UInt8> & Sendable, name: String = "memory") -> InputSource {
        InputSource(kind: .memory, description: name) { InMemoryByteSource(bytes, name: name) }
    }

    /// Opens the source for reading, decompressing it when it is gzip.
    ///
    /// A file is opened at once (and throws when it cannot be); a download starts here, and its
    /// failures, like a gzip stream's, come from the reads.
    public func open() throws -> any ByteSource {
        GzipByteSource.decompressingIfGzip(try openSource())
    }

    /// Sources are equal when they are of one kind and name the same thing.
    public static func == (a: InputSource, b: InputSource) -> Bool {
        a.kind == b.kind && a.description == b.description
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(description)
    }
}
