/// An exact, non-negative amount of money in hundredths (cents), parsed without floating point.
public struct Price: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The amount in hundredths: `12.50` is 1250.
    public var cents: Int64

    public init(cents: Int64) {
        precondition(cents >= 0, "a price is never negative")
        self.cents = cents
    }

    /// Parses `19`, `19.9`, `19.90`, ` 19.90 ` or `34.5000`; nil for anything else.
    public init?(_ text: String) {
        var text = text
        let result = text.withUTF8 { Price.parse($0) }
        guard case .price(let price)? = result else { return nil }
        self = price
    }

    /// The price as a decimal string with two fractional digits: `"12.50"`.
    public var description: String {
        let fraction = cents % 100
        return "\(cents / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
    }

    public static func < (a: Price, b: Price) -> Bool { a.cents < b.cents }

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

    /// The largest whole part accepted: 13 digits keeps cents exact in a JSON number too.
    static let maxWholeDigits = 13

    /// Why some bytes are not a price.
    public enum ParseFailure: Sendable, Equatable, CustomStringConvertible {
        case negative, tooManyDecimals, tooLarge, notANumber

        public var description: String {
            switch self {
            case .negative: "a price cannot be negative"
            case .tooManyDecimals: "a price has at most 2 decimals"
            case .tooLarge: "the price is too large"
            case .notANumber: "not a decimal number (write digits with an optional . and at most 2 decimals, no currency signs or thousands separators)"
            }
        }
    }

    /// The outcome of reading a price field.
    public enum ParseResult: Sendable, Equatable {
        case price(Price)
        case failure(ParseFailure)
    }

    /// Reads a price from raw field bytes; nil for an empty (or all-space) field.
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
                if fractionDigits < 2 {
                    fraction = fraction * 10 + digit
                } else if digit != 0 {
                    return .failure(.tooManyDecimals)
                }
                fractionDigits += 1
                i += 1
            }
        }
        guard i == end, hadWholeDigits || fractionDigits > 0 else { return .failure(.notANumber) }
        if fractionDigits == 1 { fraction *= 10 }
        return .price(Price(cents: whole * 100 + fraction))
    }
}
