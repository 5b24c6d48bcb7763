import Foundation
import Hummingbird
import HummingbirdTesting
import ProductCatalog
import ProductCatalogPostgres
import Testing
import TestSupport
@testable import CatalogServer

/// `GET /api/schema` lists every filter and sort of their one description (``SearchSchema``), and
/// each one it lists works through `GET /api/products`, on SQLite and (where
/// `PRODUCTCATALOG_TEST_POSTGRES` is set) PostgreSQL, giving what a naive filter and sort of the
/// file's rows give.
struct SchemaRouteTests {
    /// One product of the file, as the model reads it.
    struct Row {
        var productId, title, color, size, type, brand, options: String
        var list: Int // cents
        var sale: Int?
        var quantity: Int?
        var effective: Int { sale ?? list }
    }

    /// 80 products with values drawn from a few of each, some empty, prices in cents.
    static func rows(seed: UInt64) -> [Row] {
        var random = SeededRandomGenerator(seed: seed)
        func pick(_ values: [String]) -> String { values[Int(random.next() % UInt64(values.count))] }
        return (0..<80).map { index in
            let list = 500 + Int(random.next() % 5_000)
            let sale: Int? = random.next() % 3 == 0 ? list - Int(random.next() % 400) : nil
            let quantity: Int? = random.next() % 4 == 0 ? nil : Int(random.next() % 3)
            return Row(productId: String(format: "P%03d", (index * 37) % 80), title: pick(["Linen shirt", "linen Shirt", "Wool hat", "Boots", "apron"]) + " \(index % 7)",
                       color: pick(["Navy", "navy", "Black", ""]), size: pick(["S", "M", "L", ""]), type: pick(["Shirt", "Hat", "Shoe"]),
                       brand: pick(["Acme", "Zeta", ""]), options: pick(["Length: 14 Inches; Color: beige", "Length: 16 Inches", ""]),
                       list: list, sale: sale, quantity: quantity)
        }
    }

    static func csv(_ rows: [Row]) -> String {
        func money(_ cents: Int) -> String { String(format: "%d.%02d", cents / 100, cents % 100) }
        return "productId,title,listPrice,salesPrice,color,size,productType,brand,quantity,options\n" + rows.map { row in
            [row.productId, row.title, money(row.list), row.sale.map(money) ?? "", row.color, row.size, row.type, row.brand,
             row.quantity.map(String.init) ?? "", row.options].map { $0.contains(",") || $0.contains(";") ? "\"\($0)\"" : $0 }.joined(separator: ",")
        }.joined(separator: "\n") + "\n"
    }

    /// A value to try for each filter the schema lists, and which rows it keeps.
    static func trial(of filter: String, rows: [Row]) -> (value: String, keeps: (Row) -> Bool)? {
        let same = { (a: String, b: String) in a.lowercased() == b.lowercased() }
        switch filter {
        case "type": return ("shirt", { same($0.type, "shirt") })
        case "color": return ("NAVY", { same($0.color, "navy") })
        case "size": return ("", { $0.size.isEmpty })
        case "brand": return ("acme", { same($0.brand, "acme") })
        case "option": return ("length:14 inches", { $0.options.lowercased().contains("length: 14 inches") })
        case "minPrice": return ("30", { $0.effective >= 3_000 })
        case "maxPrice": return ("20.5", { $0.effective <= 2_050 })
        case "onSale": return ("true", { row in row.sale.map { $0 < row.list } ?? false })
        case "inStock": return ("true", { ($0.quantity ?? 0) > 0 })
        case "store": return ("Berlin", { _ in false }) // no stock by store was imported
        default: return nil
        }
    }

    /// The engines to try: a catalog file, and a PostgreSQL schema of its own when a server is given.
    static func engines(folder: String) throws -> [(name: String, store: any CatalogEngine, cleanUp: @Sendable () async -> Void)] {
        let sqlite = SQLiteCatalog(databasePath: folder + "/catalog.sqlite")
        var engines: [(String, any CatalogEngine, @Sendable () async -> Void)] = [("SQLite", sqlite, {})]
        if let server = testPostgres {
            let schema = "pc_schema_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(12)
            let location = try PostgresLocation(url: server + (server.contains("?") ? "&" : "?") + "schema=" + schema)
            let store = PostgresCatalog(location: location, imagesFolder: folder + "/pg-images")
            engines.append(("PostgreSQL", store, { await store.close() }))
        }
        return engines
    }

    @Test(arguments: [UInt64(3), 11])
    func everyFilterAndSortTheSchemaListsWorksOnEachEngine(seed: UInt64) async throws {
        let folder = NSTemporaryDirectory() + "catalog-schema-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder + "/work", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let rows = Self.rows(seed: seed)
        let file = folder + "/products.csv"
        try Data(Self.csv(rows).utf8).write(to: URL(fileURLWithPath: file))
        let byId = Dictionary(uniqueKeysWithValues: rows.map { ($0.productId, $0) })

        for (engine, store, cleanUp) in try Self.engines(folder: folder) {
            let options = ImportOptions()
            let job = CatalogImporter(options: options).start(input: .file(path: file), into: { store.makeSink(for: options) })
            for await _ in job.progress {}
            #expect(try await job.summary.rowsInserted == rows.count, "\(engine)")
            let imports = ImportCoordinator(workDirectory: folder + "/work", store: store)
            try await Application(router: buildRouter(store: store, imports: imports, maxUploadBytes: 1 << 20)).test(.router) { client in
                let schema = try await client.execute(uri: "/api/schema", method: .get).json()
                let filters = try #require(schema["filters"] as? [[String: Any]])
                #expect(filters.compactMap { $0["name"] as? String } == SearchSchema.filters.map(\.name))
                for filter in filters {
                    let name = try #require(filter["name"] as? String)
                    #expect((filter["help"] as? String)?.isEmpty == false)
                    guard let trial = Self.trial(of: name, rows: rows) else {
                        // priceBasis qualifies a price bound; collection names one the catalog keeps (CollectionRouteTests).
                        #expect(["priceBasis", "collection"].contains(name), "no trial for the filter \(name)")
                        continue
                    }
                    let value = trial.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                    let page = try await client.execute(uri: "/api/products?variants=all&limit=100&\(name)=\(value)", method: .get)
                    #expect(page.status == .ok, "\(engine) \(name): \(page.text)")
                    let expected = rows.filter(trial.keeps).map(\.productId).sorted()
                    #expect(try page.productIds().sorted() == expected, "\(engine): \(name)=\(trial.value)")
                }
                // The price basis: the highest list price, not what the product sells for.
                let list = try await client.execute(uri: "/api/products?variants=all&limit=100&maxPrice=20.5&priceBasis=list", method: .get)
                #expect(try list.productIds().sorted() == rows.filter { $0.list <= 2_050 }.map(\.productId).sorted(), "\(engine)")

                let sorts = try #require(schema["sorts"] as? [[String: Any]])
                #expect(sorts.compactMap { $0["name"] as? String } == SearchSort.allCases.map(\.rawValue))
                for sort in sorts {
                    let name = try #require(sort["name"] as? String)
                    let page = try await client.execute(uri: "/api/products?variants=all&limit=100&sort=\(name)", method: .get)
                    let ids = try page.productIds()
                    #expect(ids.sorted() == rows.map(\.productId).sorted(), "\(engine): sort=\(name) lists every product once")
                    let descending = try #require(sort["descending"] as? Bool)
                    // Each neighbouring pair in the order the sort's description states.
                    for (a, b) in zip(ids, ids.dropFirst()) {
                        let (x, y) = (try #require(byId[a]), try #require(byId[b]))
                        let inOrder: Bool
                        switch name {
                        case "price", "-price":
                            inOrder = x.effective == y.effective ? (descending ? a > b : a < b) : (descending ? x.effective > y.effective : x.effective < y.effective)
                        case "title":
                            inOrder = x.title.lowercased() == y.title.lowercased() ? a < b : x.title.lowercased() < y.title.lowercased()
                        case "newest", "relevance":
                            // One import: newest is its products in reverse productId order; relevance without words, productId order.
                            inOrder = descending ? a > b : a < b
                        default:
                            Issue.record("no model of the sort \(name)")
                            inOrder = true
                        }
                        #expect(inOrder, "\(engine): sort=\(name) puts \(a) before \(b)")
                    }
                }
                let fields = try #require(schema["fields"] as? [[String: Any]])
                #expect(fields.compactMap { $0["name"] as? String } == ProductField.allCases.map(\.rawValue))
                // Each field's label and hint are the library's; a field said to hold a number refuses a word, naming it.
                for described in fields {
                    let field = try #require(ProductField(rawValue: described["name"] as? String ?? ""))
                    #expect(described["label"] as? String == field.label && described["hint"] as? String == field.hint, "\(described)")
                    let kind = try #require(described["value"] as? String)
                    #expect(kind == field.valueKind.rawValue)
                    guard kind != "text" else { continue }
                    let refused = try await client.send("/api/products", .post, json: ["productId": "KIND-1", "title": "Kind", field.rawValue: "many"])
                    let named = Array(try refused.errorFields().keys)
                    #expect(refused.status == .unprocessableContent && named == [field.rawValue], "\(engine): \(field)")
                }

                // What the engine keeps, as the schema says it and as every route of it answers.
                let keeps = try #require(schema["keeps"] as? [String: Bool])
                #expect(keeps == ["stockByStore": store.stockKeeping != nil, "collections": store.collectionKeeping != nil], "\(engine)")
                let collections = try await client.execute(uri: "/api/collections", method: .get)
                let filtered = try await client.execute(uri: "/api/products?collection=Summer", method: .get)
                let stores = try await client.execute(uri: "/api/catalog/stores", method: .get)
                #expect(try stores.json()["stores"] as? [String] == [], "\(engine): no stock was imported")
                if keeps["collections"] == true {
                    #expect(collections.status == .ok)
                    #expect(filtered.status == .notFound, "no collection is named Summer")
                } else {
                    for answer in [collections, filtered] {
                        #expect(answer.status == .notImplemented, "\(engine): \(answer.text)")
                        #expect(answer.text.contains("keeps no collections"), "\(engine): \(answer.text)")
                    }
                }
            }
            await cleanUp()
        }
    }

    @Test func aFilterValueThatIsNotValidIsRefusedNamingTheParameter() async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        try await fixture.importCSV(productsCSV(prefix: "A", count: 3))
        try await fixture.application().test(.router) { client in
            for (query, name) in [("minPrice=abc", "minPrice"), ("option=Length%3A", "option"), ("priceBasis=cheapest", "priceBasis"),
                                  ("onSale=yes", "onSale"), ("minPrice=9&maxPrice=3", "minPrice"),
                                  ("collection=" + String(repeating: "c", count: ProductCollection.maxNameBytes + 1), "collection"),
                                  (Array(repeating: "color=x", count: 101).joined(separator: "&"), "color")] {
                let answer = try await client.execute(uri: "/api/products?" + query, method: .get)
                #expect(answer.status == .badRequest, "\(query)")
                #expect(try answer.errorFields().keys.contains(name), "\(query): \(answer.text)")
            }
        }
    }
}
