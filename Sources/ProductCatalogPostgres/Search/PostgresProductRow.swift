import PostgresNIO
import ProductCatalog

/// Reads a product from a row of `SELECT *` on the catalog table: known fields by column name, the rest as extras.
enum PostgresProductRow {
    /// The columns a search adds to a row: its tier, its sort value.
    private static let searchColumns: Set<String> = [PostgresWordTiers.tierColumn, "catalog_sort"]
    private static let fields = Dictionary(uniqueKeysWithValues: ProductField.allCases.map { ($0.columnName.lowercased(), $0) })

    static func product(_ row: PostgresRow) throws -> Product {
        var product = Product(productId: "")
        for cell in row where !PostgresSchema.wordColumns.contains(cell.columnName) && !searchColumns.contains(cell.columnName) {
            guard let field = fields[cell.columnName.lowercased()] else {
                product.extras.append(Product.Extra(name: cell.columnName, value: try cell.decode(String?.self)))
                continue
            }
            if field.isInteger {
                // A negative price cannot be written; one read from elsewhere counts as none.
                product[field] = try cell.decode(Int64?.self).flatMap { field.isPrice && $0 < 0 ? nil : .integer($0) }
            } else {
                product[field] = try cell.decode(String?.self).map(FieldValue.text)
            }
        }
        return product
    }
}
