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
    private mutating func normalize(_ number: Substring, text: String, currency: String?) -> Result<String, PriceProblem>? {
        let digitsAndSeparators = number.filter { $0 != " " && $0 != "\u{A0}" && $0 != "\u{202F}" && $0 != "'" }
        guard !digitsAndSeparators.isEmpty, digitsAndSeparators.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == ",") }) else {
            return .failure(.notANumber(text))
        }
        let lastPoint = digitsAndSeparators.lastIndex(of: ".")
        let lastComma = digitsAndSeparators.lastIndex(of: ",")
        switch (lastPoint, lastComma) {
        case (nil, nil):
            return .success(digitsAndSeparators)
        case (let point?, let comma?):
            // Both: the later one is the decimal separator, the other groups thousands.
            let decimalIsComma = comma > point
            settle(decimalIsComma ? .comma : .point)
            return .success(Self.rewrite(digitsAndSeparators, decimal: decimalIsComma ? "," : "."))
        case (let point?, nil):
            return single(digitsAndSeparators, separator: ".", at: point, meaning: .point)
        case (nil, let comma?):
            return single(digitsAndSeparators, separator: ",", at: comma, meaning: .comma)
        }
    }

    /// A number with one kind of separator: a decimal one, or thousands groups.
    private mutating func single(_ number: String, separator: Character, at last: String.Index, meaning: DecimalStyle) -> Result<String, PriceProblem>? {
        let occurrences = number.filter { $0 == separator }.count
        let after = number.distance(from: number.index(after: last), to: number.endIndex)
        let groupsThousands = occurrences > 1 || after == 3
        if occurrences > 1 {
            // `1.234.567` or `1,234,567`: thousands only.
            settle(meaning == .point ? .comma : .point)
            return .success(number.filter { $0 != separator })
        }
        if after == 3 && groupsThousands {
            switch style {
            // A point is a decimal point until the file shows otherwise; a comma needs that evidence.
            case .unknown: return meaning == .point ? .success(number) : nil
            case meaning: return .success(Self.rewrite(number, decimal: separator))
            default: return .success(number.filter { $0 != separator })
            }
        }
        settle(meaning)
        return .success(Self.rewrite(number, decimal: separator))
    }

    private mutating func settle(_ seen: DecimalStyle) {
        if style == .unknown { style = seen }
    }

    /// `number` with `decimal` as the decimal separator and every other separator dropped.
    private static func rewrite(_ number: String, decimal: Character) -> String {
        var result = ""
        for character in number {
            if character == decimal {
                result.append(".")
            } else if character != "." && character != "," {
                result.append(character)
            }
        }
        return result
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
    case notANumber(String), negative(String), tooManyDecimals(String), tooLarge(String), ambiguous(String)

    var description: String {
        switch self {
        case .notANumber(let text): "\"\(text.prefix(40))\" is not a price (write digits with an optional decimal point or comma, and optionally a currency code such as USD)"
        case .negative(let text): "\"\(text.prefix(40))\": a price cannot be negative"
        case .tooManyDecimals(let text): "\"\(text.prefix(40))\": a price has at most 3 decimals"
        case .tooLarge(let text): "\"\(text.prefix(40))\": the price is too large"
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
