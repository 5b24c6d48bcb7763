import Foundation
import Testing
@testable import ProductCatalog

/// The ordered JSON the CLI and the server write, and the same values through Foundation's coders.
@Suite struct JSONValueTests {
    static let page = SearchPage(
        products: [
            Product(productId: "A\"1", title: "Mug\n\u{2028}é", listPrice: Price(cents: 1250),
                    extras: [.init(name: "Material", value: "x"), .init(name: "a", value: nil)]),
            Product(productId: "B", title: nil, quantity: 3),
        ],
        nextCursor: KeysetCursor(after: "B"))

    /// Objects with their keys sorted and every number a double, to compare JSON whose key
    /// order (and `0` or `0.0`) an encoder chose.
    func canonical(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members): .object(members.map { .init($0.key, canonical($0.value)) }.sorted { $0.key < $1.key })
        case .array(let values): .array(values.map(canonical))
        case .int(let int): .double(Double(int))
        default: value
        }
    }

    @Test func theSerializedTextDecodesToTheSameValueInTheSameOrder() throws {
        let value = Self.page.jsonValue
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(value.serialized.utf8))
        #expect(canonical(decoded) == canonical(value))
        // JSONSerialization keeps the text's order in no type; the text itself is checked here.
        let text = value.serialized
        let order = ["\"productId\"", "\"title\"", "\"listPrice\"", "\"description\"", "\"Material\"", "\"a\"", "\"nextCursor\""]
        let positions = order.map { text.range(of: $0)!.lowerBound }
        #expect(positions == positions.sorted())
    }

    @Test func jsonEncoderWritesTheSameValuesAsTheOrderedText() throws {
        let encoded = try JSONEncoder().encode(Self.page)
        let decoded = try JSONDecoder().decode(JSONValue.self, from: encoded)
        #expect(canonical(decoded) == canonical(Self.page.jsonValue))
    }

    @Test(arguments: [
        ImportEvent.progress(ImportProgress(phase: .writing, rowsRead: 10, rowsInserted: 4, totalBytes: 100)),
        ImportEvent.failed("the import was cancelled"),
    ])
    func anEventEncodesAsItsDocumentedObject(event: ImportEvent) throws {
        let decoded = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(event))
        #expect(canonical(decoded) == canonical(event.jsonValue))
        guard case .object(let members) = event.jsonValue else { Issue.record("not an object"); return }
        #expect(members.first == .init("event", .string(event.name)))
    }

    @Test func scalarsKeepTheirTypes() throws {
        let value = JSONValue.array([.null, .bool(true), .int(-3), .double(0.5), .string("1")])
        #expect(value.serialized == #"[null,true,-3,0.5,"1"]"#)
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(value.serialized.utf8)) == value)
    }
}

extension JSONValueTests {
    @Test func aPageReadsBackFromItsJSON() throws {
        let page = try JSONDecoder().decode(SearchPage.self, from: Data(Self.page.jsonValue.serialized.utf8))
        #expect(page.nextCursor == Self.page.nextCursor)
        #expect(page.products.map(\.productId) == ["A\"1", "B"])
        #expect(page.products[0].listPrice == Price(cents: 1250))
        #expect(Set(page.products[0].extras.map(\.name)) == ["Material", "a"])
        #expect(page.products[1].quantity == 3)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(SearchPage.self, from: Data(#"{"products":[],"nextCursor":"***"}"#.utf8))
        }
    }
}
