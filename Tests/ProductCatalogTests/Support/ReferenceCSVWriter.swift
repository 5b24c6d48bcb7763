/// A small, plainly correct RFC 4180 writer that makes test input.
///
/// It quotes a field when it must: when it holds the delimiter, a quote, CR or LF, when it starts
/// with a byte-order mark (which would be stripped at the start of a file), and when it is the
/// only field of a record and empty (an empty line would be skipped as blank).
struct ReferenceCSVWriter {
    var delimiter: Character = ","
    var lineEnding = "\n"

    init(delimiter: Character = ",", lineEnding: String = "\n") {
        precondition(delimiter.isASCII && !"\"\r\n".contains(delimiter))
        self.delimiter = delimiter
        self.lineEnding = lineEnding
    }

    /// Whether `field` must be quoted.
    func needsQuotes(_ field: String, isOnlyField: Bool) -> Bool {
        if isOnlyField && field.isEmpty { return true }
        if field.unicodeScalars.first == "\u{FEFF}" { return true }
        return field.unicodeScalars.contains { $0 == "\"" || $0 == "\r" || $0 == "\n" || Character($0) == delimiter }
    }

    /// One field, quoted and with its quotes doubled when needed.
    func encode(_ field: String, isOnlyField: Bool = false) -> String {
        guard needsQuotes(field, isOnlyField: isOnlyField) else { return field }
        // Work on Unicode scalars: a quote followed by a combining mark is one Character.
        var quoted = String.UnicodeScalarView()
        quoted.append("\"")
        for scalar in field.unicodeScalars {
            quoted.append(scalar)
            if scalar == "\"" { quoted.append(scalar) }
        }
        quoted.append("\"")
        return String(quoted)
    }

    /// One record without its line ending.
    func encode(record fields: [String]) -> String {
        precondition(!fields.isEmpty, "a CSV record has at least one field")
        return fields.map { encode($0, isOnlyField: fields.count == 1) }.joined(separator: String(delimiter))
    }

    /// Whole records, each ended by ``lineEnding`` except perhaps the last.
    func encode(records: [[String]], finalLineEnding: Bool = true) -> String {
        var text = records.map { encode(record: $0) }.joined(separator: lineEnding)
        if finalLineEnding && !records.isEmpty { text += lineEnding }
        return text
    }
}
