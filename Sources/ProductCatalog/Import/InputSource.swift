/// Where an import's bytes come from, as a value that can cross to the import's thread.
public enum InputSource: Sendable, Hashable, CustomStringConvertible {
    /// A file on disk.
    case file(path: String)
    /// The process's standard input.
    case standardInput

    /// `-` means standard input; anything else is a path.
    public init(argument: String) {
        self = argument == "-" ? .standardInput : .file(path: argument)
    }

    /// Opens the source for reading.
    public func open() throws -> any ByteSource {
        switch self {
        case .file(let path): try FileByteSource(path: path)
        case .standardInput: FileByteSource(standardInput: ())
        }
    }

    public var description: String {
        switch self {
        case .file(let path): path
        case .standardInput: "standard input"
        }
    }
}
