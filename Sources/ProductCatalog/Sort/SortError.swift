/// Why sorting rows stopped.
public enum SortError: Error, Sendable, Equatable {
    /// The policy is ``DuplicatePolicy/fail`` and `productId` appears on two lines.
    case duplicate(productId: String, firstLine: Int, line: Int)
    /// The other side of the sort stopped, so this side stops too.
    case stopped
}

extension SortError {
    /// `later` repeats `earlier`'s productId.
    static func duplicate(_ earlier: EncodedRow, _ later: EncodedRow) -> SortError {
        .duplicate(productId: String(decoding: earlier.key, as: UTF8.self), firstLine: earlier.line, line: later.line)
    }
}
