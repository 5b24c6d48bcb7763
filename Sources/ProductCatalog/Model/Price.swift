/// An exact, non-negative amount of money in thousandths, parsed without floating point.
///
/// Thousandths hold every retail currency exactly: cents for USD and EUR, whole yen, and the
/// fils of the currencies with three minor digits (KWD, BHD, …), in one scale that sorts and
/// compares the same whatever the currency.
public struct Price: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The amount in thousandths: `12.50` is 12500, `12.345` is 12345.
    public var thousandths: Int64

    public init(thousandths: Int64) {
        precondition(thousandths >= 0, "a price is never negative")
        self.thousandths = thousandths
    }

    /// The price of `cents` hundredths: `Price(cents: 1250)` is `12.50`.
    public init(cents: Int64) {
        self.init(thousandths: cents * 10)
    }

    /// Parses `19`, `19.9`, `19.90`, ` 19.90 `, `12.345` or `34.5000`; nil for anything else.
    public init?(_ text: String) {
        var text = text
        let result = text.withUTF8 { Price.parse($0) }
        guard case .price(let price)? = result else { return nil }
        self = price
    }

    /// True when the price has a third decimal other than 0, which only some currencies have.
    public var hasThirdDecimal: Bool { thousandths % 10 != 0 }

    /// The price as a decimal string with two fractional digits, or three when the third is not 0:
    /// `"12.50"`, `"12.345"`.
    public var description: String { text(minorDigits: 2) }

    /// The price with at least `minorDigits` fractional digits (at most 3), as a shop in that
    /// currency writes it: `"12.500"` for a KWD price of `12.5`.
    public func text(minorDigits: Int) -> String {
        let (whole, fraction) = thousandths.quotientAndRemainder(dividingBy: 1000)
        let digits = fraction % 10 != 0 ? 3 : max(2, min(minorDigits, 3))
        let scaled = digits == 3 ? fraction : fraction / 10
        let text = String(scaled)
        return "\(whole)." + String(repeating: "0", count: digits - text.count) + text
    }

    /// The price as its currency writes it: three decimals for KWD, BHD and the others that have three.
    public func text(currency: String?) -> String {
        text(minorDigits: currency.map(Currency.minorDigits(of:)) ?? 2)
    }

    public static func < (a: Price, b: Price) -> Bool { a.thousandths < b.thousandths }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let price = Price(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a price: \(text)"))
        }
        self = price
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    // MARK: - Parsing bytes

    /// The largest whole part accepted: 13 digits keep thousandths far inside an Int64.
    public static let maxWholeDigits = 13
    /// Decimals a price may have: three, for the currencies whose minor unit is a thousandth.
    static let maxDecimals = 3

    /// Why some bytes are not a price.
    public enum ParseFailure: Sendable, Equatable, CustomStringConvertible {
        case negative, tooManyDecimals, tooLarge, notANumber

        public var description: String {
            switch self {
            case .negative: "a price cannot be negative"
            case .tooManyDecimals: "a price has at most 3 decimals"
            case .tooLarge: "the price is too large"
            case .notANumber: "not a decimal number (write digits with an optional . and its decimals, no currency signs or thousands separators)"
            }
        }
    }

    /// The outcome of reading a price field.
    public enum ParseResult: Sendable, Equatable {
        case price(Price)
        case failure(ParseFailure)
    }

    /// Reads a price from raw field bytes; nil for an empty (or all-space) field.
    ///
    /// A third decimal is read here; whether the price's currency has one is the caller's rule
    /// (``ProductRules/thirdDecimalProblem(_:currency:)``).
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> ParseResult? {
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        guard start < end else { return nil }
        if bytes[start] == UInt8(ascii: "-") { return .failure(.negative) }

        var whole: Int64 = 0
        var wholeDigits = 0
        var i = start
        while i < end, bytes[i] &- 0x30 < 10 {
            if wholeDigits > 0 || bytes[i] != 0x30 { wholeDigits += 1 }
            guard wholeDigits <= maxWholeDigits else { return .failure(.tooLarge) }
            whole = whole &* 10 &+ Int64(bytes[i] &- 0x30)
            i += 1
        }
        let hadWholeDigits = i > start
        var fraction: Int64 = 0
        var fractionDigits = 0
        if i < end, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < end, bytes[i] &- 0x30 < 10 {
                let digit = Int64(bytes[i] &- 0x30)
                if fractionDigits < maxDecimals {
                    fraction = fraction * 10 + digit
                } else if digit != 0 {
                    return .failure(.tooManyDecimals)
                }
                fractionDigits += 1
                i += 1
            }
        }
        guard i == end, hadWholeDigits || fractionDigits > 0 else { return .failure(.notANumber) }
        for _ in min(fractionDigits, maxDecimals)..<maxDecimals { fraction *= 10 }
        return .price(Price(thousandths: whole * 1000 + fraction))
    }
}
