import ProductCatalog

/// Products as an aligned text table for a terminal.
struct ProductTable {
    let products: [Product]
    /// Where each product holds the query's words, to show them in bold (on a terminal).
    var highlights: [Highlights]? = nil
    /// The family each product stands for, when the search listed families.
    var families: (Product) -> FamilySummary? = { _ in nil }

    private static let headers = ["productId", "title", "listPrice", "salesPrice", "color", "size", "variants"]
    private static let maxWidths = [24, 40, 10, 10, 12, 8, 48]

    func render() -> String {
        let cells = products.map { product in
            let variants = families(product).map { Self.phrase($0, currency: product.currency) } ?? ProductOptions(text: product.options).text
            return [product.productId, product.title ?? "", product.listPrice?.text(currency: product.currency) ?? "",
                    product.salesPrice?.text(currency: product.currency) ?? "", product.color ?? "", product.size ?? "", variants]
                .enumerated().map { Self.clip($0.element.visibleOnTerminal, to: Self.maxWidths[$0.offset]) }
        }
        // The variants column only when some product has variants or options.
        let shown = cells.contains { !$0[6].isEmpty } ? Self.headers.count : Self.headers.count - 1
        let headers = Array(Self.headers.prefix(shown))
        let rows = cells.map { Array($0.prefix(shown)) }
        var widths = headers.map(\.count)
        for row in rows {
            for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String], bold: [Range<String.Index>] = []) -> String {
            cells.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                let shown = index == 1 ? Self.emboldened(cell, bold) : cell
                return (2...3).contains(index) ? pad + shown : shown + pad
            }.joined(separator: "  ").trimmingTrailingSpaces() + "\n"
        }
        var text = line(headers)
        text += line(widths.map { String(repeating: "-", count: $0) })
        for (index, row) in rows.enumerated() {
            // Bold only a title shown as stored (nothing escaped): the ranges are the stored text's.
            let title = products[index].title ?? ""
            let matches = highlights.flatMap { index < $0.count ? $0[index][.title] : nil } ?? []
            let bold = title == row[1] ? Highlights.ranges(of: matches, in: title) : []
            text += line(row, bold: bold)
        }
        return text
    }

    /// `9 variants · 3 lengths · 3 colors · 77.80–88.00`: an option with one value in the family
    /// is named with it (`Material: silk`).
    static func phrase(_ family: FamilySummary, currency: String?) -> String {
        var parts = ["\(family.variants) variants"]
        for option in family.options {
            parts.append(option.values.count == 1 ? "\(option.name): \(option.values[0])" : "\(option.values.count) \(option.name.lowercased())s")
        }
        if let low = family.lowestPrice, let high = family.highestPrice, low != high {
            parts.append("\(low.text(currency: currency))–\(high.text(currency: currency))")
        }
        return parts.joined(separator: " · ")
    }

    /// `text` with `ranges` between the terminal's bold and normal codes.
    private static func emboldened(_ text: String, _ ranges: [Range<String.Index>]) -> String {
        guard !ranges.isEmpty else { return text }
        var shown = ""
        var position = text.startIndex
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) where range.lowerBound >= position {
            shown += text[position..<range.lowerBound] + "\u{1B}[1m" + text[range] + "\u{1B}[22m"
            position = range.upperBound
        }
        return shown + text[position...]
    }

    /// Cuts `text` to `width` characters with an ellipsis, flattening line breaks.
    private static func clip(_ text: String, to width: Int) -> String {
        let flat = String(text.map { $0.isNewline ? " " : $0 })
        return flat.count <= width ? flat : String(flat.prefix(width - 1)) + "…"
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }
}
