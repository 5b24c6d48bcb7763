import Foundation
import ProductCatalog
@testable import ProductCatalogPostgres
import Testing
import TestSupport

/// One rule for the order of word matches and of the newest first on both engines (see the file's
/// ``ChangeNotes``): the import's products in productId order, then each product added since in the
/// order it was added; a rename keeps a product's place, however many in a row; a product deleted
/// and added again is new. Scripts of edits, renames, deletes, batches and upserts, run through
/// the engine on a catalog file and on PostgreSQL, answer alike, and as a naive model of the
/// products table says after every step.
@Suite(PostgresTestServer.required)
struct PostgresPlaceOrderTests {
    /// Every page of `request`, 4 at a time, through `catalog`'s engine.
    static func allPages(_ catalog: any CatalogEngine, _ request: SearchRequest) async throws -> [String] {
        var ids: [String] = []
        var cursor: KeysetCursor?
        repeat {
            let answer = try await catalog.page(request, after: cursor, limit: 4)
            ids += answer.page.products.map(\.productId)
            cursor = answer.page.nextCursor
        } while cursor != nil
        return ids
    }

    @Test func deletesRenamesAndProductsAddedAgainOrderAlikeOnBothEngines() async throws {
        let folder = try TemporaryFolder()
        let csv = try folder.write("lamps.csv", "productId,title\nA1,lamp alpha\nA2,lamp alpha\nA3,lamp uniqc\nB1,lamp beta\nB2,lamp beta\nB3,lamp beta\n")
        let lines = try await agreeingTranscript(in: folder) { catalog, imports in
            var lines: [String] = []
            func note(_ step: String) async throws {
                let lamps = try await Self.allPages(catalog, SearchRequest("lamp", listing: .variants))
                let newest = try await Self.allPages(catalog, SearchRequest("", sort: .newest, listing: .variants))
                lines.append("\(step): \(lamps.joined(separator: " ")) | newest \(newest.joined(separator: " "))")
            }
            try await imports(csv, ImportOptions())
            try await note("imported")
            try await catalog.delete(productId: "A2")
            _ = try await catalog.add(Product(productId: "A2", title: "lamp alpha"))
            try await note("A2 deleted and added again")
            _ = try await catalog.replace(productId: "B1", with: Product(productId: "Z9", title: "lamp beta"))
            _ = try await catalog.replace(productId: "Z9", with: Product(productId: "Z8", title: "lamp beta"))
            try await note("B1 renamed twice")
            _ = try await catalog.add(Product(productId: "B1", title: "lamp beta"))
            try await note("B1 added again")
            var upsert = ImportOptions()
            upsert.mode = .upsert
            try await imports(try folder.write("more.csv", "productId,title\nM2,lamp gamma\nC1,lamp gamma\nA3,lamp uniqc\n"), upsert)
            try await note("upserted two new")
            return lines
        }
        #expect(lines == [
            "imported: A1 A2 A3 B1 B2 B3 | newest B3 B2 B1 A3 A2 A1",
            "A2 deleted and added again: A1 A3 B1 B2 B3 A2 | newest A2 B3 B2 B1 A3 A1",
            "B1 renamed twice: A1 A3 Z8 B2 B3 A2 | newest A2 B3 B2 Z8 A3 A1",
            "B1 added again: A1 A3 Z8 B2 B3 A2 B1 | newest B1 A2 B3 B2 Z8 A3 A1",
            "upserted two new: A1 A3 Z8 B2 B3 A2 B1 C1 M2 | newest M2 C1 B1 A2 B3 B2 Z8 A3 A1",
        ])
    }

    /// A random script through the engines, checked after every step against the model (the
    /// products in the order of their places, ``WordModel``) on both.
    @Test(arguments: [21, 22] as [UInt64])
    func randomWritesAgreeWithTheModelOnBothEngines(seed: UInt64) async throws {
        let folder = try TemporaryFolder()
        var random = SeededRandomGenerator(seed: seed)
        var number = 0
        func newId() -> String {
            number += 1
            return String(format: "P-%04d", number)
        }
        let vocabulary = ["alpha", "alpine", "amber", "beta", "cedar", "delta", "ember", "harbor"]
        func title() -> String { (0..<Int.random(in: 1...3, using: &random)).map { _ in vocabulary.randomElement(using: &random)! }.joined(separator: " ") }
        let imported = (0..<30).map { _ in (newId(), title(), Int.random(in: 1...40, using: &random)) }
        let csv = try folder.write("import.csv", "productId,title,listPrice\n" + imported.map { "\($0.0),\($0.1),\($0.2).00" }.joined(separator: "\n") + "\n")
        // The steps, decided once, so that both engines take the same ones.
        enum Step { case add(String, String), edit(Int, String), rename(Int, String), delete(Int), upsert([(String, String)]) }
        var steps: [Step] = []
        for _ in 0..<25 {
            switch Int.random(in: 0..<5, using: &random) {
            case 0: steps.append(.add(newId(), title()))
            case 1: steps.append(.edit(Int.random(in: 0..<1_000, using: &random), title()))
            case 2: steps.append(.rename(Int.random(in: 0..<1_000, using: &random), newId()))
            case 3: steps.append(.delete(Int.random(in: 0..<1_000, using: &random)))
            default: steps.append(.upsert((0..<3).map { _ in (newId(), title()) }))
            }
        }
        let queries = ["a", "al", "alpha", "amber cedar", "be", "harbor", "P-00"]
        var expected: [String] = []
        let lines = try await agreeingTranscript(in: folder) { catalog, imports in
            var model = imported.sorted { $0.0 < $1.0 }.map { Product(productId: $0.0, title: $0.1, listPrice: Price(thousandths: Int64($0.2) * 1_000)) }
            var lines: [String] = []
            var wanted: [String] = []
            func note(_ step: String) async throws {
                for query in queries {
                    let found = try await Self.allPages(catalog, SearchRequest(query, typos: false, listing: .variants))
                    lines.append("\(step) \(query): \(found.joined(separator: " "))")
                    wanted.append("\(step) \(query): \(WordModel.result(model, query).joined(separator: " "))")
                }
                let newest = try await Self.allPages(catalog, SearchRequest("", sort: .newest, listing: .variants))
                lines.append("\(step) newest: \(newest.joined(separator: " "))")
                wanted.append("\(step) newest: \(model.reversed().map(\.productId).joined(separator: " "))")
            }
            try await imports(csv, ImportOptions())
            try await note("imported")
            for (index, step) in steps.enumerated() {
                switch step {
                case .add(let id, let title):
                    _ = try await catalog.add(Product(productId: id, title: title))
                    model.append(Product(productId: id, title: title))
                case .edit(let which, let title) where !model.isEmpty:
                    var product = model[which % model.count]
                    product.title = title
                    model[which % model.count] = try await catalog.replace(productId: product.productId, with: product)
                case .rename(let which, let id) where !model.isEmpty:
                    var product = model[which % model.count]
                    let old = product.productId
                    product.productId = id
                    model[which % model.count] = try await catalog.replace(productId: old, with: product)
                case .delete(let which) where !model.isEmpty:
                    try await catalog.delete(productId: model[which % model.count].productId)
                    model.remove(at: which % model.count)
                case .upsert(let rows):
                    var options = ImportOptions()
                    options.mode = .upsert
                    try await imports(try folder.write("upsert-\(index).csv", "productId,title\n" + rows.map { "\($0.0),\($0.1)" }.joined(separator: "\n") + "\n"), options)
                    model += rows.sorted { $0.0 < $1.0 }.map { Product(productId: $0.0, title: $0.1) }
                default:
                    break
                }
                try await note("step \(index)")
            }
            expected = wanted
            return lines
        }
        #expect(lines == expected)
    }
}
