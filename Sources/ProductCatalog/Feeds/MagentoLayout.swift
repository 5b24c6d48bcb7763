/// Magento 2 product exports: simple products, and configurable ones that list their variants.
///
/// Magento writes a configurable product after its simple variants, naming them in
/// `configurable_variations` (`sku=MH01-XS-Black,size=XS,color=Black|…`). Simple rows wait (at
/// most ``maxWaiting`` of them) for the configurable row that names them: it becomes their
/// `groupId`, fills their blank description and categories, and is folded into them; the
/// attributes it names for a variant are the variant's options. `size` and `color` come from
/// `additional_attributes`; `special_price` is the sale price. Rows of a store
/// view (`store_view_code` set) carry translations of a product, not a product: they are folded.
struct MagentoLayout: FeedLayout {
    let outputHeader: [String]
    private(set) var foldedRecords = 0
    private let extras: [Int]
    private let storeView: Int?
    private let sku, type, name, description, price, special, quantity, categories, attributes, variations: Int?
    private var waiting: [(line: Int, fields: [String])] = []
    /// Simple rows held back at most, so memory stays bounded whatever the file.
    static let maxWaiting = 5_000

    init(header: [String]) {
        var feed = FeedColumns(header: header)
        sku = feed.take("sku")
        storeView = feed.index("store_view_code")
        type = feed.index("product_type")
        name = feed.take("name")
        description = feed.take("description")
        price = feed.take("price")
        special = feed.take("special_price")
        quantity = feed.take("qty")
        categories = feed.take("categories")
        attributes = feed.index("additional_attributes")
        variations = feed.index("configurable_variations")
        extras = feed.extras
        outputHeader = feed.outputHeader(extras: extras)
    }

    mutating func take(_ fields: [String], line: Int, emit: (FeedRow) throws -> Void) throws {
        // A store view's row holds that view's translations of a product already read, not a product.
        if !fields[column: storeView].isEmpty {
            foldedRecords += 1
            return
        }
        let listed = fields[column: variations]
        guard fields[column: type] == "configurable", !listed.isEmpty else {
            waiting.append((line, fields))
            if waiting.count > Self.maxWaiting { try emit(row(waiting.removeFirst())) }
            return
        }
        let children = Set(listed.split(separator: "|").compactMap { variation in
            variation.split(separator: ",").first { $0.hasPrefix("sku=") }.map { String($0.dropFirst(4)) }
        })
        for record in waiting {
            try emit(row(record, parent: children.contains(record.fields[column: sku]) ? fields : nil))
        }
        waiting.removeAll(keepingCapacity: true)
        foldedRecords += 1
    }

    mutating func finish(emit: (FeedRow) throws -> Void) throws {
        for record in waiting { try emit(row(record)) }
        waiting.removeAll()
    }

    private func row(_ record: (line: Int, fields: [String]), parent: [String]? = nil) -> FeedRow {
        let fields = record.fields
        var row = FeedRow(line: record.line, extras: extras.map { fields[$0] })
        func filled(_ column: Int?) -> String {
            let own = fields[column: column]
            return own.isEmpty ? parent?[column: column] ?? "" : own
        }
        row[.productId] = fields[column: sku]
        row[.groupId] = parent?[column: sku] ?? ""
        row[.title] = fields[column: name]
        row[.description] = filled(description)
        row[.productType] = filled(categories).split(separator: ",").first.map(String.init) ?? ""
        row[.listPrice] = fields[column: price]
        row[.salesPrice] = fields[column: special]
        row[.quantity] = fields[column: quantity].split(separator: ".").first.map(String.init) ?? ""
        let pairs = fields[column: attributes].split(separator: ",").map { pair -> (name: String, value: String) in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return (String(parts.first ?? ""), parts.count > 1 ? String(parts[1]) : "")
        }
        (row[.color], row[.size]) = FeedValues.colorAndSize(pairs)
        row[.options] = ProductOptions(Self.variedAttributes(of: fields[column: sku], in: parent?[column: variations] ?? "")).text
        return row
    }

    /// The attributes a configurable product varies its variant `sku` by, from its
    /// `configurable_variations` (`sku=MH01-XS-Black,size=XS,color=Black|…`), named as a person
    /// reads an attribute code (`Size`, `Color`).
    static func variedAttributes(of sku: String, in variations: String) -> [(name: String, value: String)] {
        for variation in variations.split(separator: "|") {
            let pairs = variation.split(separator: ",").map { $0.split(separator: "=", maxSplits: 1).map(String.init) }
            guard pairs.contains(where: { $0.first == "sku" && $0.count == 2 && $0[1] == sku }) else { continue }
            return pairs.filter { $0.count == 2 && $0[0] != "sku" }.map { pair in
                let words = pair[0].replacing("_", with: " ")
                return (name: words.prefix(1).uppercased() + words.dropFirst(), value: pair[1])
            }
        }
        return []
    }
}
