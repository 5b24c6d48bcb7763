/// The filters and sorts of a search, each described once: the URL's parameters (`GET
/// /api/products`, the page's address, a smart collection's saved search), the CLI's options and
/// their help, `GET /api/schema` and the page's menus are all read from these lists.
///
/// ```swift
/// let filters = try SearchFilters(values: [("color", ["Navy"]), ("maxPrice", ["50"])])
/// filters.namedValues  // [("color", ["Navy"]), ("maxPrice", ["50"])]
/// SearchSchema.filter(named: "maxPrice")?.option  // "max-price", as in `catalog search --max-price 50`
/// ```
///
/// Adding a filter on a field ``SearchFilters`` already keeps is one entry of ``filters``; the
/// engines build its condition from ``SearchFilters/conditions``.
public enum SearchSchema {
    /// Every filter, in the order a search's parameters are written.
    public static let filters: [FilterDescription] = [
        .values("type", field: .productType, noun: "type", \.productTypes),
        .values("color", field: .color, noun: "color", \.colors),
        .values("size", field: .size, noun: "size", \.sizes),
        .values("brand", field: .brand, noun: "brand", \.brands),
        FilterDescription(
            name: "option", option: "option", label: "Option", field: .options, arity: .many, valueName: "name:value",
            help: "Only variants with this option, as Name:Value, such as Length:14 Inches (values of one option match any of them, different options all; :Red is Red as the value of any option).",
            maxValues: 100, maxBytes: ProductRules.maxProductIdBytes,
            read: { (filters: inout SearchFilters, value: String) throws(FilterProblem) in
                guard SearchFilters.OptionChoice(value) != nil else { throw FilterProblem.optionWithoutValue(filter: "option", text: value) }
                filters.options.append(value)
            },
            written: { $0.options }),
        FilterDescription(
            name: "store", option: "store", label: "In stock at", field: nil, arity: .many, valueName: "store",
            help: "Only products in stock at this store (any of them); stores come from a stock import.",
            maxValues: 100, maxBytes: ProductRules.maxProductIdBytes,
            read: { filters, value in filters.stores.append(value) },
            written: { $0.stores }),
        .price("minPrice", option: "min-price", label: "Price from",
               help: "Only products selling for at least this much, such as 10 or 9.99 (any currency).", \.minPrice),
        .price("maxPrice", option: "max-price", label: "Price up to", help: "Only products selling for at most this much.", \.maxPrice),
        FilterDescription(
            name: "priceBasis", option: "list-price", label: "Prices compared", field: .listPrice, arity: .one, valueName: nil,
            help: "Which price the lowest and highest price look at: effective, what the product sells for (its sale price when it has one, the default), or list, its list price.",
            allowed: SearchFilters.PriceBasis.allCases.map(\.rawValue), flagValue: SearchFilters.PriceBasis.list.rawValue,
            read: { (filters: inout SearchFilters, value: String) throws(FilterProblem) in
                guard let basis = SearchFilters.PriceBasis(rawValue: value) else {
                    throw FilterProblem.notAllowed(filter: "priceBasis", text: value, allowed: SearchFilters.PriceBasis.allCases.map(\.rawValue))
                }
                filters.priceBasis = basis
            },
            written: { $0.priceBasis == .effective ? [] : [$0.priceBasis.rawValue] }),
        .flag("onSale", option: "on-sale", label: "On sale", help: "Only products whose sale price is below their list price.", \.onSale),
        .flag("inStock", option: "in-stock", label: "In stock",
              help: "Only products in stock: their quantity, or when the feed sets none, the sum over their stores, is above 0.", \.inStock),
        FilterDescription(
            name: "collection", option: "collection", label: "Collection", field: nil, arity: .one, valueName: "name",
            help: "Only products in this collection: a manual one combines with the words and the other filters; a smart one brings its own search, so it comes alone.",
            maxBytes: ProductCollection.maxNameBytes,
            read: { filters, value in filters.collection = value.isEmpty ? nil : value },
            written: { $0.collection.map { [$0] } ?? [] }),
    ]

    /// Every sort, the search's own order first.
    public static var sorts: [SearchSort] { SearchSort.allCases }

    /// The filter whose URL parameter is `name`.
    public static func filter(named name: String) -> FilterDescription? {
        filters.first { $0.name == name }
    }
}

/// One filter of ``SearchSchema/filters``: its names, what it says, and how its values are read
/// into ``SearchFilters`` and written back.
public struct FilterDescription: Sendable {
    /// How many values a filter takes.
    public enum Arity: String, Sendable {
        /// Repeatable: any of its values matches.
        case many
        /// At most one value.
        case one
        /// On or off: `true` (or `1`) and `false` (or `0`, or nothing) in a URL; present or not on a command line.
        case flag
    }

    /// Its URL parameter, as `GET /api/products`, the page's address and a saved search name it.
    public let name: String
    /// Its command-line option, without the dashes: `min-price` for `--min-price`.
    public let option: String
    /// What a person calls it.
    public let label: String
    /// The product field it looks at, if one.
    public let field: ProductField?
    public let arity: Arity
    /// What its value is, for help (`price`, `name:value`); nil for a flag.
    public let valueName: String?
    /// One sentence on what it keeps, naming no interface.
    public let help: String
    /// The values it takes, when they are a fixed few.
    public let allowed: [String]?
    /// For a filter of one value that the command line gives as a flag (`--list-price`), the value the flag stands for.
    public let flagValue: String?
    /// The most values it takes, and the longest one, in bytes; nil for no limit of its own.
    public let maxValues: Int?
    public let maxBytes: Int?
    private let read: @Sendable (inout SearchFilters, String) throws(FilterProblem) -> Void
    private let written: @Sendable (SearchFilters) -> [String]

    init(name: String, option: String, label: String, field: ProductField?, arity: Arity, valueName: String?, help: String,
         allowed: [String]? = nil, flagValue: String? = nil, maxValues: Int? = nil, maxBytes: Int? = nil,
         read: @escaping @Sendable (inout SearchFilters, String) throws(FilterProblem) -> Void, written: @escaping @Sendable (SearchFilters) -> [String]) {
        self.name = name
        self.option = option
        self.label = label
        self.field = field
        self.arity = arity
        self.valueName = valueName
        self.help = help
        self.allowed = allowed
        self.flagValue = flagValue
        self.maxValues = maxValues
        self.maxBytes = maxBytes
        self.read = read
        self.written = written
    }

    /// Reads `values` into `filters`; throws the ``FilterProblem`` of the first that is not valid.
    public func apply(_ values: [String], to filters: inout SearchFilters) throws(FilterProblem) {
        if let maxValues, values.count > maxValues { throw .tooManyValues(filter: name, count: values.count, limit: maxValues) }
        if arity != .many, values.count > 1, Set(values).count > 1 { throw .repeated(filter: name, values: values) }
        for value in values {
            if let maxBytes, value.utf8.count > maxBytes { throw .tooLong(filter: name, bytes: value.utf8.count, limit: maxBytes) }
            try read(&filters, value)
        }
    }

    /// Its values in `filters`, as ``apply(_:to:)`` reads them back: none when it is not set.
    public func values(in filters: SearchFilters) -> [String] { written(filters) }

    /// A filter of a text field: any of its values matches; an empty value, the products without one.
    /// One of a field's values, labelled as the field is.
    static func values(_ name: String, field: ProductField, noun: String,
                       _ keyPath: any WritableKeyPath<SearchFilters, [String]> & Sendable) -> FilterDescription {
        FilterDescription(
            name: name, option: name, label: field.label, field: field, arity: .many, valueName: noun,
            help: "Only products of this \(noun) (any of them; ASCII case ignored; an empty value keeps the products without one).",
            maxValues: 100, maxBytes: ProductRules.maxProductIdBytes,
            read: { filters, value in filters[keyPath: keyPath].append(value) },
            written: { $0[keyPath: keyPath] })
    }

    /// A bound of the price range.
    static func price(_ name: String, option: String, label: String, help: String,
                      _ keyPath: any WritableKeyPath<SearchFilters, Price?> & Sendable) -> FilterDescription {
        FilterDescription(
            name: name, option: option, label: label, field: .salesPrice, arity: .one, valueName: "price", help: help,
            read: { (filters: inout SearchFilters, value: String) throws(FilterProblem) in
                guard !value.isEmpty else { return }
                guard let price = Price(value) else { throw FilterProblem.notAPrice(filter: name, text: value) }
                filters[keyPath: keyPath] = price
            },
            written: { $0[keyPath: keyPath].map { [$0.description] } ?? [] })
    }

    /// A condition that is on or off.
    static func flag(_ name: String, option: String, label: String, help: String,
                     _ keyPath: any WritableKeyPath<SearchFilters, Bool> & Sendable) -> FilterDescription {
        FilterDescription(
            name: name, option: option, label: label, field: nil, arity: .flag, valueName: nil, help: help,
            allowed: ["true", "false"],
            read: { (filters: inout SearchFilters, value: String) throws(FilterProblem) in
                switch value {
                case "", "false", "0": filters[keyPath: keyPath] = false
                case "true", "1": filters[keyPath: keyPath] = true
                default: throw FilterProblem.notAllowed(filter: name, text: value, allowed: ["true", "false"])
                }
            },
            written: { $0[keyPath: keyPath] ? ["true"] : [] })
    }
}

/// Why a filter's value was refused: which filter, and the facts. Each interface phrases it.
public enum FilterProblem: Error, Equatable, Sendable {
    /// A price bound that is not a price (digits with up to three decimals and a dot).
    case notAPrice(filter: String, text: String)
    /// An option with no value after its name.
    case optionWithoutValue(filter: String, text: String)
    /// A value outside the few the filter takes.
    case notAllowed(filter: String, text: String, allowed: [String])
    /// A value longer than the filter takes.
    case tooLong(filter: String, bytes: Int, limit: Int)
    /// More values than the filter takes.
    case tooManyValues(filter: String, count: Int, limit: Int)
    /// Different values for a filter of one.
    case repeated(filter: String, values: [String])
    /// A lowest price above the highest.
    case minAboveMax(min: Price, max: Price)

    /// The filter at fault (the lowest price's, for a range the wrong way round).
    public var filter: String {
        switch self {
        case .notAPrice(let filter, _), .optionWithoutValue(let filter, _), .notAllowed(let filter, _, _),
             .tooLong(let filter, _, _), .tooManyValues(let filter, _, _), .repeated(let filter, _):
            filter
        case .minAboveMax: "minPrice"
        }
    }
}

extension SearchFilters {
    /// The filters `values` name (each filter's URL name and its values, as ``namedValues``
    /// writes them); throws the first ``FilterProblem``. Names no filter has are refused by
    /// whoever reads them: this reads only the filters' own.
    public init(values: [(name: String, values: [String])]) throws(FilterProblem) {
        self.init()
        for filter in SearchSchema.filters {
            let given = values.filter { $0.name == filter.name }.flatMap(\.values)
            guard !given.isEmpty else { continue }
            try filter.apply(given, to: &self)
        }
        if let min = minPrice, let max = maxPrice, min > max { throw .minAboveMax(min: min, max: max) }
    }

    /// The filters as each filter's URL name and values, in ``SearchSchema/filters``' order,
    /// those not set left out.
    public var namedValues: [(name: String, values: [String])] {
        SearchSchema.filters.compactMap { filter in
            let values = filter.values(in: self)
            return values.isEmpty ? nil : (filter.name, values)
        }
    }
}
