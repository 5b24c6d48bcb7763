/// How many of a search's products have each product type, color and size.
///
/// The counts cover every match when there are at most ``ProductSearch/facetCap`` of them
/// (``isComplete``); past that, they cover the first that many in the search's order, and a
/// reader shows the total as "10,000+" and each count as "at least". Values are grouped ignoring
/// ASCII case, as filters match them, under the spelling met first.
public struct FacetCounts: Sendable, Equatable {
    /// One field's values, most products first.
    public struct Facet: Sendable, Equatable {
        public var field: ProductField
        /// The most common values, by count (highest first), then by value.
        public var values: [ValueCount]
        /// Products with a value not among `values`.
        public var other: Int
        /// Products without a value.
        public var withoutValue: Int
    }

    /// A value and how many products have it.
    public struct ValueCount: Sendable, Equatable {
        public var value: String
        public var count: Int
    }

    /// The fields counted, in this order.
    public static let fields: [ProductField] = [.productType, .color, .size]

    /// Type, color and size, in the order of ``fields``.
    public var facets: [Facet]
    /// The products counted: every match, or the first ``ProductSearch/facetCap`` when not ``isComplete``.
    public var counted: Int
    /// True when every match was counted; false when there are more than were counted.
    public var isComplete: Bool
    /// How many of the products counted are in stock at each store, most first; nil for a catalog
    /// without stock by store (see ``StockImporter``).
    public var stores: StoreCounts?
    /// The variants' options by name (``ProductOptions``): the names most products counted have,
    /// most first, each with its most common values.
    public var options: [OptionFacet] = []
    /// The products whose options were counted: those of ``counted``, except for the whole
    /// catalog, whose options are counted among its first ``ProductSearch/facetCap`` products in
    /// productId order (its other counts are kept exact, see ``FacetIndex``).
    public var optionsCounted = 0
    /// True when the options of every product matched were counted.
    public var optionsComplete = true

    /// One option's values among the products counted.
    public struct OptionFacet: Sendable, Equatable {
        /// The option's name, as the first product counted with it spells it.
        public var name: String
        /// The most common values, by count (highest first), then by value.
        public var values: [ValueCount]
        /// Products with a value not among `values`.
        public var other: Int
        /// Products with the option.
        public var products: Int
    }

    /// The stores most products counted are in stock at.
    public struct StoreCounts: Sendable, Equatable {
        /// The stores with the most products in stock, by count (highest first), then by name.
        public var values: [ValueCount]
        /// Products in stock at the stores not among `values`, once per store.
        public var other: Int

        /// The `top` stores of `counts` (products in stock at each store, stores differing only in
        /// ASCII case counted as one, spelled as the first) and the products at the others.
        public init(tallying counts: some Sequence<(store: String, products: Int)>, top: Int = 10) {
            var tally = FacetTally()
            for (store, products) in counts { tally.add(store, count: products) }
            self = tally.stores(top: top)
        }

        init(values: [ValueCount], other: Int) {
            self.values = values
            self.other = other
        }
    }

    public init(facets: [Facet], counted: Int, isComplete: Bool, stores: StoreCounts? = nil, options: [OptionFacet] = []) {
        self.facets = facets
        self.counted = counted
        self.isComplete = isComplete
        self.stores = stores
        self.options = options
        optionsCounted = counted
        optionsComplete = isComplete
    }

    /// The counts of a search that matches nothing, such as one on a catalog not made yet.
    public static var noMatches: FacetCounts {
        FacetCounts(facets: fields.map { Facet(field: $0, values: [], other: 0, withoutValue: 0) }, counted: 0, isComplete: true)
    }

    /// The counts of `field`.
    public subscript(field: ProductField) -> Facet? {
        facets.first { $0.field == field }
    }
}

extension FacetCounts {
    /// Tallies the type, color and size of each product counted (in the order of ``fields``),
    /// then its options (``ProductOptions/text``) when a row has one more value, keeping the
    /// `top` values of each.
    /// With `keepsStock`, the value after the options is the stores the product is in stock at,
    /// separated by U+001F (which no store's name holds), and the stores are counted too.
    public init(tallying rows: [[String?]], top: Int = 10, isComplete: Bool, keepsStock: Bool = false) {
        var tallies = Array(repeating: FacetTally(), count: Self.fields.count)
        var options = OptionTally()
        var stores = FacetTally()
        for row in rows {
            for (index, value) in row.prefix(tallies.count).enumerated() { tallies[index].add(value) }
            if row.count > tallies.count { options.add(row[tallies.count]) }
            if keepsStock, row.count > tallies.count + 1, let held = row[tallies.count + 1] {
                for store in held.split(separator: "\u{1F}") { stores.add(String(store)) }
            }
        }
        self.init(facets: zip(Self.fields, tallies).map { $1.facet($0, top: top) }, counted: rows.count, isComplete: isComplete,
                  stores: keepsStock ? stores.stores(top: top) : nil, options: options.facets(top: top))
    }

    /// These counts with the options of `rows` (each a product's stored options), counted among
    /// the first products when the others were counted from kept totals.
    public func withOptions(of rows: [String?], top: Int = 10, isComplete: Bool) -> FacetCounts {
        var tally = OptionTally()
        for row in rows { tally.add(row) }
        var counts = self
        counts.options = tally.facets(top: top)
        counts.optionsCounted = rows.count
        counts.optionsComplete = isComplete
        return counts
    }

    /// These counts with the options of `other` (its options, how many products it counted them among, whether all).
    public func withOptions(of other: FacetCounts) -> FacetCounts {
        var counts = self
        (counts.options, counts.optionsCounted, counts.optionsComplete) = (other.options, other.optionsCounted, other.optionsComplete)
        return counts
    }
}

extension FacetCounts {
    /// The counts of every product of a catalog, from each field's values (in the order of
    /// ``fields``) with the products having each, an empty or nil value for those without one.
    public init(totals: [[(value: String?, products: Int)]], top: Int = 10) {
        var tallies = Array(repeating: FacetTally(), count: Self.fields.count)
        for (index, values) in totals.prefix(tallies.count).enumerated() {
            for (value, products) in values { tallies[index].add(value, count: products) }
        }
        let counted = totals.first?.reduce(0) { $0 + $1.products } ?? 0
        self.init(facets: zip(Self.fields, tallies).map { $1.facet($0, top: top) }, counted: counted, isComplete: true)
    }
}

/// Tallies the options of the products counted, by name and value, each grouped ignoring ASCII case.
///
/// The stored texts are counted as they come and parsed once each at the end: a catalog's variants
/// repeat a few texts (`Color: Navy; Size: M`), and parsing each product's took the whole
/// catalog's facets from 1 to 40 ms.
struct OptionTally {
    /// Each stored text, in the order first met, and how many products have it.
    private var texts: [String] = []
    private var products: [String: Int] = [:]

    /// Counts the options of one product, as stored (``ProductOptions/text``).
    mutating func add(_ text: String?) {
        guard let text, !text.isEmpty else { return }
        if products[text] == nil { texts.append(text) }
        products[text, default: 0] += 1
    }

    /// The `names` most common options (by products, then name), each with its `top` values.
    func facets(names count: Int = OptionTally.names, top: Int) -> [FacetCounts.OptionFacet] {
        // By name, spelled as the first product counted with it spells it.
        var names: [String: (spelling: String, products: Int, values: FacetTally)] = [:]
        for text in texts {
            let having = self.products[text] ?? 0
            for option in ProductOptions(text: text).options {
                let key = option.name.asciiLowercased
                var entry = names[key] ?? (option.name, 0, FacetTally())
                entry.products += having
                entry.values.add(option.value, count: having)
                names[key] = entry
            }
        }
        return names.values.sorted { $0.products != $1.products ? $0.products > $1.products : $0.spelling < $1.spelling }
            .prefix(count).map { entry in
                let facet = entry.values.facet(.options, top: top)
                return FacetCounts.OptionFacet(name: entry.spelling, values: facet.values, other: facet.other, products: entry.products)
            }
    }

    /// How many options facets show at most.
    static let names = 8
}

/// Tallies the values of one field, grouped ignoring ASCII case.
struct FacetTally {
    private var counts: [String: (spelling: String, count: Int)] = [:]
    private var withoutValue = 0

    mutating func add(_ value: String?, count: Int = 1) {
        guard let value, !value.isEmpty else {
            withoutValue += count
            return
        }
        let key = String(decoding: value.utf8.map(ProductIdOrder.fold), as: UTF8.self)
        counts[key, default: (value, 0)].count += count
    }

    /// The `top` most common values (by count, then spelling) and the count of the others.
    private func top(_ top: Int) -> (values: [FacetCounts.ValueCount], other: Int) {
        let sorted = counts.values.sorted { $0.count != $1.count ? $0.count > $1.count : $0.spelling < $1.spelling }
        return (sorted.prefix(top).map { FacetCounts.ValueCount(value: $0.spelling, count: $0.count) },
                sorted.dropFirst(top).reduce(0) { $0 + $1.count })
    }

    /// The `top` most common values and what is left.
    func facet(_ field: ProductField, top: Int) -> FacetCounts.Facet {
        let (values, other) = self.top(top)
        return FacetCounts.Facet(field: field, values: values, other: other, withoutValue: withoutValue)
    }

    /// The `top` most common values and what is left, as store counts.
    func stores(top: Int) -> FacetCounts.StoreCounts {
        let (values, other) = self.top(top)
        return FacetCounts.StoreCounts(values: values, other: other)
    }
}

extension FacetCounts: JSONRepresentable {
    /// `{"counted": 10000, "complete": false, "productType": {"values": [{"value": "Shirt", "count": 120}, …],
    /// "other": 35, "withoutValue": 2}, "color": {…}, "size": {…}, "store": {"values": […], "other": 0},
    /// "options": [{"name": "Length", "values": […], "other": 0, "products": 40}, …], "optionsCounted": 10000,
    /// "optionsComplete": false, "counts": "variants"}`, `store` only for a catalog with stock by store.
    public var jsonValue: JSONValue {
        var members: [JSONValue.Member] = [.init("counted", .int(counted)), .init("complete", .bool(isComplete))]
        for facet in facets {
            members.append(.init(facet.field.rawValue, .object([
                "values": Self.json(facet.values),
                "other": .int(facet.other),
                "withoutValue": .int(facet.withoutValue),
            ])))
        }
        if let stores {
            members.append(.init("store", .object([
                "values": Self.json(stores.values),
                "other": .int(stores.other),
            ])))
        }
        members.append(.init("options", .array(options.map { option in
            .object([
                "name": .string(option.name),
                "values": Self.json(option.values),
                "other": .int(option.other),
                "products": .int(option.products),
            ])
        })))
        members.append(.init("optionsCounted", .int(optionsCounted)))
        members.append(.init("optionsComplete", .bool(optionsComplete)))
        // What is counted: every variant, where a page lists a family once (``ResultListing``).
        members.append(.init("counts", .string("variants")))
        return .object(members)
    }

    /// `[{"value": "Navy", "count": 12}, …]`
    private static func json(_ values: [ValueCount]) -> JSONValue {
        .array(values.map { .object(["value": .string($0.value), "count": .int($0.count)]) })
    }
}
