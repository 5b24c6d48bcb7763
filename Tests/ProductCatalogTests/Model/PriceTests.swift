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

    @Test(arguments: [("12.345", 12_345), ("0.001", 1), ("1.2340", 1_234), ("9999999999999.999", 9_999_999_999_999_999)])
    func keepsAThirdDecimalExactly(text: String, thousandths: Int64) {
        #expect(Price(text)?.thousandths == thousandths)
        #expect(Price(text)?.hasThirdDecimal == (thousandths % 10 != 0))
    }

    @Test(arguments: [
        ("abc", Price.ParseFailure.notANumber), ("-5", .negative), ("19.9999", .tooManyDecimals),
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

    @Test func printsAThirdDecimalWhenThereIsOneOrTheCurrencyHasThree() {
        #expect(Price(thousandths: 12_345).description == "12.345")
        #expect(Price(thousandths: 12_300).text(currency: "KWD") == "12.300")
        #expect(Price(thousandths: 12_300).text(currency: "USD") == "12.30")
        #expect(Price(thousandths: 12_000_000).text(currency: "JPY") == "12000.00")
        #expect(Price(thousandths: 5).text(currency: nil) == "0.005")
    }

    @Test func aThirdDecimalNeedsACurrencyThatHasOne() {
        let price = Price(thousandths: 12_345)
        #expect(ProductRules.thirdDecimalProblem(price, currency: "KWD") == nil)
        #expect(ProductRules.thirdDecimalProblem(price, currency: " bhd ") == nil)
        #expect(ProductRules.thirdDecimalProblem(price, currency: "USD")?.contains("USD has 2") == true)
        #expect(ProductRules.thirdDecimalProblem(price, currency: nil)?.contains("KWD") == true)
        #expect(ProductRules.thirdDecimalProblem(Price(thousandths: 12_340), currency: nil) == nil)
    }
}
