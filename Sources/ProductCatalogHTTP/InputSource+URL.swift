import struct Foundation.URL
import ProductCatalog

extension InputSource.Kind {
    /// An `http` or `https` download.
    public static let url = InputSource.Kind(rawValue: "url")
}

extension InputSource {
    /// An `http` or `https` URL, streamed as it downloads (``HTTPByteSource``).
    public static func url(_ url: URL, options: HTTPByteSource.Options = HTTPByteSource.Options()) -> InputSource {
        InputSource(kind: .url, description: url.absoluteString) { try HTTPByteSource(url: url, options: options) }
    }

    /// A command-line argument: `-` is standard input, an `http://` or `https://` URL a download,
    /// anything else a path.
    public init(argument: String, httpOptions: HTTPByteSource.Options = HTTPByteSource.Options()) {
        if argument == "-" {
            self = .standardInput
        } else if let url = URL(string: argument), HTTPByteSource.canDownload(url) {
            self = .url(url, options: httpOptions)
        } else {
            self = .file(path: argument)
        }
    }
}
