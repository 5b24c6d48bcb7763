/// What a family listed as one result holds: how many variants, their prices, their options.
public struct FamilySummary: Sendable, Hashable {
    /// The values one option takes across the family, in the order first met (productId order).
    public struct OptionValues: Sendable, Hashable {
        public var name: String
        public var values: [String]
    }

    public var groupId: String
    /// The family's variants, every one (not only those that matched the search).
    public var variants: Int
    /// The lowest and highest price a variant sells for (its sale price, else its list price).
    public var lowestPrice: Price?
    public var highestPrice: Price?
    /// Each option named by some variant, with its values.
    public var options: [OptionValues]

    /// Folds the variants' options (``ProductOptions``, in productId order) into each name's values.
    public init(groupId: String, variants: Int, lowestPrice: Price?, highestPrice: Price?, optionTexts: [String]) {
        self.groupId = groupId
        self.variants = variants
        self.lowestPrice = lowestPrice
        self.highestPrice = highestPrice
        var options: [OptionValues] = []
        for text in optionTexts {
            for option in ProductOptions(text: text).options {
                if let index = options.firstIndex(where: { $0.name.lowercased() == option.name.lowercased() }) {
                    if !options[index].values.contains(option.value) { options[index].values.append(option.value) }
                } else {
                    options.append(OptionValues(name: option.name, values: [option.value]))
                }
            }
        }
        self.options = options
    }
}

extension FamilySummary: JSONRepresentable {
    /// `{"groupId": …, "variants": 9, "lowestPrice": "77.80", "highestPrice": "88.00",
    /// "options": [{"name": "Length", "values": ["14 Inches", …]}, …]}`, prices in `currency`.
    public var jsonValue: JSONValue { jsonValue(currency: nil) }

    public func jsonValue(currency: String?) -> JSONValue {
        .object([
            .init("groupId", .string(groupId)),
            .init("variants", .int(variants)),
            .init("lowestPrice", .string(lowestPrice?.text(currency: currency))),
            .init("highestPrice", .string(highestPrice?.text(currency: currency))),
            .init("options", .array(options.map { .object([.init("name", .string($0.name)), .init("values", .array($0.values.map { .string($0) }))]) })),
        ])
    }
}

extension ProductSearch {
    /// The families of `products` that have a groupId, by groupId.
    public func familySummaries(of products: [Product]) throws -> [String: FamilySummary] {
        let groupIds = Array(Set(products.compactMap(\.groupId).filter { !$0.isEmpty }))
        guard !groupIds.isEmpty, try FamilyIndex.exists(connection) else { return [:] }
        let names = try productColumnNames
        let group = ProductField.groupId.columnName
        let price = "ifnull(\(ProductColumn.expression(for: .salesPrice, alias: "p", columnNames: names)), \(ProductColumn.expression(for: .listPrice, alias: "p", columnNames: names)))"
        let options = ProductColumn.expression(for: .options, alias: "p", columnNames: names)
        var summaries: [String: FamilySummary] = [:]
        for batch in stride(from: 0, to: groupIds.count, by: 100).map({ groupIds[$0..<min($0 + 100, groupIds.count)] }) {
            let placeholders = (1...batch.count).map { "?\($0)" }.joined(separator: ", ")
            let statement = try prepared("""
                SELECT p.\(group), count(*), min(\(price)), max(\(price)), group_concat(ifnull(\(options), ''), char(30)) FROM \(CatalogSchema.table) p
                WHERE \(FamilyIndex.inFamily("p")) AND p.\(group) IN (\(placeholders)) GROUP BY p.\(group)
                """)
            try statement.using {
                for (index, groupId) in zip(Int32(1)..., batch) { try statement.bind(index, groupId) }
                while try statement.step() {
                    let groupId = statement.text(at: 0) ?? ""
                    // A value holds no control character, so the record separator parts them.
                    let texts = (statement.text(at: 4) ?? "").split(separator: "\u{1E}").map(String.init)
                    summaries[groupId] = FamilySummary(
                        groupId: groupId, variants: Int(statement.int64(at: 1)),
                        lowestPrice: statement.isNull(at: 2) ? nil : Price(thousandths: statement.int64(at: 2)),
                        highestPrice: statement.isNull(at: 3) ? nil : Price(thousandths: statement.int64(at: 3)),
                        optionTexts: texts)
                }
            }
        }
        return summaries
    }
}
