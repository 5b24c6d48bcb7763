import PostgresNIO
import ProductCatalog

/// Reads a product from a row of `SELECT *` on the catalog table: known fields by column name, the rest as extras.
enum PostgresProductRow {
    private static let fields = Dictionary(uniqueKeysWithValues: ProductField.allCases.map { ($0.columnName.lowercased(), $0) })

    static func product(_ row: PostgresRow) throws -> Product {
        var product = Product(productId: "")
        for cell in row where cell.columnName != PostgresSchema.wordsColumn {
            guard let field = fields[cell.columnName.lowercased()] else {
                product.extras.append(Product.Extra(name: cell.columnName, value: try cell.decode(String?.self)))
                continue
            }
            switch field {
            case .productId: product.productId = try cell.decode(String.self)
            case .title: product.title = try cell.decode(String?.self)
            case .listPrice: product.listPrice = price(try cell.decode(Int64?.self))
            case .salesPrice: product.salesPrice = price(try cell.decode(Int64?.self))
            case .color: product.color = try cell.decode(String?.self)
            case .size: product.size = try cell.decode(String?.self)
            case .productType: product.productType = try cell.decode(String?.self)
            case .taxRate: product.taxRate = try cell.decode(String?.self)
            case .imageURL: product.imageURL = try cell.decode(String?.self)
            case .groupId: product.groupId = try cell.decode(String?.self)
            case .currency: product.currency = try cell.decode(String?.self)
            case .quantity: product.quantity = try cell.decode(Int64?.self)
            case .brand: product.brand = try cell.decode(String?.self)
            case .description: product.description = try cell.decode(String?.self)
            }
        }
        return product
    }

    private static func price(_ thousandths: Int64?) -> Price? {
        thousandths.flatMap { $0 >= 0 ? Price(thousandths: $0) : nil }
    }
}
