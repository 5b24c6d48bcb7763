import ProductCatalog

/// What the page's form says next to a field with a problem: what to type instead.
extension FieldProblem {
    /// The message next to the field named `field` (a product field's name, or an extra column's).
    func formMessage(field: String) -> String {
        let isProductId = field == ProductField.productId.rawValue
        switch self {
        case .missing:
            return isProductId ? "Enter a productId." : field == ProductField.title.rawValue ? "Enter a title." : "Enter a value."
        case .nulCharacter:
            return "Remove the NUL character; text cannot contain one."
        case .tooLong(let bytes, let limit):
            if isProductId { return "A productId has at most \(limit) bytes (letters outside ASCII take 2 to 4); this one has \(bytes)." }
            return limit == 1 << 20 ? "The text is too long: at most 1 MiB." : "The text is too long: at most \(limit) bytes; this one has \(bytes)."
        case .controlCharacter:
            return "A productId cannot contain line breaks, tabs or other control characters."
        case .unreadablePrice(let failure):
            switch failure {
            case .negative: return "A price cannot be negative."
            case .tooManyDecimals: return "A price has at most 2 decimals, such as 19.99 (3 with a currency that has them, such as KWD)."
            case .tooLarge: return "The price is too large: at most \(Price.maxWholeDigits) digits before the point."
            case .notANumber: return "Write the price as a number such as 19.99: digits, an optional point and at most 2 decimals, without a currency sign or thousands separators."
            }
        case .saleAboveList(let sale, let list):
            return "The sale price (\(sale)) is above the list price (\(list)); lower it or raise the list price."
        case .thirdDecimal(let currency):
            return currency.map { "A \($0) price has at most 2 decimals, such as \(Price(cents: 1999).text(currency: $0))." }
                ?? "A price has at most 2 decimals, such as 19.99 (3 with a currency that has them, such as KWD)."
        case .notAPercentage:
            return "Enter the tax rate as a percentage from 0 to 100, such as 19 or 7.5."
        case .notAWebAddress:
            return "Enter an address starting with http:// or https:// (or a path such as /images/a.jpg), or leave it empty."
        case .notACurrencyCode:
            return "Enter a three-letter currency code such as USD, EUR or JPY, or leave it empty."
        case .notAWholeNumber:
            return "Enter the stock as a whole number, or leave it empty when it is unknown or unlimited."
        case .unknownColumn(let known):
            let list = known.isEmpty ? "it has no extra columns" : "its extra columns are " + known.joined(separator: ", ")
            return "The catalog has no column \"\(field)\" (\(list)); import a file with that column to add it."
        case .productIdInBatch:
            return "A batch cannot set the productId: each product keeps its own."
        }
    }
}

extension ProductValidationError {
    /// The form's message for each field with a problem.
    var formMessages: [String: String] {
        Dictionary(uniqueKeysWithValues: problems.map { ($0.key, $0.value.formMessage(field: $0.key)) })
    }
}
