import ProductCatalog

/// Products as an aligned text table for a terminal.
struct ProductTable {
    let products: [Product]
    /// Where each product holds the query's words, to show them in bold (on a terminal).
    var highlights: [Highlights]? = nil

    private static let headers = ["productId", "title", "listPrice", "salesPrice", "color", "size"]
    private static let maxWidths = [24, 40, 10, 10, 12, 8]

    func render() -> String {
        let rows = products.map { product in
            [product.productId, product.title ?? "", product.listPrice?.text(currency: product.currency) ?? "",
             product.salesPrice?.text(currency: product.currency) ?? "", product.color ?? "", product.size ?? ""]
                .enumerated().map { Self.clip($0.element.visibleOnTerminal, to: Self.maxWidths[$0.offset]) }
        }
        var widths = Self.headers.map(\.count)
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
        var text = line(Self.headers)
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
