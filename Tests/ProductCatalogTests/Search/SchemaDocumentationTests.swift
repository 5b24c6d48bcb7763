import Foundation
import Testing
@testable import ProductCatalog

/// The table of filters and sorts in `docs/server.md` is the registry's (``SearchSchema``), and
/// the table of fields in `docs/commands.md` is ``ProductField``'s, rendered: adding a filter, a
/// sort or a field without its line fails here, with the table to paste.
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

    /// The Markdown table of every field, as the header mapping of `catalog import` lists them (in its list, indented).
    static var fieldTable: String {
        var lines = ["| Field | Other header names | Label | Value |", "|---|---|---|---|"]
        for field in ProductField.allCases {
            let others = field.aliases.filter { $0 != HeaderName.normalize(field.rawValue) }.map { "`\($0)`" }.joined(separator: ", ")
            let value = switch field.valueKind {
            case .text: "text"
            case .decimal: field.isPrice ? "a price" : "a number"
            case .wholeNumber: "a whole number"
            }
            lines.append("| `\(field.rawValue)` | \(others.isEmpty ? "—" : others) | \(field.label) | \(value) |")
        }
        return lines.map { "    " + $0 }.joined(separator: "\n")
    }

    static func documentation(_ name: String) throws -> String {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/" + name)
        return try String(contentsOf: docs, encoding: .utf8)
    }

    @Test func theDocumentedFiltersAndSortsAreTheRegistrys() throws {
        #expect(try Self.documentation("server.md").contains(Self.table), "docs/server.md should hold this table, between its markers:\n\(Self.table)")
    }

    @Test func theDocumentedFieldsAreTheRegistrys() throws {
        #expect(try Self.documentation("commands.md").contains(Self.fieldTable), "docs/commands.md should hold this table, between its markers:\n\(Self.fieldTable)")
    }
}
