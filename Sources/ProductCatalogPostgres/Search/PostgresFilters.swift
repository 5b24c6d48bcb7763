import ProductCatalog

/// ``SearchFilters`` as conditions on a `products` row, as the SQLite catalog reads them: a value
/// matches ignoring ASCII case, an empty value asks for products without one, and prices compare
/// thousandths whatever their currency.
enum PostgresFilters {
    /// `AND …` for each condition of `filters`, binding their values in `statement`.
    static func conditions(_ filters: SearchFilters, in statement: inout PostgresStatement) -> String {
        var conditions: [String] = []
        let list = PostgresSchema.quote(ProductField.listPrice.columnName)
        let sale = PostgresSchema.quote(ProductField.salesPrice.columnName)
        func price(_ basis: SearchFilters.PriceBasis) -> String {
            basis == .list ? list : "coalesce(\(sale), \(list))"
        }
        for condition in filters.conditions {
            switch condition {
            case .oneOf(let field, let given, let orMissing):
                let column = PostgresSchema.quote(field.columnName)
                var alternatives: [String] = []
                if !given.isEmpty {
                    alternatives.append("lower(\(column) COLLATE \"C\") = ANY(\(statement.bind(given.map(\.asciiLowercased))))")
                }
                if orMissing { alternatives.append("coalesce(\(column), '') = ''") }
                conditions.append(alternatives.count == 1 ? alternatives[0] : "(" + alternatives.joined(separator: " OR ") + ")")
            case .priceAtLeast(let basis, let thousandths):
                conditions.append("\(price(basis)) >= \(statement.bind(thousandths))")
            case .priceAtMost(let basis, let thousandths):
                conditions.append("\(price(basis)) <= \(statement.bind(thousandths))")
            case .onSale:
                conditions.append("\(sale) < \(list)")
            }
        }
        return conditions.map { " AND " + $0 }.joined()
    }
}
