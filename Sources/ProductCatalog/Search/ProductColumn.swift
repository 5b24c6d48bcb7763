/// What a result column of `SELECT * FROM products` holds: a known field or an extra.
enum ProductColumn {
    case field(ProductField)
    /// A price in cents, in a catalog of layout version 1.
    case priceInCents(ProductField)
    case extra(String)

    /// The columns of `statement`, by name.
    static func columns(of statement: Statement) -> [ProductColumn] {
        let names = (0..<statement.columnCount).map { statement.columnName(at: $0) }
        return names.map { name in
            switch ProductField.stored(inColumn: name, among: names) {
            case (let field, false)?: .field(field)
            case (let field, true)?: .priceInCents(field)
            case nil: .extra(name)
            }
        }
    }

    /// The SQL for `field` of the row `alias` in a table with `columnNames`: its column, a layout 1
    /// cents column scaled to thousandths, or NULL when the table predates the field.
    static func expression(for field: ProductField, alias: String, columnNames: [String]) -> String {
        let names = columnNames.map { $0.lowercased() }
        if names.contains(field.columnName.lowercased()) { return "\(alias).\(field.columnName)" }
        if let cents = ProductField.centsColumns.first(where: { $0.value == field && names.contains($0.key.lowercased()) }) {
            return "(\(alias).\(cents.key) * 10)"
        }
        return "NULL"
    }

    /// The product in the statement's current row.
    static func product(from statement: Statement, columns: [ProductColumn]) -> Product {
        var product = Product(productId: "")
        for (index, column) in zip(Int32(0)..., columns) {
            switch column {
            case .field(let field):
                if statement.isNull(at: index) { continue }
                product[field] = field.isInteger ? .integer(statement.int64(at: index)) : .text(statement.text(at: index) ?? "")
            case .priceInCents(let field):
                let price = statement.isNull(at: index) ? nil : Price(cents: max(0, statement.int64(at: index)))
                if field == .listPrice { product.listPrice = price } else { product.salesPrice = price }
            case .extra(let name):
                product.extras.append(Product.Extra(name: name, value: statement.text(at: index)))
            }
        }
        return product
    }
}
