import Testing
@testable import ProductCatalog

/// The stock and collection exports write their header once, whatever the batches hold.
@Suite struct SideTableExportTests {
    @Test func aFirstBatchWithoutStockWritesTheHeaderOnce() throws {
        let products = try ["A-1", "A-2", "A-3"].map { try ProductValidation.product(from: ProductDraft(values: [.productId: $0, .title: "Mug"])) }
        var export = StockExport()
        var bytes = export.encode([products[0]], stock: [:])
        bytes += export.encode(Array(products[1...]), stock: ["A-3": [StoreQuantity(store: "Old Town", quantity: 2)]])
        bytes += export.finish()
        #expect(String(decoding: bytes, as: UTF8.self) == "productId,store,quantity\nA-3,Old Town,2\n")
        #expect(String(decoding: StockExport().finish(), as: UTF8.self) == "productId,store,quantity\n")
    }

    @Test func anEmptyCollectionFirstWritesTheHeaderOnce() {
        var export = MembersExport()
        var bytes = export.encode("Empty", [])
        bytes += export.encode("Two, \"quoted\"", ["A-1", "A-2"]) + export.finish()
        #expect(String(decoding: bytes, as: UTF8.self) == "collection,productId\n\"Two, \"\"quoted\"\"\",A-1\n\"Two, \"\"quoted\"\"\",A-2\n")
        #expect(export.count == 2)
    }
}
