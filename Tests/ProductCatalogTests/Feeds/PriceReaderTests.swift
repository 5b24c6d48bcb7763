import Testing
@testable import ProductCatalog

/// Prices as shops write them, with digit groups: read when the groups are where a grouping
/// system puts them, refused when they could mean another number.
@Suite struct PriceReaderTests {
    /// What a fresh reader (the file not yet settled on a decimal mark) makes of `text`.
    static func read(_ text: String, after earlier: [String] = []) -> Result<PriceReader.Reading, PriceProblem>? {
        var reader = PriceReader()
        for price in earlier { _ = reader.read(price) }
        return reader.read(text)
    }

    @Test(arguments: [
        ("1,234,567.50", "1234567.50"), ("1.234.567,50", "1234567.50"), ("12,34,567", "1234567.00"), ("1,23,45,678.90", "12345678.90"),
        ("1 234,50", "1234.50"), ("1\u{A0}234\u{A0}567", "1234567.00"), ("1'234.50", "1234.50"), ("12 000 JPY", "12000.00"),
        ("1,234.5", "1234.50"), ("999,999", "999999.00"), ("1.234,50 €", "1234.50"),
    ])
    func groupsWhereAGroupingSystemPutsThemAreRead(text: String, price: String) throws {
        let reading = try #require(try Self.read(text, after: ["4.50"])?.get())
        #expect(reading.price == Price(price), "\(text)")
    }

    @Test(arguments: ["12,34,56", "1,2,3", "1.2.3", "1234,567.00", "12 34 56", "1,234.567,50", "1 234.567,50", "12,3456", "1,2345,678", "'1234"])
    func misplacedGroupsAreRefusedNotGuessed(text: String) {
        guard case .failure(let problem)? = Self.read(text, after: ["4.50"]) else {
            Issue.record("\(text) was read as \(String(describing: Self.read(text, after: ["4.50"])))")
            return
        }
        switch problem {
        case .misplacedGroups, .notANumber, .tooManyDecimals: break
        default: Issue.record("\(text): \(problem)")
        }
    }

    @Test func theIssuesExampleIsRefusedWithItsReason() throws {
        #expect(Self.read("12,34,56") == .failure(.misplacedGroups("12,34,56")))
        #expect(PriceProblem.misplacedGroups("12,34,56").description.contains("could be another number"))
        // Once the file settled on a decimal point, a single comma before three digits groups thousands,
        // and must still stand where thousands are grouped.
        #expect(Self.read("1234,567", after: ["4.50"]) == .failure(.misplacedGroups("1234,567")))
        let grouped = try #require(try Self.read("1,234", after: ["4.50"])?.get())
        #expect(grouped.price == Price("1234"))
    }
}
