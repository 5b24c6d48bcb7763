import struct Foundation.URL

/// Where an import's bytes come from, as a value that can cross to the import's thread.
///
/// ```swift
/// importer.start(input: .file(path: "products.csv"))
/// importer.start(input: .url(URL(string: "https://example.com/feed.csv.gz")!))
/// importer.start(input: InputSource(argument: "-"))          // standard input
/// ```
///
/// Whatever the source, gzip-compressed bytes are recognised by their magic number and
/// decompressed as they stream in (see ``GzipByteSource``).
public enum InputSource: Sendable, Hashable, CustomStringConvertible {
    /// A file on disk.
    case file(path: String)
    /// The process's standard input.
    case standardInput
    /// An `http` or `https` URL, streamed as it downloads.
    case url(URL, options: HTTPByteSource.Options = HTTPByteSource.Options())

    /// `-` means standard input, an `http://` or `https://` URL a download; anything else is a path.
    public init(argument: String, httpOptions: HTTPByteSource.Options = HTTPByteSource.Options()) {
        if argument == "-" {
            self = .standardInput
        } else if let url = URL(string: argument), HTTPByteSource.canDownload(url) {
            self = .url(url, options: httpOptions)
        } else {
            self = .file(path: argument)
        }
    }

    /// Opens the source for reading, decompressing it when it is gzip.
    ///
    /// A file is opened at once (and throws when it cannot be); a download starts here, and its
    /// failures, like a gzip stream's, come from the reads.
    public func open() throws -> any ByteSource {
        let raw: any ByteSource
        switch self {
        case .file(let path): raw = try FileByteSource(path: path)
        case .standardInput: raw = FileByteSource(standardInput: ())
        case .url(let url, let options): raw = try HTTPByteSource(url: url, options: options)
        }
        return GzipByteSource.decompressingIfGzip(raw)
    }

    public var description: String {
        switch self {
        case .file(let path): path
        case .standardInput: "standard input"
        case .url(let url, _): url.absoluteString
        }
    }
}
