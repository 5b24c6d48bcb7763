import ArgumentParser
import ProductCatalog

/// How a product file is read: the options `catalog import` and `catalog inspect` share.
struct ReadingOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The platform the file comes from: \(FeedFormat.allCases.map(\.rawValue).joined(separator: ", ")).",
        discussion: "By default the format is recognised from the header; generic maps columns by name and alias only."))
    var format: FeedFormat?

    @Option(name: .customLong("column"), help: ArgumentHelp(
        "Map a field to a header by hand, as FIELD=HEADER (repeatable); the file is then read as generic unless --format says otherwise.",
        discussion: "For example --column productId=\"Variant SKU\".",
        valueName: "field=header"))
    var columns: [String] = []

    @Option(help: "The file's text encoding: utf8, latin1 or windows-1252.")
    var encoding: TextEncoding = .utf8

    @Option(help: "The field delimiter: , ; tab or | (default: detected from the header line).")
    var delimiter: String?

    @Option(help: "Reject rows with a field longer than this many bytes.")
    var maxFieldBytes = FeedReading().maxFieldBytes

    func validate() throws {
        _ = try parsedColumns()
        _ = try parsedDelimiter()
        guard maxFieldBytes > 0 else { throw ValidationError("--max-field-bytes must be 1 or more.") }
    }

    /// How to read the feed, as these options say.
    func feedReading() throws -> FeedReading {
        FeedReading(columns: try parsedColumns(), encoding: encoding, delimiter: try parsedDelimiter(),
                    maxFieldBytes: maxFieldBytes, format: format)
    }

    private func parsedColumns() throws -> [ProductField: String] {
        var result: [ProductField: String] = [:]
        for mapping in columns {
            guard let equals = mapping.firstIndex(of: "=") else {
                throw ValidationError("--column \(mapping): write it as FIELD=HEADER, e.g. --column productId=\"Variant SKU\".")
            }
            let name = String(mapping[..<equals])
            let header = String(mapping[mapping.index(after: equals)...])
            guard let field = ProductField(named: name) else {
                throw ValidationError("--column \(mapping): unknown field \"\(name)\"; fields are \(ProductField.allCases.map(\.rawValue).joined(separator: ", ")).")
            }
            guard result[field] == nil else { throw ValidationError("--column names \(field.rawValue) twice.") }
            result[field] = header
        }
        return result
    }

    private func parsedDelimiter() throws -> UInt8? {
        guard let delimiter else { return nil }
        switch delimiter {
        case ",", "comma": return UInt8(ascii: ",")
        case ";", "semicolon": return UInt8(ascii: ";")
        case "\t", "tab", "\\t": return UInt8(ascii: "\t")
        case "|", "pipe": return UInt8(ascii: "|")
        default: throw ValidationError("--delimiter \(delimiter): use , ; tab or |.")
        }
    }
}
