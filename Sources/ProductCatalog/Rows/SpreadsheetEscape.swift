/// How an export keeps a spreadsheet from running what a seller typed (`=HYPERLINK(…)`, `+cmd|…`,
/// `@SUM(…)`), and how an import reads such an export back exactly.
///
/// A spreadsheet runs a cell that starts with `=`, `+`, `-` or `@` (or a tab or carriage return)
/// as a formula. A spreadsheet-safe export puts an apostrophe before such a text field, which
/// spreadsheets show as text and hide; and before a field that already starts with apostrophes
/// followed by one of these. An import takes one such apostrophe off any text field that starts
/// with apostrophes followed by one of these: the export's escape undone. A plain export escapes
/// only the fields that start with apostrophes, so that it too reads back exactly. (A hand-written
/// `'=x` is read as `=x`: the same rule, stated in the README.)
enum SpreadsheetEscape {
    /// The first bytes that make a spreadsheet read a cell as a formula.
    @inline(__always)
    static func startsFormula(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "=") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "@")
            || byte == 0x09 || byte == 0x0D
    }

    /// True when `bytes` are apostrophes (any number, none included) then a formula's first byte.
    @inline(__always)
    static func needsEscape(_ bytes: some Collection<UInt8>) -> Bool {
        guard let first = bytes.first(where: { $0 != UInt8(ascii: "'") }) else { return false }
        return startsFormula(first)
    }

    /// `text` as an export writes it: escaped when it would start a formula (`spreadsheetSafe`)
    /// or when an import would take an apostrophe off it.
    static func escaped(_ text: String, spreadsheetSafe: Bool) -> String {
        guard needsEscape(text.utf8), spreadsheetSafe || text.utf8.first == UInt8(ascii: "'") else { return text }
        return "'" + text
    }

    /// `bytes` with an export's escape undone: one leading apostrophe fewer when apostrophes lead
    /// to a formula's first byte; unchanged otherwise.
    @inline(__always)
    static func unescaped(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        guard let first = bytes.first, first == UInt8(ascii: "'"), needsEscape(bytes.dropFirst()) else { return bytes }
        return UnsafeBufferPointer(rebasing: bytes.dropFirst())
    }
}
