import ArgumentParser
import ProductCatalog

/// The filters of `catalog search`, one option each, named and explained by ``SearchSchema/filters``.
struct FilterOptions: ParsableArguments {
    @Option(name: .customLong("type"), help: Self.help("type", discussion: "--type '' keeps the products without a type; the same goes for --color, --size and --brand."))
    var types: [String] = []

    @Option(name: .customLong("color"), help: Self.help("color"))
    var colors: [String] = []

    @Option(name: .customLong("size"), help: Self.help("size"))
    var sizes: [String] = []

    @Option(name: .customLong("brand"), help: Self.help("brand"))
    var brands: [String] = []

    @Option(name: .customLong("option"), help: Self.help("option", discussion: "`catalog search --facets` lists the options by name."))
    var options: [String] = []

    @Option(name: .customLong("min-price"), help: Self.help("minPrice"))
    var minPrice: String?

    @Option(name: .customLong("max-price"), help: Self.help("maxPrice"))
    var maxPrice: String?

    @Flag(name: .customLong("list-price"), help: "Compare --min-price and --max-price with the list price rather than what the product sells for (its sale price when it has one).")
    var listPrice = false

    @Flag(name: .customLong("on-sale"), help: Self.help("onSale"))
    var onSale = false

    @Option(name: .customLong("store"), help: Self.help("store", discussion: "Stores come from `catalog import-stock`; a name matches ignoring ASCII case."))
    var stores: [String] = []

    @Flag(name: .customLong("in-stock"), help: Self.help("inStock"))
    var inStock = false

    @Option(name: .customLong("collection"), help: Self.help("collection", discussion: "`catalog collections list` shows them."))
    var collection: String?

    /// Each filter's values as typed, by the filter's name in ``SearchSchema/filters``.
    private var namedValues: [(name: String, values: [String])] {
        [("type", types), ("color", colors), ("size", sizes), ("brand", brands), ("option", options), ("store", stores),
         ("minPrice", minPrice.map { [$0] } ?? []), ("maxPrice", maxPrice.map { [$0] } ?? []),
         ("priceBasis", listPrice ? [SearchFilters.PriceBasis.list.rawValue] : []),
         ("onSale", onSale ? ["true"] : []), ("inStock", inStock ? ["true"] : []), ("collection", collection.map { [$0] } ?? [])]
    }

    func validate() throws {
        do {
            _ = try SearchFilters(values: namedValues)
        } catch {
            throw ValidationError(Self.message(error))
        }
        if listPrice, minPrice == nil, maxPrice == nil {
            throw ValidationError("--list-price says which price --min-price and --max-price look at; give one of them too.")
        }
    }

    /// The filters, for the library (checked by ``validate()``).
    var filters: SearchFilters {
        (try? SearchFilters(values: namedValues)) ?? SearchFilters()
    }

    /// The options as typed again on a command line, to print the command for the next page.
    var arguments: [String] {
        var arguments: [String] = []
        for (name, values) in namedValues where !values.isEmpty {
            guard let filter = SearchSchema.filter(named: name) else { continue }
            if filter.arity == .flag || filter.flagValue != nil {
                arguments.append("--" + filter.option)
            } else {
                for value in values { arguments += ["--" + filter.option, ShellQuoting.quote(value)] }
            }
        }
        return arguments
    }

    /// The help of the filter `name`, from its description.
    private static func help(_ name: String, discussion: String = "") -> ArgumentHelp {
        let filter = SearchSchema.filter(named: name)!
        return ArgumentHelp(filter.help, discussion: discussion, valueName: filter.valueName)
    }

    /// `problem` in the command line's words: its options by their flags.
    static func message(_ problem: FilterProblem) -> String {
        func flag(_ name: String) -> String { "--" + (SearchSchema.filter(named: name)?.option ?? name) }
        let name = flag(problem.filter)
        switch problem {
        case .notAPrice(_, let text):
            return "\(name) \(text) is not a price; write it as digits with up to three decimals and a dot, such as 19.99."
        case .optionWithoutValue(_, let text):
            return "\(name) \(text.isEmpty ? "''" : text) has no value; write it as Name:Value, such as \(name) 'Length:14 Inches'."
        case .notAllowed(_, let text, let allowed):
            return "\(name) must be \(allowed.joined(separator: " or ")), not \(text)."
        case .tooLong(_, let bytes, let limit):
            return "\(name) has a value of \(bytes) bytes; a value is at most \(limit) bytes, longer than any it can match."
        case .tooManyValues(_, let count, let limit):
            return "\(name) is given \(count) times; give it at most \(limit) times."
        case .repeated(_, let values):
            return "\(name) takes one value, and was given \(values.count) different ones; give one."
        case .minAboveMax(let min, let max):
            return "--min-price \(min) is above \(flag("maxPrice")) \(max); swap them."
        }
    }
}
