import Foundation
import Testing
@testable import ProductCatalog

/// The reader against CSV test suites written by others, read from `../shared/testdata`
/// (see its README). Skipped when that folder is absent; the files are never copied here.
@Suite("CSV conformance with external test files")
struct CSVConformanceTests {
    private static let cr = UInt8(ascii: "\r")

    /// Reads `bytes` in every chunk size, checks that all sizes agree, and returns the records.
    private static func readInEveryChunkSize(_ bytes: [UInt8]) -> [ReadRecord] {
        let records = readRecords(bytes)
        for chunkSize in csvChunkSizes.dropLast() {
            #expect(readRecords(bytes, chunkSize: chunkSize) == records, "chunk size \(chunkSize)")
        }
        return records
    }

    /// Records after the header, as objects keyed by the header, checking every row's width.
    private static func objects(_ records: [ReadRecord]) -> [[String: String]] {
        guard let header = records.first?.fields else { return [] }
        return records.dropFirst().map { record in
            #expect(record.fields.count == header.count, "\(record)")
            return Dictionary(zip(header, record.fields), uniquingKeysWith: { first, _ in first })
        }
    }

    /// A `*_crlf` / `*-crlf` file as its suite meant it.
    ///
    /// The README says csv-spectrum's `*_crlf.csv` files are CRLF, and `newlines_crlf.json`
    /// expects `"\r\n"` inside a quoted field, but the copy in `shared/testdata` has lost every
    /// CR (as has sineemore's `simple-crlf.csv`). When a `crlf` file holds no CR at all, its LFs
    /// are turned back into CRLF here, in memory; a copy that still has its CRs is read as it is.
    private static func restoringCRLF(_ bytes: [UInt8], name: String) -> [UInt8] {
        guard name.contains("crlf"), !bytes.contains(cr) else { return bytes }
        return convertingLFToCRLF(bytes)
    }

    // MARK: - csv-spectrum

    /// Every csv-spectrum case but `location_coordinates`, which is broken upstream: its JSON is
    /// an object rather than an array, and its phone number differs from the CSV's.
    static let spectrumCases = [
        "comma_in_quotes", "empty", "empty_crlf", "escaped_quotes", "json", "newlines",
        "newlines_crlf", "quotes_and_newlines", "simple", "simple_crlf", "utf8",
    ]
    static let spectrumLeftOut = ["location_coordinates"]

    @Test("csv-spectrum holds the cases this suite knows", .enabled(if: SharedTestData.exists("csv-spectrum")))
    func spectrumCaseList() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: SharedTestData.url("csv-spectrum/csvs").path)
            .filter { $0.hasSuffix(".csv") }.map { String($0.dropLast(4)) }
        #expect(Set(names) == Set(Self.spectrumCases + Self.spectrumLeftOut))
    }

    @Test("A csv-spectrum file reads as its JSON says", .enabled(if: SharedTestData.exists("csv-spectrum")), arguments: spectrumCases)
    func spectrum(name: String) throws {
        let bytes = Self.restoringCRLF(try SharedTestData.bytes("csv-spectrum/csvs/\(name).csv"), name: name)
        let expected = try JSONDecoder().decode(
            [[String: String]].self, from: Data(SharedTestData.bytes("csv-spectrum/json/\(name).json")))

        let records = Self.readInEveryChunkSize(bytes)
        #expect(records.allSatisfy { $0.malformation == nil })
        #expect(Self.objects(records) == expected)
    }

    // MARK: - sineemore/csv-test-data

    /// Cases whose JSON is an array of arrays of strings, the first line included.
    static let sineemoreCases = [
        "empty-field", "leading-space", "one-column", "quotes-empty", "quotes-with-comma",
        "quotes-with-escaped-quote", "quotes-with-newline", "quotes-with-space", "simple-crlf",
        "simple-lf", "trailing-newline", "trailing-newline-one-field", "trailing-space", "utf8",
    ]
    /// Cases whose JSON is an array of objects keyed by the header `foo,bar,baz`.
    static let sineemoreHeaderCases = ["header-no-rows", "header-simple"]
    /// Invalid files: no JSON; a malformation, a row of the wrong width or a wrong header is expected.
    static let sineemoreBadCases = [
        "bad-header-less-fields", "bad-header-more-fields", "bad-header-no-header",
        "bad-header-wrong-header", "bad-missing-quote", "bad-quotes-with-unescaped-quote",
        "bad-unescaped-quote",
    ]
    /// Left out because this reader skips blank lines, where that suite reads a blank line as a
    /// record of one empty field:
    /// - `all-empty` (`\n\n`) expects two records `[""]`; here there are none.
    /// - `empty-one-column` (`foo\n\n`) expects `["foo"]` and `[""]`; here the blank line after
    ///   `foo` is skipped, so only `["foo"]`.
    /// Skipping blank lines is the documented behaviour (an empty line is never a product row); a
    /// record of one empty field is written `""`, which this reader does return.
    static let sineemoreLeftOut = ["all-empty", "empty-one-column"]

    @Test("sineemore/csv-test-data holds the cases this suite knows", .enabled(if: SharedTestData.exists("sineemore-csv-test-data")))
    func sineemoreCaseList() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: SharedTestData.url("sineemore-csv-test-data/csv").path)
            .filter { $0.hasSuffix(".csv") }.map { String($0.dropLast(4)) }
        let known = Self.sineemoreCases + Self.sineemoreHeaderCases + Self.sineemoreBadCases + Self.sineemoreLeftOut
        #expect(Set(names) == Set(known))
    }

    @Test("The blank-line cases left out really differ only by blank lines", .enabled(if: SharedTestData.exists("sineemore-csv-test-data")))
    func sineemoreLeftOutCases() throws {
        #expect(Self.readInEveryChunkSize(try SharedTestData.bytes("sineemore-csv-test-data/csv/all-empty.csv")).isEmpty)
        let oneColumn = Self.readInEveryChunkSize(try SharedTestData.bytes("sineemore-csv-test-data/csv/empty-one-column.csv"))
        #expect(oneColumn.map(\.fields) == [["foo"]])
    }

    @Test("A sineemore file reads as its JSON says", .enabled(if: SharedTestData.exists("sineemore-csv-test-data")), arguments: sineemoreCases)
    func sineemore(name: String) throws {
        let bytes = Self.restoringCRLF(try SharedTestData.bytes("sineemore-csv-test-data/csv/\(name).csv"), name: name)
        let expected = try JSONDecoder().decode(
            [[String]].self, from: Data(SharedTestData.bytes("sineemore-csv-test-data/json/\(name).json")))

        let records = Self.readInEveryChunkSize(bytes)
        #expect(records.allSatisfy { $0.malformation == nil })
        #expect(records.map(\.fields) == expected)
    }

    @Test("A sineemore file with a header reads as its JSON says", .enabled(if: SharedTestData.exists("sineemore-csv-test-data")), arguments: sineemoreHeaderCases)
    func sineemoreWithHeader(name: String) throws {
        let bytes = try SharedTestData.bytes("sineemore-csv-test-data/csv/\(name).csv")
        let expected = try JSONDecoder().decode(
            [[String: String]].self, from: Data(SharedTestData.bytes("sineemore-csv-test-data/json/\(name).json")))

        let records = Self.readInEveryChunkSize(bytes)
        #expect(records.first?.fields == ["foo", "bar", "baz"])
        #expect(records.allSatisfy { $0.malformation == nil })
        #expect(Self.objects(records) == expected)
    }

    @Test("A bad sineemore file gives a malformation, a wrong row width or a wrong header", .enabled(if: SharedTestData.exists("sineemore-csv-test-data")), arguments: sineemoreBadCases)
    func sineemoreBad(name: String) throws {
        let records = Self.readInEveryChunkSize(try SharedTestData.bytes("sineemore-csv-test-data/csv/\(name).csv"))
        let malformed = records.contains { $0.malformation != nil }
        let width = records.first?.fields.count
        let wrongWidth = records.contains { $0.fields.count != width }
        // `bad-header-no-header` (an empty file) and `bad-header-wrong-header` (`qux,quux,quuz`)
        // are well-formed CSV: only the header the suite asks for, `foo,bar,baz`, is missing.
        let wrongHeader = name.hasPrefix("bad-header-") && records.first?.fields != ["foo", "bar", "baz"]
        #expect(malformed || wrongWidth || wrongHeader, "\(records)")
    }

    @Test("A bad sineemore file is flagged at the right place", .enabled(if: SharedTestData.exists("sineemore-csv-test-data")), arguments: [
        ("bad-missing-quote", CSVMalformation.Kind.unterminatedQuote, 43),
        ("bad-quotes-with-unescaped-quote", .characterAfterClosingQuote, 30),
        ("bad-unescaped-quote", .quoteInUnquotedField, 19),
    ])
    func sineemoreBadPlace(name: String, kind: CSVMalformation.Kind, byteOffset: Int) throws {
        let records = Self.readInEveryChunkSize(try SharedTestData.bytes("sineemore-csv-test-data/csv/\(name).csv"))
        #expect(records.first == ReadRecord(["foo", "bar", "baz"], line: 1, byteOffset: 0))
        #expect(records.count == 2)
        #expect(records.last?.malformation == CSVMalformation(kind: kind, column: 2, line: 2, byteOffset: byteOffset))
    }
}
