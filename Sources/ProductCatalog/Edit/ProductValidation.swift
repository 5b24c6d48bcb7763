import Foundation

/// The rules a product added or edited by hand must follow, with the problem of each field that breaks one (``FieldProblem``).
///
/// Text is trimmed of surrounding spaces and tabs; an empty optional field is stored as NULL.
/// The productId and price rules are ``ProductRules``, the same an import applies.
/// - `productId`: required, at most ``ProductRules/maxProductIdBytes`` bytes, no control characters.
/// - `title`: required.
/// - `listPrice`, `salesPrice`: exact decimals ≥ 0 with at most 2 decimals (3 when `currency`
///   has three minor digits, as KWD), as ``Price`` reads them; the sale price not above the list price.
/// - `taxRate`: a percentage from 0 to 100.
/// - `imageURL`: an `http://` or `https://` address, a path on the serving site (`/images/a.jpg`,
///   as `catalog serve` gives uploaded images), or empty.
public enum ProductValidation {
    /// The longest text accepted in one field, the same limit an import applies by default.
    public static let maxFieldBytes = ProductRules.maxFieldBytes

    /// Checks `draft` and returns the product to store.
    public static func product(from draft: ProductDraft) throws(ProductValidationError) -> Product {
        var errors: [String: FieldProblem] = [:]
        func text(_ field: ProductField) -> String? {
            let value = trimmed(draft[field])
            if let problem = problem(inText: value) {
                errors[field.rawValue] = problem
                return nil
            }
            return value.isEmpty ? nil : value
        }

        let productId = text(.productId)
        if errors[ProductField.productId.rawValue] == nil {
            switch ProductRules.problem(inProductId: productId ?? "") {
            case nil: break
            case .empty?:
                errors[ProductField.productId.rawValue] = .missing
            case .controlCharacter?:
                errors[ProductField.productId.rawValue] = .controlCharacter
            case .tooLong(let bytes)?:
                errors[ProductField.productId.rawValue] = .tooLong(bytes: bytes, limit: ProductRules.maxProductIdBytes)
            }
        }

        let title = text(.title)
        if title == nil, errors[ProductField.title.rawValue] == nil {
            errors[ProductField.title.rawValue] = .missing
        }

        func price(_ field: ProductField) -> Price? {
            var value = trimmed(draft[field])
            let result = value.withUTF8 { Price.parse($0) }
            switch result {
            case nil: return nil
            case .price(let price)?: return price
            case .failure(let failure)?:
                errors[field.rawValue] = .unreadablePrice(failure)
                return nil
            }
        }
        let listPrice = price(.listPrice)
        let salesPrice = price(.salesPrice)
        if let listPrice, let salesPrice, !ProductRules.salePriceFits(sale: salesPrice, list: listPrice) {
            errors[ProductField.salesPrice.rawValue] = .saleAboveList(sale: salesPrice, list: listPrice)
        }

        let taxRate = text(.taxRate)
        if let taxRate, !isPercentage(taxRate) {
            errors[ProductField.taxRate.rawValue] = .notAPercentage
        }

        let imageURL = text(.imageURL)
        if let imageURL, !isWebAddress(imageURL) {
            errors[ProductField.imageURL.rawValue] = .notAWebAddress
        }

        // Every other field is text as given: trimmed, checked as text, empty for none.
        let plain = ProductField.allCases.filter { !ruled.contains($0) }.map { ($0, text($0)) }
        let options = text(.options).map { ProductOptions(text: $0).text }.flatMap { $0.isEmpty ? nil : $0 }
        let currency = text(.currency).map { $0.uppercased() }
        if let currency, !Currency.isCode(currency) {
            errors[ProductField.currency.rawValue] = .notACurrencyCode
        }
        if errors[ProductField.currency.rawValue] == nil {
            for (field, price) in [(ProductField.listPrice, listPrice), (.salesPrice, salesPrice)] {
                guard let price, errors[field.rawValue] == nil, ProductRules.thirdDecimalProblem(price, currency: currency) != nil else { continue }
                errors[field.rawValue] = .thirdDecimal(currency: currency)
            }
        }
        var quantity: Int64?
        if let text = text(.quantity) {
            quantity = Int64(text)
            if quantity == nil { errors[ProductField.quantity.rawValue] = .notAWholeNumber }
        }

        var extras: [Product.Extra] = []
        for (name, value) in draft.extras.sorted(by: { $0.key < $1.key }) {
            let value = trimmed(value)
            if let problem = problem(inText: value) {
                errors[name] = problem
            } else {
                extras.append(Product.Extra(name: name, value: value.isEmpty ? nil : value))
            }
        }

        guard errors.isEmpty, let productId else { throw ProductValidationError(problems: errors) }
        var product = Product(
            productId: productId, title: title, listPrice: listPrice, salesPrice: salesPrice, taxRate: taxRate, imageURL: imageURL,
            currency: currency, quantity: quantity, options: options, extras: extras)
        for (field, value) in plain { product[field] = value.map(FieldValue.text) }
        return product
    }

    /// The fields with rules of their own above; the others are any text.
    private static let ruled: Set<ProductField> = [.productId, .title, .listPrice, .salesPrice, .taxRate, .imageURL, .currency, .quantity, .options]

    private static func trimmed(_ text: String) -> String {
        ProductRules.trimmed(text)
    }

    private static func problem(inText text: String) -> FieldProblem? {
        if text.utf8.contains(0) { return .nulCharacter }
        if text.utf8.count > maxFieldBytes { return .tooLong(bytes: text.utf8.count, limit: maxFieldBytes) }
        return nil
    }

    /// `0` to `100`, digits with an optional fraction: `19`, `7.5`, `100.00`.
    private static func isPercentage(_ text: String) -> Bool {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let digits = Set("0123456789")
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(digits.contains) else { return false }
        if parts.count == 2 {
            guard !parts[1].isEmpty, parts[1].allSatisfy(digits.contains) else { return false }
        }
        guard let value = Double(text) else { return false }
        return value >= 0 && value <= 100
    }

    /// An absolute `http` or `https` URL with a host, or a path from the site's root (`/a`, not `//a`); no spaces.
    private static func isWebAddress(_ text: String) -> Bool {
        if text.hasPrefix("/") {
            return !text.hasPrefix("//") && !text.contains(where: { $0.isWhitespace || $0 == "\\" }) && URL(string: text) != nil
        }
        guard !text.contains(where: \.isWhitespace), let url = URL(string: text),
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = url.host, !host.isEmpty
        else { return false }
        return true
    }
}
