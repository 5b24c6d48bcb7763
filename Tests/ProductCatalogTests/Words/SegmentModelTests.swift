import Foundation
import Testing
import TestSupport
@testable import ProductCatalog

/// The word index under a stream of writes (edits, batches, renames, deletes, upserts with and
/// without deleting the missing, and the `sqlite3` shell's statements) and of merges, against a
/// naive model of the products table: after each step, every search agrees with the model.
///
/// The model keeps the products in the order their places were given (the import's in productId
/// order, then each product added in the order it was added; a rename keeps a product's place, a
/// product deleted and added again is new, see ``ChangeNotes``), and ranks matches by
/// ``TypoSearchTests/modelResult(_:_:)``.
@Suite struct SegmentModelTests {
    static let vocabulary = ["alpha", "alpine", "amber", "beta", "better", "bolt", "cedar", "cider", "delta", "delft", "ember",
                             "embers", "fable", "gamma", "gammon", "harbor", "uniqc", "zest"]
    static let brands = ["Acme", "Nord", "", "Zeta"]
    static let colors = ["Navy", "navy", "Sand", ""]
    static let groups = ["", "", "", "G1", "G2", "G3"]

    /// The products in place order.
    struct Model {
        var products: [Product] = []

        func index(of productId: String) -> Int? {
            let key = ProductIdOrder.folded(productId)
            return products.firstIndex { ProductIdOrder.folded($0.productId) == key }
        }
    }

    static func title(_ random: inout SeededRandomGenerator) -> String {
        (0..<Int.random(in: 1...4, using: &random)).map { _ in vocabulary.randomElement(using: &random)! }.joined(separator: " ")
    }

    static func product(_ id: String, _ random: inout SeededRandomGenerator) -> Product {
        let brand = brands.randomElement(using: &random)!
        let color = colors.randomElement(using: &random)!
        let group = groups.randomElement(using: &random)!
        return Product(productId: id, title: Int.random(in: 0..<10, using: &random) == 0 ? nil : title(&random),
                       listPrice: Int.random(in: 0..<6, using: &random) == 0 ? nil : Price(thousandths: Int64.random(in: 1...40, using: &random) * 500),
                       color: color.isEmpty ? nil : color, groupId: group.isEmpty ? nil : group, brand: brand.isEmpty ? nil : brand)
    }

    static func csv(_ products: [Product]) -> String {
        "productId,title,listPrice,brand,color,groupId\n" + products.map { product in
            [product.productId, product.title ?? "", product.listPrice.map { String(format: "%.2f", Double($0.thousandths) / 1000) } ?? "",
             product.brand ?? "", product.color ?? "", product.groupId ?? ""]
                .joined(separator: ",")
        }.joined(separator: "\n") + "\n"
    }

    /// A family's key: its groupId, or the product alone when it has none.
    static func family(_ product: Product) -> String {
        product.groupId.flatMap { $0.isEmpty ? nil : "group " + $0 } ?? "product " + ProductIdOrder.folded(product.productId)
    }

    /// The matches listed as families: each family once, as the first of its variants listed.
    static func families(_ ids: [String], _ byId: [String: Product]) -> [String] {
        var seen: Set<String> = []
        return ids.filter { seen.insert(family(byId[$0]!)).inserted }
    }

    /// How many of `products` have each color, grouped ignoring ASCII case ("" for none).
    static func colorCounts(_ products: [Product]) -> [String: Int] {
        products.reduce(into: [:]) { counts, product in counts[FilterAndFacetTests.asciiLower(product.color ?? ""), default: 0] += 1 }
    }

    static func facetColors(_ counts: FacetCounts) -> [String: Int] {
        guard let color = counts.facets.first(where: { $0.field == .color }) else { return [:] }
        var found = Dictionary(uniqueKeysWithValues: color.values.map { (FilterAndFacetTests.asciiLower($0.value), $0.count) })
        if color.withoutValue > 0 { found[""] = color.withoutValue }
        return found
    }

    /// What every check compares: word searches (relevance, without typos, and with them where
    /// the model knows them: a last word of five letters or more has near starts the planner
    /// caps), their counts, families, a filter, facet counts, sorted pages and the newest first.
    static func check(_ search: ProductSearch, _ model: Model, _ step: String) throws {
        let byId = Dictionary(uniqueKeysWithValues: model.products.map { ($0.productId, $0) })
        let places = Dictionary(uniqueKeysWithValues: model.products.enumerated().map { ($0.element.productId, $0.offset) })
        var navy = SearchFilters()
        navy.colors = ["navy"]
        var queries = ["a", "al", "alp", "amb", "be", "uniqc", "gamma", "harbor al", "alpha b", "cedar delta", "P-00", "P-01", "N",
                       "embr", "betta fa", "amber alpine", "z", "ACME", "nord ce"]
        queries += model.products.prefix(2).compactMap(\.title)
        for (index, query) in queries.enumerated() {
            let words = WordSearchTests.words(query)
            let all = TypoSearchTests.modelResult(model.products, query)
            let exact = all.filter { id in
                byId[id].flatMap { TypoSearchTests.modelTier($0, Array(words.prefix(WordQuery.maxWords))) }.map { $0 < 4 } ?? true
            }
            #expect(try search.allPages(query: query, typos: false, pageSize: 4) == exact, "\(step): \(query), no typos")
            if (words.last?.count ?? 0) < 5 {
                #expect(try search.allPages(query: query, pageSize: 4) == all, "\(step): \(query)")
                #expect(try search.count(query: query, listing: .variants) == all.count, "\(step): count of \(query)")
            }
            guard index % 3 == 0 else { continue }
            let found = exact.compactMap { byId[$0] }
            for sort in [SearchSort.price, .priceDescending, .title, .newest] {
                #expect(try search.allPages(query: query, typos: false, sort: sort, pageSize: 5) == SortedSearchTests.model(found, sort, places: places),
                        "\(step): \(query) by \(sort)")
            }
            #expect(try search.allPages(query: query, typos: false, listing: .families, pageSize: 3) == Self.families(exact, byId),
                    "\(step): \(query) as families")
            #expect(try search.count(query: query, typos: false, listing: .families) == Self.families(exact, byId).count,
                    "\(step): count of \(query) as families")
            let navyOnes = exact.filter { FilterAndFacetTests.passes(byId[$0]!, navy) }
            #expect(try search.allPages(query: query, filters: navy, typos: false, pageSize: 4) == navyOnes, "\(step): \(query), navy")
            let counts = try search.facets(query: query, typos: false, top: 10)
            #expect(counts.counted == exact.count && Self.facetColors(counts) == Self.colorCounts(found), "\(step): colors of \(query)")
        }
        for sort in [SearchSort.price, .title, .newest] {
            #expect(try search.allPages(query: "", sort: sort, pageSize: 9) == SortedSearchTests.model(model.products, sort, places: places),
                    "\(step): everything by \(sort)")
        }
        #expect(try search.allPages(query: "", sort: .newest, listing: .families, pageSize: 9)
                == Self.families(model.products.reversed().map(\.productId), byId), "\(step): families, newest first")
        // The whole catalog's counts, kept by triggers through every write, by any program.
        #expect(Self.facetColors(try search.facets(query: "", top: 10)) == Self.colorCounts(model.products), "\(step): every color")
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func searchesAgreeWithTheModelThroughWritesAndMerges(seed: UInt64) throws {
        var random = SeededRandomGenerator(seed: seed)
        var fixture = try CatalogFixture()
        var model = Model()
        var number = 0
        func newId() -> String {
            number += 1
            return String(format: "P-%04d", number)
        }
        let imported = (0..<60).map { _ in Self.product(newId(), &random) }
        try fixture.importCSV(Self.csv(imported))
        model.products = imported.sorted { ProductIdOrder.folded($0.productId).utf8.lexicographicallyPrecedes(ProductIdOrder.folded($1.productId).utf8) }
        let editor = try CatalogEditor(databasePath: fixture.databasePath)
        editor.mergesAfterEachWrite = false
        let shell = try Connection(path: fixture.databasePath, mode: .readWrite)
        shell.setBusyTimeout(milliseconds: 5_000)
        let merger = try Connection(path: fixture.databasePath, mode: .readWrite)
        let mergeViews = IndexViews(connection: merger, prepare: merger.prepare, trustsDataVersion: false)
        let policy = MergePolicy(factor: 3, floor: 20, most: 5, baseShare: 0.3)
        var gone: [String] = []
        // One search kept through the steps (its views follow the index) and a new one each check.
        let kept = try ProductSearch(databasePath: fixture.databasePath)

        for stepNumber in 0..<70 {
            let roll = Int.random(in: 0..<100, using: &random)
            let current = model.products
            var step = "step \(stepNumber)"
            switch roll {
            case 0..<14:
                // Add a new product, or one deleted before (a new product: after every other).
                let id = gone.isEmpty || Bool.random(using: &random) ? newId() : gone.removeLast()
                let product = Self.product(id, &random)
                _ = try editor.add(product)
                model.products.append(product)
                step += " add \(id)"
            case 14..<34 where !current.isEmpty:
                var product = current.randomElement(using: &random)!
                product.title = Self.title(&random)
                product.listPrice = Price(thousandths: Int64.random(in: 1...40, using: &random) * 500)
                let stored = try editor.replace(productId: product.productId, with: product)
                model.products[model.index(of: product.productId)!] = stored
                step += " edit \(product.productId)"
            case 34..<44 where !current.isEmpty:
                // Rename, to a new productId or to one deleted before: the product keeps its place.
                var product = current.randomElement(using: &random)!
                let old = product.productId
                product.productId = gone.isEmpty || Bool.random(using: &random) ? newId() : gone.removeLast()
                let stored = try editor.replace(productId: old, with: product)
                model.products[model.index(of: old)!] = stored
                gone.append(old)
                step += " rename \(old) to \(product.productId)"
            case 44..<54 where !current.isEmpty:
                let product = current.randomElement(using: &random)!
                try editor.delete(productId: product.productId)
                model.products.remove(at: model.index(of: product.productId)!)
                gone.append(product.productId)
                step += " delete \(product.productId)"
            case 54..<62 where current.count > 3:
                let ids = Array(current.shuffled(using: &random).prefix(4).map(\.productId))
                let title = Self.title(&random)
                _ = try editor.apply(.set([.title: title]), to: ids)
                for id in ids { model.products[model.index(of: id)!].title = title }
                step += " batch"
            case 62..<72:
                // An upsert: some products changed, some new (placed in productId order after every other), maybe the rest deleted.
                let deleting = Int.random(in: 0..<3, using: &random) == 0
                var rows = current.shuffled(using: &random).prefix(deleting ? max(current.count - 4, 0) : 6).map { product -> Product in
                    var changed = product
                    if Bool.random(using: &random) { changed.title = Self.title(&random) }
                    return changed
                }
                let added = (0..<Int.random(in: 0...4, using: &random)).map { _ in Self.product(newId(), &random) }
                rows += added
                var options = fixture.options
                options.mode = .upsert
                options.deleteMissing = deleting
                options.maxDeletes = .none
                _ = try CatalogImporter(options: options).run(source: MemoryByteSource(Self.csv(rows)))
                for row in rows where model.index(of: row.productId) != nil {
                    let index = model.index(of: row.productId)!
                    var stored = model.products[index]
                    stored.title = row.title
                    stored.listPrice = row.listPrice
                    stored.brand = row.brand
                    stored.color = row.color
                    stored.groupId = row.groupId
                    model.products[index] = stored
                }
                if deleting {
                    let kept = Set(rows.map { ProductIdOrder.folded($0.productId) })
                    gone += model.products.filter { !kept.contains(ProductIdOrder.folded($0.productId)) }.map(\.productId)
                    model.products.removeAll { !kept.contains(ProductIdOrder.folded($0.productId)) }
                }
                model.products += added.sorted { ProductIdOrder.folded($0.productId).utf8.lexicographicallyPrecedes(ProductIdOrder.folded($1.productId).utf8) }
                step += " upsert\(deleting ? " deleting the rest" : "")"
            case 72..<86 where !current.isEmpty:
                // The sqlite3 shell: no segment is written; searches read the notes until a write of this library.
                let product = current.randomElement(using: &random)!
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    let title = Self.title(&random)
                    try shell.execute("UPDATE products SET title = '\(title)' WHERE productId = '\(product.productId)'")
                    model.products[model.index(of: product.productId)!].title = title
                    step += " shell: title of \(product.productId)"
                case 1:
                    // Deleted and added again in one transaction: a new product.
                    let title = Self.title(&random)
                    try shell.execute("""
                        BEGIN; DELETE FROM products WHERE productId = '\(product.productId)';
                        INSERT INTO products (productId, title) VALUES ('\(product.productId)', '\(title)'); COMMIT;
                        """)
                    model.products.remove(at: model.index(of: product.productId)!)
                    model.products.append(Product(productId: product.productId, title: title))
                    step += " shell: delete and add \(product.productId)"
                case 2:
                    // INSERT OR REPLACE of a product that exists: the same product, its other fields gone.
                    let title = Self.title(&random)
                    try shell.execute("INSERT OR REPLACE INTO products (productId, title) VALUES ('\(product.productId)', '\(title)')")
                    model.products[model.index(of: product.productId)!] = Product(productId: product.productId, title: title)
                    step += " shell: replace \(product.productId)"
                default:
                    let id = newId()
                    try shell.execute("UPDATE products SET productId = '\(id)' WHERE productId = '\(product.productId)'")
                    model.products[model.index(of: product.productId)!].productId = id
                    gone.append(product.productId)
                    step += " shell: rename \(product.productId) to \(id)"
                }
            default:
                // Merge steps, a few postings at a time, between the writes.
                _ = try SegmentMerge.work(merger, views: mergeViews, budget: Int.random(in: 5...200, using: &random), policy: policy)
                step += " merge"
            }
            // Another program's writes are made a segment of by the next write of this library; merges go on.
            if Int.random(in: 0..<3, using: &random) == 0 {
                _ = try SegmentMerge.work(merger, views: mergeViews, budget: 40, policy: policy)
            }
            try Self.check(kept, model, step)
            if stepNumber % 10 == 9 { try Self.check(try ProductSearch(databasePath: fixture.databasePath), model, step + " (a new search)") }
        }
        // Every merge finished: the index is as few segments as the policy keeps, and still agrees.
        while try SegmentMerge.work(merger, views: mergeViews, budget: 1_000, policy: policy) {}
        try Self.check(try ProductSearch(databasePath: fixture.databasePath), model, "merged")
        #expect(try SegmentManifest.entries(merger).count < 8)
        fixture.options.mode = .replace
    }
}
