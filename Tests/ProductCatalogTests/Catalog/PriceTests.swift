import Testing
@testable import ProductCatalog

@Suite struct PriceTests {
    @Test(arguments: [
        ("19", 1900), ("19.9", 1990), ("19.90", 1990), (" 19.90 ", 1990), ("34.5000", 3450),
        ("0", 0), ("0.05", 5), (".5", 50), ("5.", 500), ("007.10", 710), ("9999999999999.99", 999_999_999_999_999),
    ])
    func acceptsExactDecimals(text: String, cents: Int64) {
        #expect(Price(text) == Price(cents: cents))
    }

    @Test(arguments: [
        ("abc", Price.ParseFailure.notANumber), ("-5", .negative), ("19.999", .tooManyDecimals),
        ("1e3", .notANumber), ("$5", .notANumber), ("1,99", .notANumber), (".", .notANumber),
        ("1.2.3", .notANumber), ("12 50", .notANumber), ("+5", .notANumber), ("10000000000000", .tooLarge),
    ])
    func rejectsAnythingElseWithAReason(text: String, failure: Price.ParseFailure) {
        let result = Array(text.utf8).withUnsafeBufferPointer { Price.parse($0) }
        #expect(result == .failure(failure))
        #expect(Price(text) == nil)
    }

    @Test func treatsAnEmptyOrBlankFieldAsNoPrice() {
        for text in ["", "  ", "\t"] {
            #expect(Array(text.utf8).withUnsafeBufferPointer { Price.parse($0) } == nil)
        }
    }

    @Test func printsTwoDecimals() {
        #expect(Price(cents: 1250).description == "12.50")
        #expect(Price(cents: 5).description == "0.05")
        #expect(Price(cents: 100).description == "1.00")
    }
}
