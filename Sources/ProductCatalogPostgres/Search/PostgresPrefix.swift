/// The productIds starting with a prefix, as a range of the folded key: `lower >= key < upper`.
///
/// The upper bound is the folded prefix with its last character replaced by the next one, so
/// it stays valid UTF-8, and in the `C` collation every text starting with the prefix sorts
/// below it.
struct PostgresPrefix {
    /// The folded prefix.
    let lower: String
    /// The first folded key past the prefix's keys; nil for the empty prefix, or one of U+10FFFF alone.
    let upper: String?

    init(_ prefix: String) {
        lower = prefix.asciiLowercased
        var scalars = Array(lower.unicodeScalars)
        while let last = scalars.popLast() {
            var next = last.value + 1
            if next == 0xD800 { next = 0xE000 }
            if let scalar = Unicode.Scalar(next) {
                scalars.append(scalar)
                var text = String.UnicodeScalarView()
                text.append(contentsOf: scalars)
                upper = String(text)
                return
            }
        }
        upper = nil
    }

    /// `AND` the conditions for keys in the range, or outside it with `excluding`, bound in `statement`.
    func condition(in statement: inout PostgresStatement, excluding: Bool = false) -> String {
        if lower.isEmpty { return excluding ? " AND false" : "" }
        var range = "\(PostgresSchema.key) >= \(statement.bind(lower))"
        if let upper { range += " AND \(PostgresSchema.key) < \(statement.bind(upper))" }
        return excluding ? " AND NOT (\(range))" : " AND " + range
    }
}
