import ProductCatalog

/// Products as an aligned text table for a terminal.
struct ProductTable {
    let products: [Product]

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
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { index, cell in
                let pad = String(repeating: " ", count: widths[index] - cell.count)
                return (2...3).contains(index) ? pad + cell : cell + pad
            }.joined(separator: "  ").trimmingTrailingSpaces() + "\n"
        }
        var text = line(Self.headers)
        text += line(widths.map { String(repeating: "-", count: $0) })
        for row in rows { text += line(row) }
        return text
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
