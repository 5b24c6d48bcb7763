import ProductCatalog

/// ``SearchFilters`` as conditions on a `products` row, as the SQLite catalog reads them: a value
/// matches ignoring ASCII case, an empty value asks for products without one, and prices compare
/// thousandths whatever their currency.
enum PostgresFilters {
    /// `AND …` for each condition of `filters`, binding their values in `statement`.
    static func conditions(_ filters: SearchFilters, in statement: inout PostgresStatement) -> String {
        var conditions: [String] = []
        let fields: [(ProductField, [String])] = [
            (.productType, filters.productTypes), (.color, filters.colors), (.size, filters.sizes), (.brand, filters.brands),
        ]
        for (field, asked) in fields where !asked.isEmpty {
            let column = PostgresSchema.quote(field.columnName)
            let wanted = asked.map(ProductRules.trimmed)
            let given = wanted.filter { !$0.isEmpty }
            var alternatives: [String] = []
            if !given.isEmpty {
                alternatives.append("lower(\(column) COLLATE \"C\") = ANY(\(statement.bind(given.map(\.asciiLowercased))))")
            }
            if given.count < wanted.count { alternatives.append("coalesce(\(column), '') = ''") }
            conditions.append(alternatives.count == 1 ? alternatives[0] : "(" + alternatives.joined(separator: " OR ") + ")")
        }
        let list = PostgresSchema.quote(ProductField.listPrice.columnName)
        let sale = PostgresSchema.quote(ProductField.salesPrice.columnName)
        let price = filters.priceBasis == .list ? list : "coalesce(\(sale), \(list))"
        if let min = filters.minPrice { conditions.append("\(price) >= \(statement.bind(min.thousandths))") }
        if let max = filters.maxPrice { conditions.append("\(price) <= \(statement.bind(max.thousandths))") }
        if filters.onSale { conditions.append("\(sale) < \(list)") }
        return conditions.map { " AND " + $0 }.joined()
    }
}
