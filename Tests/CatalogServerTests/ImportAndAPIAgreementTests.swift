import Foundation
import Hummingbird
import HummingbirdTesting
import ProductCatalog
import Testing
@testable import CatalogServer

/// What an import accepts the API accepts, and what one refuses the other refuses.
@Suite struct ImportAndAPIAgreementTests {
    /// A productId or price spelling, and whether both sides should accept it.
    struct Case: Sendable, CustomStringConvertible {
        var productId: String
        var listPrice = "10.00"
        var salesPrice = ""
        var accepted: Bool
        var description: String { "\(productId.debugDescription) \(listPrice)/\(salesPrice) → \(accepted ? "accepted" : "refused")" }
    }

    static let cases: [Case] = [
        Case(productId: "AB-1", accepted: true),
        Case(productId: "  AB-2  ", accepted: true),
        Case(productId: String(repeating: "L", count: 255), accepted: true),
        Case(productId: String(repeating: "L", count: 256), accepted: false),
        Case(productId: "   ", accepted: false),
        Case(productId: "AB\u{1B}[31m", accepted: false),
        Case(productId: "AB\u{7F}", accepted: false),
        Case(productId: "SALE-1", listPrice: "10.00", salesPrice: "12.00", accepted: false),
        Case(productId: "SALE-2", listPrice: "10.00", salesPrice: "10.00", accepted: true),
        Case(productId: "SALE-3", listPrice: "", salesPrice: "12.00", accepted: true),
    ]

    @Test(arguments: cases)
    func theImportAndTheAPIAcceptTheSameRows(_ rule: Case) async throws {
        let fixture = try ServerFixture()
        defer { fixture.remove() }
        // A quoted CSV field carries any byte, control characters included.
        let csv = "productId,title,listPrice,salesPrice\nKEEP,Kept,1,\n\"\(rule.productId)\",Mug,\(rule.listPrice),\(rule.salesPrice)\n"
        let summary = try await fixture.importCSV(csv)
        #expect(summary.rowsInserted == (rule.accepted ? 2 : 1))
        #expect(summary.rowsRejected == (rule.accepted ? 0 : 1))

        try await fixture.application().test(.router) { client in
            let body: [String: Any?] = ["productId": rule.productId, "title": "Mug", "listPrice": rule.listPrice, "salesPrice": rule.salesPrice]
            let trimmed = rule.productId.trimmingCharacters(in: .whitespaces)
            if rule.accepted {
                // What the import stored can be saved back unchanged, and deleted.
                let path = "/api/products/" + ProductIdPath.encode(trimmed)
                let saved = try await client.send(path, .put, json: body)
                #expect(saved.status == .ok, "\(saved.text)")
                #expect(try saved.json()["productId"] as? String == trimmed)
                let deleted = try await client.execute(uri: path, method: .delete)
                #expect(deleted.status == .noContent)
                let added = try await client.send("/api/products", .post, json: body)
                #expect(added.status == .created, "\(added.text)")
            } else {
                let added = try await client.send("/api/products", .post, json: body)
                #expect(added.status == .unprocessableContent)
            }
        }
    }
}
