import ProductCatalog

/// ``SearchFilters`` as conditions on a `products` row, as the SQLite catalog reads them: a value
/// matches ignoring ASCII case, an empty value asks for products without one, and prices compare
/// thousandths whatever their currency. A collection's products are its members
/// (``PostgresSchema/collectionMembersTable``), a store's those with a quantity above 0 there
/// (``PostgresSchema/stockTable``).
enum PostgresFilters {
    /// `AND …` for each condition of `filters`, binding their values in `statement`. `keepsStock`
    /// says whether the catalog has a stock table: without one, no product is in stock at a store,
    /// and a product's total quantity is its own.
    static func conditions(_ filters: SearchFilters, keepsStock: Bool, in statement: inout PostgresStatement) -> String {
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
            case .option(let name, let given):
                let options = "('; ' || lower(coalesce(\(PostgresSchema.quote(ProductField.options.columnName)), '') COLLATE \"C\") || '; ')"
                let needles = given.map { SearchFilters.OptionChoice(name: name, value: $0).needle }
                let alternatives = needles.map { "strpos(\(options), \(statement.bind($0))) > 0" }
                conditions.append(alternatives.count == 1 ? alternatives[0] : "(" + alternatives.joined(separator: " OR ") + ")")
            case .priceAtLeast(let basis, let thousandths):
                conditions.append("\(price(basis)) >= \(statement.bind(thousandths))")
            case .priceAtMost(let basis, let thousandths):
                conditions.append("\(price(basis)) <= \(statement.bind(thousandths))")
            case .onSale:
                conditions.append("\(sale) < \(list)")
            case .inStock:
                // A product's total is its own quantity when the feed gives one, else the sum of its stores'.
                let quantity = PostgresSchema.quote(ProductField.quantity.columnName)
                conditions.append(keepsStock
                    ? "(\(quantity) > 0 OR (\(quantity) IS NULL AND EXISTS (\(inStock) AND s.quantity > 0)))"
                    : "\(quantity) > 0")
            case .inStockAt(let stores):
                conditions.append(keepsStock
                    ? "EXISTS (\(inStock) AND s.\"storeKey\" = ANY(\(statement.bind(stores.map(\.asciiLowercased)))) AND s.quantity > 0)"
                    : "false")
            case .inCollection(let name):
                conditions.append("""
                    EXISTS (SELECT 1 FROM \(PostgresSchema.collectionMembersTable) m \
                    WHERE m."collectionKey" = \(statement.bind(name.asciiLowercased)) AND m."productKey" = \(PostgresSchema.key))
                    """)
            }
        }
        return conditions.map { " AND " + $0 }.joined()
    }

    /// The stock rows of the product in the row being filtered, as the start of a subquery.
    private static let inStock = "SELECT 1 FROM \(PostgresSchema.stockTable) s WHERE s.\"productKey\" = \(PostgresSchema.key)"
}
