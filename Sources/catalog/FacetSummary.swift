import ProductCatalog

/// Facet counts as lines for a terminal: one per field, its values most common first.
struct FacetSummary {
    let counts: FacetCounts

    func render() -> String {
        let total = Formatting.count(counts.counted)
        var text = counts.isComplete
            ? "Counts among all \(total) matches:\n"
            : "Counts among the first \(total) matches (there are more; each count is at least this):\n"
        let names: [ProductField: String] = [.productType: "type", .color: "color", .size: "size"]
        let width = max(counts.facets.map { names[$0.field, default: $0.field.rawValue].count }.max() ?? 0, counts.stores == nil ? 0 : 5)
        for facet in counts.facets {
            let name = names[facet.field, default: facet.field.rawValue]
            var parts = facet.values.map { "\($0.value.visibleOnTerminal) \(Formatting.count($0.count))" }
            if facet.other > 0 { parts.append("other \(Formatting.count(facet.other))") }
            if facet.withoutValue > 0 { parts.append("none \(Formatting.count(facet.withoutValue))") }
            let padding = String(repeating: " ", count: width - name.count)
            text += "  \(name)\(padding)  \(parts.isEmpty ? "-" : parts.joined(separator: " · "))\n"
        }
        // In stock at each store: a product counts once per store it is in stock at.
        if let stores = counts.stores {
            var parts = stores.values.map { "\($0.value.visibleOnTerminal) \(Formatting.count($0.count))" }
            if stores.other > 0 { parts.append("other stores \(Formatting.count(stores.other))") }
            text += "  store\(String(repeating: " ", count: width - 5))  \(parts.isEmpty ? "-" : parts.joined(separator: " · "))\n"
        }
        // Options by name, filtered with --option 'Name:Value'.
        if !counts.options.isEmpty {
            text += counts.optionsComplete && counts.optionsCounted == counts.counted
                ? "Options:\n"
                : "Options, among the first \(Formatting.count(counts.optionsCounted)) products\(counts.optionsComplete ? "" : " (there are more)"):\n"
            let width = counts.options.map { $0.name.visibleOnTerminal.count }.max() ?? 0
            for option in counts.options {
                var parts = option.values.map { "\($0.value.visibleOnTerminal) \(Formatting.count($0.count))" }
                if option.other > 0 { parts.append("other \(Formatting.count(option.other))") }
                let name = option.name.visibleOnTerminal
                text += "  \(name)\(String(repeating: " ", count: max(0, width - name.count)))  \(parts.joined(separator: " · "))\n"
            }
        }
        return text
    }
}
