import Foundation
import Testing
@testable import ProductCatalog
import TestSupport

/// Filters narrow a search; facets count its types, colors and sizes. Both checked against a
/// plain model of the documented rules, and the counts against SQL's own GROUP BY.
@Suite struct FilterAndFacetTests {
    /// A catalog of `rows` products with every filtered field, values in mixed case and some missing.
    static func csv(rows: Int, seed: UInt64) -> String {
        var random = SeededRandomGenerator(seed: seed)
        let nouns = ["Shirt", "Dress", "Café Mug", "Linen Shirt", "Scarf", "Jacket", "Sock", "Tote"]
        let types = ["Shirts", "shirts", "Dresses", "Kitchen", "Accessories", ""]
        let colors = ["Navy", "NAVY", "Black", "Sand", "Crème", "Rose Gold", ""]
        let sizes = ["S", "M", "L", "XL", "m", ""]
        let brands = ["Acme", "Müller", "acme", "Nord", ""]
        let lengths = ["14 Inches", "16 inches", "18 Inches"]
        let materials = ["Cotton", "cotton", "Wool"]
        var lines = ["productId,title,listPrice,salesPrice,color,size,productType,brand,options"]
        for index in 0..<rows {
            let prefix = ["AB", "SH", "X", "ZZ"][Int(random.next() % 4)]
            let cents = Int(random.next() % 10_000) + 100
            let sale = random.next() % 3 == 0 ? cents - Int(random.next() % 100) : (random.next() % 5 == 0 ? cents : -1)
            func price(_ cents: Int) -> String { cents < 0 ? "" : "\(cents / 100).\(String(format: "%02d", cents % 100))" }
            let fields = [
                "\(prefix)-\(index)", nouns[Int(random.next() % UInt64(nouns.count))],
                random.next() % 10 == 0 ? "" : price(cents), price(sale),
                colors.randomElement(using: &random)!, sizes.randomElement(using: &random)!,
                types.randomElement(using: &random)!, brands.randomElement(using: &random)!,
                [
                    "", "Length: \(lengths.randomElement(using: &random)!)", "length: \(lengths.randomElement(using: &random)!); Material: \(materials.randomElement(using: &random)!)",
                    "Material: \(materials.randomElement(using: &random)!); Color: Wool",
                ].randomElement(using: &random)!,
            ]
            lines.append(fields.joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// True when `product` passes `filters`, as the documentation says.
    static func passes(_ product: Product, _ filters: SearchFilters) -> Bool {
        func matches(_ value: String?, _ wanted: [String]) -> Bool {
            wanted.isEmpty || wanted.contains { want in
                want.isEmpty ? (value ?? "").isEmpty : value.map { asciiLower($0) == asciiLower(want) } ?? false
            }
        }
        guard matches(product.productType, filters.productTypes), matches(product.color, filters.colors),
              matches(product.size, filters.sizes), matches(product.brand, filters.brands) else { return false }
        // Options: grouped by name (ASCII case ignored; none for any option), one value of each group.
        let options = ProductOptions(text: product.options).options
        let choices = filters.options.compactMap(SearchFilters.OptionChoice.init)
        for name in Set(choices.map { $0.name.map(asciiLower) }) {
            let values = Set(choices.filter { $0.name.map(asciiLower) == name }.map { asciiLower($0.value) })
            guard options.contains(where: { (name == nil || asciiLower($0.name) == name) && values.contains(asciiLower($0.value)) }) else { return false }
        }
        let price = filters.priceBasis == .list ? product.listPrice : product.salesPrice ?? product.listPrice
        if let min = filters.minPrice, !(price.map { $0 >= min } ?? false) { return false }
        if let max = filters.maxPrice, !(price.map { $0 <= max } ?? false) { return false }
        if filters.onSale {
            guard let sale = product.salesPrice, let list = product.listPrice, sale < list else { return false }
        }
        return true
    }

    static func asciiLower(_ text: String) -> String {
        String(decoding: text.utf8.map(ProductIdOrder.fold), as: UTF8.self)
    }

    /// The products `query` finds, in the documented order: productId matches, then word matches.
    static func model(_ all: [Product], _ query: String) -> [Product] {
        let byId = Dictionary(uniqueKeysWithValues: all.map { ($0.productId.lowercased(), $0) })
        return TypoSearchTests.modelResult(all, query).compactMap { byId[$0.lowercased()] }
    }

    /// A catalog of `rows` generated products, every product in search order, and a search on it.
    func catalog(rows: Int, seed: UInt64) throws -> (fixture: CatalogFixture, all: [Product], search: ProductSearch) {
        let fixture = try CatalogFixture()
        try fixture.importCSV(Self.csv(rows: rows, seed: seed))
        return (fixture, try fixture.allProducts(pageSize: 500), try ProductSearch(databasePath: fixture.databasePath))
    }

    /// Filter combinations: each alone, and several together.
    static var filterCases: [SearchFilters] {
        var cases: [SearchFilters] = [SearchFilters()]
        func make(_ change: (inout SearchFilters) -> Void) -> SearchFilters {
            var filters = SearchFilters()
            change(&filters)
            return filters
        }
        cases.append(make { $0.colors = ["navy"] })
        cases.append(make { $0.colors = ["Navy", "black"]; $0.sizes = ["M"] })
        cases.append(make { $0.productTypes = ["SHIRTS"]; $0.brands = ["acme"] })
        cases.append(make { $0.brands = ["müller"] })
        cases.append(make { $0.brands = ["MÜLLER", "nord"] })  // ASCII case only: MÜLLER is not Müller.
        cases.append(make { $0.brands = ["Müller"]; $0.colors = ["crème", "Crème"] })
        cases.append(make { $0.sizes = [""] })
        cases.append(make { $0.productTypes = ["", "Kitchen"] })
        cases.append(make { $0.minPrice = Price("20"); $0.maxPrice = Price("40.50") })
        cases.append(make { $0.minPrice = Price("20"); $0.maxPrice = Price("40.50"); $0.priceBasis = .list })
        cases.append(make { $0.maxPrice = Price("10") })
        cases.append(make { $0.onSale = true })
        cases.append(make { $0.onSale = true; $0.colors = ["sand"]; $0.minPrice = Price("50") })
        cases.append(make { $0.options = ["Length:14 inches"] })
        cases.append(make { $0.options = ["length:14 Inches", "LENGTH: 18 inches", "Material:wool"] })
        cases.append(make { $0.options = [":wool"] })
        cases.append(make { $0.options = ["Wool"]; $0.colors = ["navy"] })
        cases.append(make { $0.colors = ["no such color"] })
        return cases
    }

    @Test func pagesWithFiltersAgreeWithThePlainModel() throws {
        let (fixture, all, search) = try catalog(rows: 1_500, seed: 3)
        defer { withExtendedLifetime(fixture) {} }
        for query in ["", "sh", "shirt", "linen sh", "cafe", "acme", "x-1", "zz", "nothing"] {
            let found = Self.model(all, query)
            for filters in Self.filterCases {
                let expected = found.filter { Self.passes($0, filters) }.map(\.productId)
                for pageSize in [9, 20] {
                    #expect(try search.allPages(query: query, filters: filters, pageSize: pageSize) == expected, "\(query) \(filters), page size \(pageSize)")
                }
                #expect(try search.count(query: query, filters: filters) == expected.count, "\(query) \(filters)")
                for limit in [0, 1, 7, expected.count] {
                    #expect(try search.count(query: query, filters: filters, upTo: limit) == min(expected.count, limit), "\(query) \(filters) up to \(limit)")
                }
            }
        }
        // The filters are not vacuous here: each case lets through some products but not all,
        // except the one that asks for a color nobody has.
        for filters in Self.filterCases.dropFirst().dropLast() {
            let passing = all.filter { Self.passes($0, filters) }.count
            #expect(passing > 0 && passing < all.count, "\(filters)")
        }
    }

    @Test func prefixPagesTakeFiltersToo() throws {
        let (fixture, all, search) = try catalog(rows: 400, seed: 4)
        defer { withExtendedLifetime(fixture) {} }
        var filters = SearchFilters()
        filters.colors = ["NAVY"]
        filters.onSale = true
        let ids = try search.allPages(prefix: "sh", filters: filters, pageSize: 3)
        let expected = all.filter { $0.productId.hasPrefix("SH-") && Self.passes($0, filters) }.map(\.productId)
        #expect(!expected.isEmpty)
        #expect(ids == expected)
        #expect(try search.count(prefix: "sh", filters: filters) == expected.count)
    }

    /// Facet counts of `field` by SQL's GROUP BY over the products `ids`, grouped as filters match.
    func groupBy(_ field: ProductField, _ ids: [String], _ path: String) throws -> [String: Int] {
        let connection = try Connection(path: path, mode: .readOnly)
        try connection.execute("CREATE TEMP TABLE wanted (productId TEXT PRIMARY KEY COLLATE NOCASE)")
        let insert = try connection.prepare("INSERT INTO wanted VALUES (?1)")
        for id in ids {
            try insert.using {
                try insert.bind(1, id)
                _ = try insert.step()
            }
        }
        let statement = try connection.prepare("""
            SELECT lower(ifnull(p.\(field.columnName), '')), count(*) FROM products p JOIN wanted USING (productId)
            GROUP BY p.\(field.columnName) COLLATE NOCASE
            """)
        var counts: [String: Int] = [:]
        while try statement.step() { counts[statement.text(at: 0) ?? "", default: 0] += Int(statement.int64(at: 1)) }
        return counts
    }

    @Test func facetCountsMatchAGroupByOverTheSameProducts() throws {
        let (fixture, all, search) = try catalog(rows: 1_200, seed: 5)
        for query in ["", "shirt", "ab", "mug"] {
            for filters in Self.filterCases.prefix(9) {
                let ids = Self.model(all, query).filter { Self.passes($0, filters) }.map(\.productId)
                let counts = try search.facets(query: query, filters: filters, top: 3)
                #expect(counts.isComplete)
                #expect(counts.counted == ids.count, "\(query) \(filters)")
                for facet in counts.facets {
                    var expected = try groupBy(facet.field, ids, fixture.databasePath)
                    #expect(facet.withoutValue == expected.removeValue(forKey: "") ?? 0, "\(query) \(facet.field)")
                    let ranked = expected.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                    #expect(facet.values.map { $0.count } == ranked.prefix(3).map(\.value), "\(query) \(filters) \(facet.field)")
                    #expect(facet.values.allSatisfy { expected[Self.asciiLower($0.value)] == $0.count })
                    #expect(facet.other == ranked.dropFirst(3).reduce(0) { $0 + $1.value })
                }
                // Options by name, each name and value grouped ignoring ASCII case.
                var names: [String: (products: Int, values: [String: Int])] = [:]
                for product in Self.model(all, query).filter({ Self.passes($0, filters) }) {
                    for option in ProductOptions(text: product.options).options {
                        names[Self.asciiLower(option.name), default: (0, [:])].products += 1
                        names[Self.asciiLower(option.name), default: (0, [:])].values[Self.asciiLower(option.value), default: 0] += 1
                    }
                }
                #expect(counts.optionsCounted == ids.count && counts.optionsComplete)
                #expect(Set(counts.options.map { Self.asciiLower($0.name) }) == Set(names.keys), "\(query) \(filters)")
                #expect(counts.options.map(\.products) == counts.options.map(\.products).sorted(by: >))
                for option in counts.options {
                    let expected = names[Self.asciiLower(option.name)]!
                    #expect(option.products == expected.products)
                    #expect(option.values.allSatisfy { expected.values[Self.asciiLower($0.value)] == $0.count })
                    #expect(option.values.count == min(3, expected.values.count))
                    #expect(option.other + option.values.reduce(0) { $0 + $1.count } == expected.products)
                }
            }
        }
    }

    @Test func facetsStopAtTheCapAndSaySo() throws {
        let (fixture, all, search) = try catalog(rows: 600, seed: 6)
        defer { withExtendedLifetime(fixture) {} }
        for query in ["x", "shirt"] {
            let matches = Self.model(all, query)
            #expect(matches.count > 60)
            let capped = try search.facets(query: query, top: 100, cap: 50)
            #expect(!capped.isComplete)
            #expect(capped.counted == 50)
            // The first 50 in the search's order are the ones counted.
            let colors = Dictionary(grouping: matches.prefix(50)) { Self.asciiLower($0.color ?? "") }.mapValues(\.count)
            let counted = capped[.color]!
            #expect(counted.values.count + (counted.withoutValue > 0 ? 1 : 0) == colors.count)
            for value in counted.values { #expect(colors[Self.asciiLower(value.value)] == value.count) }
            let exact = try search.facets(query: query, top: 100, cap: matches.count)
            #expect(exact.isComplete && exact.counted == matches.count)
        }
    }

    /// Counts of the whole catalog (no query, no filter) are kept by the import and the triggers:
    /// exact whatever the cap, through upserts, edits, deletes and another program's writes.
    /// The whole catalog's options, kept between searches, follow a write by another program.
    @Test func wholeCatalogOptionsFollowAWrite() throws {
        let (fixture, all, search) = try catalog(rows: 300, seed: 8)
        func materials() throws -> Int? {
            try search.facets(query: "", top: 100).options.first { $0.name.lowercased() == "material" }?.products
        }
        let before = try materials()
        #expect(before == all.filter { ProductOptions(text: $0.options)["material"] != nil }.count)
        #expect(try materials() == before)
        try Connection(path: fixture.databasePath, mode: .readWrite).execute("UPDATE products SET options = 'Material: Felt' WHERE options IS NULL OR options = ''")
        let felt = try fixture.allProducts(pageSize: 500).filter { ProductOptions(text: $0.options)["material"] != nil }.count
        #expect(felt > (before ?? 0))
        #expect(try materials() == felt)
    }

    @Test func wholeCatalogFacetsAreExactThroughEveryWrite() throws {
        var (fixture, _, search) = try catalog(rows: 600, seed: 6)
        func expectExact(_ label: String) throws {
            let counts = try search.facets(query: "", top: 1_000, cap: 5)
            #expect(counts.isComplete, "\(label)")
            let all = try fixture.allProducts(pageSize: 500)
            #expect(counts.counted == all.count, "\(label)")
            // The catalog's count is read from the same table.
            #expect(try search.count(prefix: "") == all.count, "\(label)")
            #expect(try search.countMatches(query: "", upTo: 10) == MatchCount(count: 10, isComplete: false), "\(label)")
            for facet in counts.facets {
                var expected = try groupBy(facet.field, all.map(\.productId), fixture.databasePath)
                #expect(facet.withoutValue == expected.removeValue(forKey: "") ?? 0, "\(label) \(facet.field)")
                #expect(Dictionary(uniqueKeysWithValues: facet.values.map { (Self.asciiLower($0.value), $0.count) }) == expected, "\(label) \(facet.field)")
            }
        }
        try expectExact("import")
        fixture.options.mode = .upsert
        try fixture.importCSV("productId,title,color,size,productType\nNEW-1,Mug,Teal,XXS,Kitchen\nNEW-2,Cup,teal,,\n")
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        let some = try fixture.allProducts(pageSize: 500)
        _ = try editor.replace(productId: some[3].productId, with: Product(productId: some[3].productId, title: "Changed", color: "Orange", size: "M"))
        try editor.delete(productId: some[4].productId)
        try Connection(path: fixture.databasePath, mode: .readWrite).execute("UPDATE products SET color = 'Mauve' WHERE productId = '\(some[5].productId)'")
        search = try ProductSearch(databasePath: fixture.databasePath)
        try expectExact("after writes")
    }

    @Test func aValueIsShownAsFirstSpelledAndMatchedIgnoringASCIICase() throws {
        let fixture = try CatalogFixture()
        try fixture.importCSV("""
            productId,title,color,size
            A1,Mug,Navy,M
            A2,Mug,NAVY,m
            A3,Mug,navy,
            A4,Mug,Sand,L

            """)
        let search = try ProductSearch(databasePath: fixture.databasePath)
        let counts = try search.facets(query: "", top: 1)
        #expect(counts[.color]?.values == [FacetCounts.ValueCount(value: "Navy", count: 3)])
        #expect(counts[.color]?.other == 1)
        #expect(counts[.size]?.values == [FacetCounts.ValueCount(value: "M", count: 2)])
        #expect(counts[.size]?.withoutValue == 1)
        #expect(counts[.productType]?.withoutValue == 4)
        var filters = SearchFilters()
        filters.colors = ["nAvY"]
        #expect(try search.page(query: "mug", filters: filters).products.map(\.productId) == ["A1", "A2", "A3"])
    }
}
