/// The rules for a product's key and prices, the same for an imported row and for an edit.
///
/// Whatever an import stores, an edit can save back unchanged, and the other way round:
/// - every field is trimmed of surrounding spaces and tabs;
/// - a `productId` is not empty, holds no control characters (line breaks, tabs, escape
///   sequences that a terminal would run) and is at most ``maxProductIdBytes`` bytes of UTF-8;
/// - prices are read by ``Price``, a third decimal only with a currency that has one (KWD),
///   and a sale price is not above the list price.
public enum ProductRules {
    /// The longest productId, in bytes of UTF-8 (255 ASCII characters).
    public static let maxProductIdBytes = 255
    /// The longest field, in bytes: an import's default `maxFieldBytes`, and an edit's limit.
    public static let maxFieldBytes = 1 << 20

    /// What is wrong with a productId.
    public enum ProductIdProblem: Sendable, Equatable {
        case empty, controlCharacter, tooLong(bytes: Int)

        /// The reason, as a rejects file states it.
        public var reason: String {
            switch self {
            case .empty: "productId is empty"
            case .controlCharacter: "productId contains a control character (a line break, tab or escape)"
            case .tooLong(let bytes): "productId is \(bytes) bytes long; at most \(ProductRules.maxProductIdBytes) are allowed"
            }
        }
    }

    /// What is wrong with a productId that is already trimmed; nil when it is fine.
    public static func problem(inProductId bytes: UnsafeBufferPointer<UInt8>) -> ProductIdProblem? {
        if bytes.isEmpty { return .empty }
        if bytes.count > maxProductIdBytes { return .tooLong(bytes: bytes.count) }
        for byte in bytes where byte < 0x20 || byte == 0x7F { return .controlCharacter }
        return nil
    }

    /// What is wrong with a productId (trimmed first); nil when it is fine.
    public static func problem(inProductId text: String) -> ProductIdProblem? {
        var text = trimmed(text)
        return text.withUTF8 { problem(inProductId: $0) }
    }

    /// True when a sale price and a list price may stand together: the sale is not above the list.
    public static func salePriceFits(sale: Price?, list: Price?) -> Bool {
        guard let sale, let list else { return true }
        return sale <= list
    }

    /// Why `price` cannot be stored with `currency` (a code, or nil when the row names none), as
    /// words that follow the price ("has 3 decimals, …"); nil when it can. A third decimal other than 0 belongs only to the currencies whose minor
    /// unit is a thousandth; anywhere else it is a typo or a unit price, not a price to charge.
    public static func thirdDecimalProblem(_ price: Price, currency: String?) -> String? {
        guard price.hasThirdDecimal else { return nil }
        let code = currency.map { trimmed($0).uppercased() }
        if let code, Currency.minorDigits(of: code) == 3 { return nil }
        let named = code.map { $0.isEmpty ? "" : " (\($0) has \(Currency.minorDigits(of: $0)))" } ?? ""
        return "has 3 decimals, which only \(Currency.threeMinorDigitCodes) prices have\(named); round it to 2 decimals or give its currency"
    }

    /// `bytes` without the spaces and tabs around them.
    @inline(__always)
    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        if start == 0 && end == bytes.count { return bytes }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }

    /// `text` without the spaces and tabs around it.
    public static func trimmed(_ text: String) -> String {
        var scalars = Substring(text)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
