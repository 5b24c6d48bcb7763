import ArgumentParser
import ProductCatalog

/// The filters of `catalog search`: values of type, color, size, brand and options, a price range, on sale, in stock.
struct FilterOptions: ParsableArguments {
    @Option(name: .customLong("type"), help: ArgumentHelp(
        "Only products of this type (repeatable: any of them).",
        discussion: "Values match ignoring ASCII case; an empty value (--type '') matches products without one. The same goes for --color, --size and --brand.",
        valueName: "type"))
    var types: [String] = []

    @Option(name: .customLong("color"), help: ArgumentHelp("Only products of this color (repeatable: any of them).", valueName: "color"))
    var colors: [String] = []

    @Option(name: .customLong("size"), help: ArgumentHelp("Only products of this size (repeatable: any of them).", valueName: "size"))
    var sizes: [String] = []

    @Option(name: .customLong("brand"), help: ArgumentHelp("Only products of this brand (repeatable: any of them).", valueName: "brand"))
    var brands: [String] = []

    @Option(name: .customLong("option"), help: ArgumentHelp(
        "Only variants with this option, as Name:Value, such as 'Length:14 Inches' (repeatable: values of one option match any of them, different options all).",
        discussion: "Names and values match ignoring ASCII case; ':Red' matches Red as the value of any option. `catalog search --facets` lists the options by name.",
        valueName: "name:value"))
    var options: [String] = []

    @Option(help: ArgumentHelp("Only products selling for at least this much, such as 10 or 9.99 (any currency).", valueName: "price"))
    var minPrice: String?

    @Option(help: ArgumentHelp("Only products selling for at most this much.", valueName: "price"))
    var maxPrice: String?

    @Flag(help: "Compare --min-price and --max-price with the list price rather than what the product sells for (its sale price when it has one).")
    var listPrice = false

    @Flag(help: "Only products whose sale price is below their list price.")
    var onSale = false

    @Option(name: .customLong("store"), help: ArgumentHelp(
        "Only products in stock at this store (repeatable: any of them).",
        discussion: "Stores come from `catalog import-stock`; a name matches ignoring ASCII case.", valueName: "store"))
    var stores: [String] = []

    @Flag(help: "Only products in stock: their quantity, or when the product feed sets none, the sum over their stores, is above 0.")
    var inStock = false

    @Option(help: ArgumentHelp(
        "Only products in this collection.",
        discussion: "A manual collection combines with a query and the other filters; a smart one brings its own search, so give it alone. `catalog collections list` shows them.",
        valueName: "name"))
    var collection: String?

    func validate() throws {
        for (name, text) in [("--min-price", minPrice), ("--max-price", maxPrice)] {
            if let text, Price(text) == nil {
                throw ValidationError("\(name) \(text) is not a price; write it as digits with up to three decimals and a dot, such as 19.99.")
            }
        }
        if let min = minPrice.flatMap(Price.init), let max = maxPrice.flatMap(Price.init), min > max {
            throw ValidationError("--min-price \(min) is above --max-price \(max); swap them.")
        }
        for option in options where SearchFilters.OptionChoice(option) == nil {
            throw ValidationError("--option \(option.isEmpty ? "''" : option) has no value; write it as Name:Value, such as --option 'Length:14 Inches'.")
        }
        if listPrice, minPrice == nil, maxPrice == nil {
            throw ValidationError("--list-price says which price --min-price and --max-price look at; give one of them too.")
        }
    }

    /// The filters, for the library.
    var filters: SearchFilters {
        var filters = SearchFilters()
        filters.productTypes = types
        filters.colors = colors
        filters.sizes = sizes
        filters.brands = brands
        filters.options = options
        filters.minPrice = minPrice.flatMap(Price.init)
        filters.maxPrice = maxPrice.flatMap(Price.init)
        filters.priceBasis = listPrice ? .list : .effective
        filters.onSale = onSale
        filters.stores = stores
        filters.inStock = inStock
        filters.collection = collection
        return filters
    }

    /// The options as typed again on a command line, to print the command for the next page.
    var arguments: [String] {
        var arguments: [String] = []
        for (name, values) in [("--type", types), ("--color", colors), ("--size", sizes), ("--brand", brands), ("--option", options)] {
            for value in values { arguments += [name, ShellQuoting.quote(value)] }
        }
        if let minPrice { arguments += ["--min-price", ShellQuoting.quote(minPrice)] }
        if let maxPrice { arguments += ["--max-price", ShellQuoting.quote(maxPrice)] }
        if listPrice { arguments.append("--list-price") }
        if onSale { arguments.append("--on-sale") }
        for store in stores { arguments += ["--store", ShellQuoting.quote(store)] }
        if inStock { arguments.append("--in-stock") }
        if let collection { arguments += ["--collection", ShellQuoting.quote(collection)] }
        return arguments
    }
}
