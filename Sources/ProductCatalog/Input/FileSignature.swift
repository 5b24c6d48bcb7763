/// What a file that is not text is, known from its first bytes: a CSV never starts like these.
///
/// The import looks at its header line with it, so a picture or a spreadsheet chosen by mistake
/// is named as such instead of read as a header of garbled column names.
public enum FileSignature: String, Sendable, CaseIterable {
    case png, jpeg, gif, webp, pdf, zip, oldExcel, utf16, binary

    /// What the file is, for messages: "a PNG image".
    public var displayName: String {
        switch self {
        case .png: "a PNG image"
        case .jpeg: "a JPEG image"
        case .gif: "a GIF image"
        case .webp: "a WebP image"
        case .pdf: "a PDF document"
        case .zip: "an Excel workbook (.xlsx) or another ZIP archive"
        case .oldExcel: "an Excel workbook (.xls)"
        case .utf16: "text in UTF-16"
        case .binary: "a binary file"
        }
    }

    /// What to do instead.
    public var advice: String {
        switch self {
        case .zip, .oldExcel: "Open it in the spreadsheet program and save it as CSV (UTF-8), then import that file."
        case .utf16: "Save it as CSV (UTF-8) and import that file."
        default: "Choose the CSV or TSV file your shop exported."
        }
    }

    /// The kind of non-text file `bytes` (the start of a file) begin, or nil when they may be text.
    ///
    /// Text has no NUL byte: many within the first bytes mean UTF-16 (every other byte NUL) or
    /// binary. A stray one or two are left to the header's own check, which names the column.
    public static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> FileSignature? {
        func starts(_ prefix: [UInt8]) -> Bool { bytes.starts(with: prefix) }
        if starts([0x89, 0x50, 0x4E, 0x47]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(Array("GIF8".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)), bytes.count >= 12, bytes[8..<12].elementsEqual("WEBP".utf8) { return .webp }
        if starts(Array("%PDF-".utf8)) { return .pdf }
        if starts([0x50, 0x4B, 0x03, 0x04]) { return .zip }
        if starts([0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1]) { return .oldExcel }
        if starts([0xFF, 0xFE]) || starts([0xFE, 0xFF]) { return .utf16 }
        let head = bytes.prefix(512)
        let nuls = head.lazy.filter { $0 == 0 }.count
        if nuls == 0 { return nil }
        // ASCII text in UTF-16 without a byte order mark: every other byte is NUL (and not more than that).
        if nuls * 4 > head.count * 3 { return .binary }
        if nuls * 3 >= head.count { return .utf16 }
        return nuls >= 4 ? .binary : nil
    }
}
