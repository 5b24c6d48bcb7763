/// What a result column of `SELECT * FROM products` holds: a known field or an extra.
enum ProductColumn {
    case field(ProductField)
    case extra(String)

    /// The columns of `statement`, by name.
    static func columns(of statement: Statement) -> [ProductColumn] {
        let byColumnName = Dictionary(uniqueKeysWithValues: ProductField.allCases.map { ($0.columnName, $0) })
        return (0..<statement.columnCount).map { index in
            let name = statement.columnName(at: index)
            return byColumnName[name].map(ProductColumn.field) ?? .extra(name)
        }
    }

    /// The product in the statement's current row.
    static func product(from statement: Statement, columns: [ProductColumn]) -> Product {
        var product = Product(productId: "")
        for (index, column) in zip(Int32(0)..., columns) {
            switch column {
            case .field(let field):
                switch field {
                case .productId: product.productId = statement.text(at: index) ?? ""
                case .title: product.title = statement.text(at: index)
                case .listPrice: product.listPrice = price(statement, index)
                case .salesPrice: product.salesPrice = price(statement, index)
                case .color: product.color = statement.text(at: index)
                case .size: product.size = statement.text(at: index)
                case .productType: product.productType = statement.text(at: index)
                case .taxRate: product.taxRate = statement.text(at: index)
                case .imageURL: product.imageURL = statement.text(at: index)
                case .groupId: product.groupId = statement.text(at: index)
                case .currency: product.currency = statement.text(at: index)
                case .quantity: product.quantity = statement.isNull(at: index) ? nil : statement.int64(at: index)
                case .brand: product.brand = statement.text(at: index)
                case .description: product.description = statement.text(at: index)
                }
            case .extra(let name):
                product.extras.append(Product.Extra(name: name, value: statement.text(at: index)))
            }
        }
        return product
    }

    private static func price(_ statement: Statement, _ index: Int32) -> Price? {
        statement.isNull(at: index) ? nil : Price(cents: max(0, statement.int64(at: index)))
    }
}
