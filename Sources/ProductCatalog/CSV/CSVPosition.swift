/// Where a record or an error sits in its input.
public struct CSVPosition: Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line on which the record starts (line breaks inside quoted fields count).
    public var line: Int
    /// The 0-based byte offset of the record's first byte, counted from the start of the input.
    public var byteOffset: Int

    public init(line: Int, byteOffset: Int) {
        self.line = line
        self.byteOffset = byteOffset
    }

    public var description: String { "line \(line) (byte \(byteOffset))" }
}
