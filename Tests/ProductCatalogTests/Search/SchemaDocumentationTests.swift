import Foundation
import Testing
@testable import ProductCatalog

/// The table of filters and sorts in `docs/server.md` is the registry's (``SearchSchema``),
/// rendered: adding a filter or a sort without its line fails here, with the table to paste.
struct SchemaDocumentationTests {
    /// The Markdown table of every filter and sort, as the documentation shows it.
    static var table: String {
        var lines = ["| Parameter | Option of `catalog search` | Values | Keeps |", "|---|---|---|---|"]
        for filter in SearchSchema.filters {
            let values = switch filter.arity {
            case .many: "repeatable: any of them"
            case .one: filter.allowed.map { $0.map { "`\($0)`" }.joined(separator: " or ") } ?? "one \(filter.valueName ?? "value")"
            case .flag: "`true` or `false`"
            }
            let option = filter.flagValue.map { "`--\(filter.option)` (\(filter.name)=\($0))" } ?? "`--\(filter.option)`"
            lines.append("| `\(filter.name)` | \(option) | \(values) | \(filter.help) |")
        }
        lines.append("")
        lines.append("| `sort=` | Order |")
        lines.append("|---|---|")
        for sort in SearchSchema.sorts { lines.append("| `\(sort.rawValue)` | \(sort.label) |") }
        return lines.joined(separator: "\n")
    }

    @Test func theDocumentedFiltersAndSortsAreTheRegistrys() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/server.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        #expect(text.contains(Self.table), "docs/server.md should hold this table, between its markers:\n\(Self.table)")
    }
}
