import Testing
@testable import ProductCatalog
import TestSupport

/// The one description of a search's filters: every filter it lists reads its values into
/// ``SearchFilters`` and writes them back, and a saved search's parameters round-trip through it.
struct SearchSchemaTests {
    /// Random filters, every kind of value among them.
    static func randomFilters(_ random: inout SeededRandomGenerator) -> SearchFilters {
        func some(_ values: [String]) -> [String] { values.filter { _ in random.next() % 3 == 0 } }
        var filters = SearchFilters()
        filters.productTypes = some(["Shirt", "Hat", ""])
        filters.colors = some(["Navy", "Black & White", "ç"])
        filters.sizes = some(["S", "XL"])
        filters.brands = some(["Acme", "Zeta=Z"])
        filters.options = some(["Length:14 Inches", ":Red", "Color:beige"])
        filters.stores = some(["Berlin", "New York"])
        if random.next() % 2 == 0 { filters.minPrice = Price("\(random.next() % 50).5") }
        if random.next() % 2 == 0 { filters.maxPrice = Price("\(50 + random.next() % 50)") }
        if random.next() % 2 == 0 { filters.priceBasis = .list }
        filters.onSale = random.next() % 2 == 0
        filters.inStock = random.next() % 2 == 0
        if random.next() % 2 == 0 { filters.collection = "Summer picks" }
        return filters
    }

    @Test func filtersRoundTripThroughTheirNamedValues() throws {
        var random = SeededRandomGenerator(seed: 7)
        for _ in 0..<300 {
            let filters = Self.randomFilters(&random)
            #expect(try SearchFilters(values: filters.namedValues) == filters)
            let saved = SavedSearch(text: "linen", filters: filters, sort: SearchSort.allCases[Int(random.next() % 5)])
            #expect(SavedSearch(parameters: saved.parameters) == saved, "\(saved.parameters)")
        }
    }

    @Test func everyFilterTheSchemaListsSetsACondition() throws {
        let values: [String: String] = ["minPrice": "5", "maxPrice": "9", "onSale": "true", "inStock": "true", "option": "Length:14 Inches"]
        #expect(Set(SearchSchema.filters.map(\.name)).count == SearchSchema.filters.count, "names are unique")
        #expect(Set(SearchSchema.filters.map(\.option)).count == SearchSchema.filters.count, "options are unique")
        for filter in SearchSchema.filters where filter.name != "priceBasis" {
            let filters = try SearchFilters(values: [(filter.name, [values[filter.name] ?? "x"])])
            #expect(filters.conditions.count == 1, "\(filter.name) sets one condition")
            #expect(filters.namedValues.map(\.name) == [filter.name])
        }
        // The price basis says which price a bound looks at.
        let list = try SearchFilters(values: [("maxPrice", ["9"]), ("priceBasis", ["list"])])
        #expect(list.conditions == [.priceAtMost(.list, 9_000)])
    }

    @Test func aValueThatIsNotValidIsAProblemNamingItsFilter() {
        #expect(throws: FilterProblem.notAPrice(filter: "minPrice", text: "4,99")) { try SearchFilters(values: [("minPrice", ["4,99"])]) }
        #expect(throws: FilterProblem.optionWithoutValue(filter: "option", text: "Length:")) { try SearchFilters(values: [("option", ["Length:"])]) }
        #expect(throws: FilterProblem.notAllowed(filter: "onSale", text: "yes", allowed: ["true", "false"])) { try SearchFilters(values: [("onSale", ["yes"])]) }
        #expect(throws: FilterProblem.minAboveMax(min: Price("9")!, max: Price("3")!)) {
            try SearchFilters(values: [("minPrice", ["9"]), ("maxPrice", ["3"])])
        }
        #expect(throws: FilterProblem.tooManyValues(filter: "color", count: 101, limit: 100)) {
            try SearchFilters(values: [("color", Array(repeating: "x", count: 101))])
        }
        #expect(throws: FilterProblem.repeated(filter: "minPrice", values: ["1", "2"])) { try SearchFilters(values: [("minPrice", ["1", "2"])]) }
        // A saved search leaves out what is not valid, and keeps the rest.
        let saved = SavedSearch(parameters: "q=hat&minPrice=4%2C99&onSale=yes&color=Navy")
        #expect(saved.filters.minPrice == nil && !saved.filters.onSale && saved.filters.colors == ["Navy"])
    }
}
