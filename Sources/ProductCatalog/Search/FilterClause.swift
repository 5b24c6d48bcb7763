/// ``SearchFilters`` as SQL conditions on a `products` row, with the values to bind.
///
/// The conditions name the columns of the catalog at hand: a catalog of layout 1 keeps prices in
/// cents (scaled here to thousandths), and one made before a field existed compares it as NULL.
/// Values are bound as numbered parameters from `firstParameter` on, never written into the SQL,
/// so the SQL text (and the prepared statement) depends only on which filters are set and how
/// many values each has.
struct FilterClause {
    /// `AND …` for each condition, or an empty string when there is none.
    let sql: String
    /// The values of parameters `firstParameter`, `firstParameter + 1`, …
    let values: [Value]
    let firstParameter: Int32

    enum Value: Equatable {
        case text(String)
        case integer(Int64)
    }

    /// The conditions of `filters` on the row `alias` of a table with columns `columnNames`.
    /// `keepsStock` says whether the catalog has a stock table (``StockTable``): without one, no
    /// product is in stock at a store, and a product's total quantity is its own.
    /// `keepsCollections` whether it has collections (``CollectionTable``): without, no product is in one.
    init(_ filters: SearchFilters, alias: String, columnNames: [String], keepsStock: Bool, keepsCollections: Bool, firstParameter: Int32) {
        self.firstParameter = firstParameter
        var conditions: [String] = []
        var values: [Value] = []
        func parameter(_ value: Value) -> String {
            values.append(value)
            return "?\(firstParameter + Int32(values.count) - 1)"
        }
        func column(_ field: ProductField) -> String {
            ProductColumn.expression(for: field, alias: alias, columnNames: columnNames)
        }

        func price(_ basis: SearchFilters.PriceBasis) -> String {
            basis == .list ? column(.listPrice) : "ifnull(\(column(.salesPrice)), \(column(.listPrice)))"
        }
        for condition in filters.conditions {
            switch condition {
            case .oneOf(let field, let given, let orMissing):
                var alternatives: [String] = []
                if !given.isEmpty {
                    alternatives.append("\(column(field)) COLLATE NOCASE IN (\(given.map { parameter(.text($0)) }.joined(separator: ", ")))")
                }
                if orMissing { alternatives.append("ifnull(\(column(field)), '') = ''") }
                conditions.append(alternatives.count == 1 ? alternatives[0] : "(" + alternatives.joined(separator: " OR ") + ")")
            case .option(let name, let given):
                // The stored options between "; " before and after, folded as the needles are.
                let options = "('; ' || lower(ifnull(\(column(.options)), '')) || '; ')"
                let needles = given.map { SearchFilters.OptionChoice(name: name, value: $0).needle }
                let alternatives = needles.map { "instr(\(options), \(parameter(.text($0)))) > 0" }
                conditions.append(alternatives.count == 1 ? alternatives[0] : "(" + alternatives.joined(separator: " OR ") + ")")
            case .priceAtLeast(let basis, let thousandths):
                conditions.append("\(price(basis)) >= \(parameter(.integer(thousandths)))")
            case .priceAtMost(let basis, let thousandths):
                conditions.append("\(price(basis)) <= \(parameter(.integer(thousandths)))")
            case .onSale:
                conditions.append("\(column(.salesPrice)) < \(column(.listPrice))")
            case .inStock:
                let quantity = column(.quantity)
                conditions.append(keepsStock ? StockTable.inStock(alias: alias, quantity: quantity) : quantity + " > 0")
            case .inStockAt(let stores):
                guard keepsStock else {
                    conditions.append("0")
                    continue
                }
                conditions.append("""
                    EXISTS (SELECT 1 FROM \(StockTable.table) s WHERE s.productId = \(alias).productId \
                    AND s.store IN (\(stores.map { parameter(.text($0)) }.joined(separator: ", "))) AND s.quantity > 0)
                    """)
            case .inCollection(let name):
                conditions.append(keepsCollections ? CollectionTable.membership(alias: alias, parameter: parameter(.text(name))) : "0")
            }
        }

        sql = conditions.map { " AND " + $0 }.joined()
        self.values = values
    }

    /// Binds the values to `statement`.
    func bind(to statement: Statement) throws {
        for (offset, value) in values.enumerated() {
            let index = firstParameter + Int32(offset)
            switch value {
            case .text(let text): try statement.bind(index, text)
            case .integer(let number): try statement.bind(index, number)
            }
        }
    }
}
