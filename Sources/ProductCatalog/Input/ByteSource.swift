/// Somewhere bytes come from: a file, standard input, a download.
///
/// ``CSVReader`` pulls chunks from a source and never asks where they come from. A source is
/// read from one thread at a time.
public protocol ByteSource: AnyObject {
    /// Reads up to `buffer.count` bytes into `buffer` and returns how many it read; 0 means the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int

    /// A human name for messages, such as the file path.
    var name: String { get }

    /// The bytes read so far, in the units of ``expectedBytes`` (compressed bytes for a compressed input).
    var bytesRead: Int { get }

    /// How many bytes the whole input has, when that is known in advance.
    var expectedBytes: Int? { get }
}

/// Why a byte source could not be opened or read.
public struct ByteSourceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The source's name, such as a path.
    public var source: String
    /// What went wrong, in words.
    public var reason: String

    public init(source: String, reason: String) {
        self.source = source
        self.reason = reason
    }

    public var description: String { "\(source): \(reason)" }
}
