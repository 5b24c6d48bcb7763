/// Reads prices as shops write them, one file at a time: `12.00 USD`, `USD 12.00`, `€4,99`,
/// `12000 JPY`, `1.234,50 €`, `1,234.50`.
///
/// The decimal separator is settled per file: the first price that shows it (`4,99` or `4.99`)
/// decides, and later prices are read the same way. A price that could be read either way
/// before that (`1,234`: one and a fraction, or a thousand and more?) is refused with a reason
/// rather than guessed. A plain decimal such as `12.50` never gets here: ``Price/parse(_:)``
/// reads it first, on the import's fast path.
struct PriceReader {
    /// How this file separates the fraction.
    enum DecimalStyle {
        case unknown, point, comma
    }

    /// A price read: its amount and, when the text named one, its currency.
    struct Reading: Equatable {
        var price: Price
        var currency: String?
    }

    private(set) var style: DecimalStyle = .unknown

    /// Reads `text`; nil for an empty field, or the reason it is not a price.
    mutating func read(_ text: String) -> Result<Reading, PriceProblem>? {
        var rest = Substring(text).trimmingSpaces
        guard !rest.isEmpty else { return nil }
        let currency = Self.takeCurrency(from: &rest)
        if currency != nil, rest.isEmpty { return .failure(.notANumber(text)) }
        if rest.hasPrefix("-") { return .failure(.negative(text)) }
        guard let normalized = normalize(rest, text: text, currency: currency) else {
            return .failure(style == .unknown ? .ambiguous(text) : .notANumber(text))
        }
        guard case .success(let plain) = normalized else {
            if case .failure(let problem) = normalized { return .failure(problem) }
            return nil
        }
        var bytes = plain
        let parsed = bytes.withUTF8 { Price.parse($0) }
        switch parsed {
        case .price(let price)?: return .success(Reading(price: price, currency: currency))
        case .failure(.tooManyDecimals)?: return .failure(.tooManyDecimals(text))
        case .failure(.tooLarge)?: return .failure(.tooLarge(text))
        default: return .failure(.notANumber(text))
        }
    }

    /// The number with `.` as its only separator, settling the file's style when the text shows it.
    ///
    /// The whole part's digit groups, when it has any (`1,234,567`, `1.234.567`, `1 234 567`,
    /// `1'234'567`, or India's `12,34,567`), must be placed as one of those systems places them:
    /// `12,34,56` could be another number, so it is refused rather than read as 123456.
    private mutating func normalize(_ number: Substring, text: String, currency: String?) -> Result<String, PriceProblem>? {
        guard !number.isEmpty, number.allSatisfy({ Self.isDigit($0) || $0 == "." || $0 == "," || Self.isSpaceSeparator($0) }),
              number.contains(where: Self.isDigit) else {
            return .failure(.notANumber(text))
        }
        let decimal: Substring.Index?
        switch (number.lastIndex(of: "."), number.lastIndex(of: ",")) {
        case (nil, nil):
            decimal = nil
        case (let point?, let comma?):
            // Both: the later one is the decimal separator, the other groups thousands.
            settle(comma > point ? .comma : .point)
            decimal = max(point, comma)
        case (let point?, nil):
            guard let chosen = single(number, separator: ".", at: point, meaning: .point) else { return nil }
            decimal = chosen
        case (nil, let comma?):
            guard let chosen = single(number, separator: ",", at: comma, meaning: .comma) else { return nil }
            decimal = chosen
        }
        let whole = decimal.map { number[..<$0] } ?? number
        let fraction = decimal.map { number[number.index(after: $0)...] } ?? ""
        guard fraction.allSatisfy(Self.isDigit) else { return .failure(.notANumber(text)) }
        guard let digits = Self.groupedDigits(whole) else { return .failure(.misplacedGroups(text)) }
        return .success(decimal == nil ? digits : digits + "." + fraction)
    }

    /// Where the decimal separator is in a number with one kind of mark, `separator` (last at
    /// `last`): nil when every one groups thousands, `.some(last)` when it is the decimal one;
    /// `nil` as the result (no `.some`) when the file has not settled which, for a number that
    /// could be read either way.
    private mutating func single(_ number: Substring, separator: Character, at last: Substring.Index, meaning: DecimalStyle) -> Substring.Index?? {
        let occurrences = number.filter { $0 == separator }.count
        let after = number[number.index(after: last)...].filter(Self.isDigit).count
        if occurrences > 1 {
            // `1.234.567` or `1,234,567`: thousands only.
            settle(meaning == .point ? .comma : .point)
            return .some(nil)
        }
        if after == 3 {
            switch style {
            // A point is a decimal point until the file shows otherwise; a comma needs that evidence.
            case .unknown: return meaning == .point ? .some(last) : nil
            case meaning: return .some(last)
            default: return .some(nil)
            }
        }
        settle(meaning)
        return .some(last)
    }

    /// The digits of a number's whole part, or nil when its groups are misplaced: no groups at
    /// all, or groups of three after a first of one to three digits (`1,234,567`), or India's
    /// groups of two before a last of three (`12,34,567`); one kind of separator throughout.
    static func groupedDigits(_ whole: Substring) -> String? {
        let separators = Set(whole.filter { !isDigit($0) }.map { isSpaceSeparator($0) && $0 != "'" ? " " : $0 })
        guard !separators.isEmpty else { return String(whole) }
        guard separators.count == 1 else { return nil }
        let groups = whole.split(omittingEmptySubsequences: false) { !isDigit($0) }.map(\.count)
        guard groups.count > 1, let first = groups.first, let lastGroup = groups.last, (1...3).contains(first), lastGroup == 3 else { return nil }
        let middle = groups.dropFirst().dropLast()
        let western = middle.allSatisfy { $0 == 3 }
        let indian = first <= 2 && middle.allSatisfy { $0 == 2 }
        guard western || indian else { return nil }
        return String(whole.filter(isDigit))
    }

    private static func isDigit(_ character: Character) -> Bool {
        character.isASCII && character.isNumber
    }

    /// The separators that only ever group digits: spaces (plain, no-break, narrow) and the Swiss apostrophe.
    private static func isSpaceSeparator(_ character: Character) -> Bool {
        character == " " || character == "\u{A0}" || character == "\u{202F}" || character == "'"
    }

    private mutating func settle(_ seen: DecimalStyle) {
        if style == .unknown { style = seen }
    }

    /// Removes a leading or trailing ISO code or currency symbol from `text` and returns its code.
    static func takeCurrency(from text: inout Substring) -> String? {
        if text.count >= 3 {
            let head = String(text.prefix(3)).uppercased()
            if Currency.isCode(head), text.dropFirst(3).first.map({ !$0.isLetter }) ?? true {
                text = text.dropFirst(3).trimmingSpaces
                return head
            }
            let tail = String(text.suffix(3)).uppercased()
            if Currency.isCode(tail), text.dropLast(3).last.map({ !$0.isLetter }) ?? true {
                text = text.dropLast(3).trimmingSpaces
                return tail
            }
        }
        for symbol in Currency.symbolsByLength {
            if text.hasPrefix(symbol) {
                text = text.dropFirst(symbol.count).trimmingSpaces
                return Currency.code(forSymbol: symbol)
            }
            if text.hasSuffix(symbol) {
                text = text.dropLast(symbol.count).trimmingSpaces
                return Currency.code(forSymbol: symbol)
            }
        }
        return nil
    }
}

/// Why a price field cannot be read.
enum PriceProblem: Error, Equatable, CustomStringConvertible {
    case notANumber(String), negative(String), tooManyDecimals(String), tooLarge(String), ambiguous(String), misplacedGroups(String)

    var description: String {
        switch self {
        case .notANumber(let text): "\"\(text.prefix(40))\" is not a price (write digits with an optional decimal point or comma, and optionally a currency code such as USD)"
        case .negative(let text): "\"\(text.prefix(40))\": a price cannot be negative"
        case .tooManyDecimals(let text): "\"\(text.prefix(40))\": a price has at most 3 decimals"
        case .tooLarge(let text): "\"\(text.prefix(40))\": the price is too large"
        case .misplacedGroups(let text): "\"\(text.prefix(40))\": its digits are not grouped in thousands (1,234,567) or as in India (12,34,567), so it could be another number; write it without separators (1234567)"
        case .ambiguous(let text): "\"\(text.prefix(40))\" could mean a decimal comma or a thousands separator, and no earlier price in the file settles which; write it as 1234 or 1.234 (or 1,23)"
        }
    }
}

extension Substring {
    /// Without the spaces, tabs and no-break spaces around it.
    var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" || first == "\u{A0}" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\u{A0}" { text.removeLast() }
        return text
    }
}
