import Foundation
import ProductCatalog
@testable import ProductCatalogPostgres
import Testing

/// Collections on PostgreSQL give the answers a catalog file gives: the same script of changes,
/// run through ``CollectionKeeping`` on both engines, reads back the same collections, counts,
/// members, filtered pages, refusals and rejected lines, and the members follow their products
/// through renames, deletes and imports.
@Suite(PostgresTestServer.required)
struct PostgresCollectionTests {
    static let products = """
        productId,title,listPrice,color
        A1,Linen shirt,10.00,Navy
        A2,Linen trousers,20.00,Navy
        a3,Wool hat,30.00,Black
        A4,Linen apron,5.00,
        tee,Classic tee,15.00,Red
        tee/Red/M,Classic tee,15.00,Red
        tee/Red/L,Classic tee,15.00,Red
        teeth-guard,Mouth guard,3.00,
        B9,Boots,90.00,Black

        """

    /// What `catalog` answers to one script of collection changes, one line per answer; `imports`
    /// replaces or upserts the catalog with a file's rows.
    static func transcript(of catalog: any CollectionKeeping, in folder: TemporaryFolder,
                           imports: (String, ImportOptions) async throws -> Void) async throws -> [String] {
        var lines: [String] = []
        func note(_ label: String, _ value: Any) { lines.append("\(label): \(value)") }
        func refusal(_ label: String, _ body: () async throws -> Void) async {
            do {
                try await body()
                note(label, "accepted")
            } catch {
                note(label, "\(error)")
            }
        }
        func state() async throws {
            note("collections", try await catalog.collections().map { "\($0.name) \($0.products.map(String.init) ?? $0.search?.parameters ?? "")" })
            var members: [String] = []
            var after: String?
            repeat {
                let page = try await catalog.members(of: "summer", after: after, limit: 2)
                members += page
                after = page.count == 2 ? page.last : nil
            } while after != nil
            note("members", members)
            for parameters in ["collection=Summer", "collection=SUMMER&color=navy", "collection=Summer&q=linen", "collection=Empty"] {
                var request = SearchRequest(SavedSearch(parameters: parameters), typos: true, listing: .variants)
                request.sort = .title
                let page = try await catalog.page(request, after: nil, limit: 20)
                note(parameters, page.page.products.map(\.productId) + ["\(page.count)"])
            }
        }

        try await imports(try folder.write("products.csv", products), ImportOptions())
        note("made", try await catalog.createCollection("Summer", search: nil).name)
        note("made", try await catalog.createCollection("Empty", search: nil).name)
        note("made", try await catalog.createCollection("Cheap linen", search: SavedSearch(text: "linen", filters: {
            var filters = SearchFilters()
            filters.maxPrice = Price("15")
            return filters
        }())).name)
        await refusal("again") { _ = try await catalog.createCollection(" summer ", search: nil) }
        await refusal("no name") { _ = try await catalog.createCollection("  ", search: nil) }
        let change = try await catalog.changeCollection("SUMMER", adding: ["A1", "a2", "A3", "ZZ-9", "A1"], removing: false)
        note("added", "\(change.changed) \(change.unknown)")
        await refusal("smart") { _ = try await catalog.changeCollection("Cheap linen", adding: ["A1"], removing: false) }
        await refusal("missing") { _ = try await catalog.changeCollection("Autumn", adding: ["A1"], removing: false) }
        try await state()

        let file = try folder.write("members.csv", """
            collection,productId
            Summer,A4
            Summer,A4
            Autumn,B9
            Cheap linen,A1
            Summer,NOPE
            ,A1
            Summer,

            """)
        let imported = try await catalog.importCollections(from: .file(path: file), mode: .upsert, rejectsPath: folder.path + "/rejects.csv")
        note("imported", [imported.rowsRead, imported.added, imported.alreadyThere, imported.rowsRejected, imported.unknownProducts,
                          imported.collections, imported.collectionsCreated])
        note("rejected", imported.firstRejects.map { "\($0.line) \($0.reason)" })
        let handles = try folder.write("handles.csv", "Collection,Handle\nAutumn,tee\n")
        let byHandle = try await catalog.importCollections(from: .file(path: handles), mode: .replace, rejectsPath: folder.path + "/rejects2.csv")
        note("by handle", [byHandle.added, byHandle.removed])
        note("autumn", try await catalog.members(of: "Autumn", after: nil, limit: 10))
        let fromColumn = try await catalog.collectionsFromColumn("COLOR", separator: ",")
        note("from column", [fromColumn.added, fromColumn.collections, fromColumn.created])
        note("navy", try await catalog.members(of: "navy", after: nil, limit: 10))
        await refusal("no column") { _ = try await catalog.collectionsFromColumn("tags", separator: ",") }
        try await state()

        // The members follow their products: a rename, a delete, a replacing import without one,
        // an upsert that deletes what its file does not list.
        _ = try await catalog.replace(productId: "A1", with: Product(productId: "A1-new", title: "Linen shirt", listPrice: Price("10")))
        try await catalog.delete(productId: "a2")
        try await state()
        try await imports(try folder.write("without-a4.csv", products.replacingOccurrences(of: "A4,Linen apron,5.00,\n", with: "")), ImportOptions())
        try await state()
        var upsert = ImportOptions(mode: .upsert)
        upsert.deleteMissing = true
        upsert.maxDeletes = .none
        try await imports(try folder.write("without-a3.csv", "productId,title,listPrice\nA1-new,Linen shirt,10.00\ntee,Classic tee,15.00\n"), upsert)
        try await state()
        note("autumn", try await catalog.members(of: "Autumn", after: nil, limit: 10))

        try await catalog.deleteCollection("summer")
        await refusal("deleted") { try await catalog.deleteCollection("Summer") }
        note("collections", try await catalog.collections().map(\.name))
        return lines
    }

    @Test func collectionsOnPostgreSQLAnswerAsInACatalogFile() async throws {
        let folder = try TemporaryFolder()
        let inFile = try await agreeingTranscript(in: folder) { try await Self.transcript(of: $0, in: folder, imports: $1) }
        // And the file's answers are the ones stated: counts, members in productId order, the members following.
        #expect(inFile.contains("added: 3 [\"ZZ-9\"]"), "\(inFile)")
        #expect(inFile.contains("members: [\"A1\", \"A2\", \"a3\"]"), "\(inFile)")
        #expect(inFile.contains("members: [\"a3\", \"A1-new\", \"A4\"]") || inFile.contains("members: [\"A1-new\", \"a3\", \"A4\"]"), "\(inFile)")
        #expect(inFile.contains("autumn: [\"tee\", \"tee/Red/L\", \"tee/Red/M\"]"), "\(inFile)")
        #expect(inFile.contains("from column: [7, 3, 3]"), "\(inFile)")
        #expect(inFile.contains("navy: [\"A1\", \"A2\"]"), "\(inFile)")
        #expect(inFile.last == "collections: [\"Autumn\", \"Black\", \"Cheap linen\", \"Empty\", \"Navy\", \"Red\"]", "\(inFile)")
    }
}
