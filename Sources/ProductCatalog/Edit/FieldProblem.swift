/// Why one field of a product added or edited by hand is refused: the rule it breaks, with the
/// numbers involved. The library states the fact; each interface says it in its own words (the
/// page's form says what to type), and ``description`` is the plain statement for logs.
public enum FieldProblem: Sendable, Hashable, CustomStringConvertible {
    /// A field that must have a value (the productId, the title) is empty.
    case missing
    /// Text with a NUL character.
    case nulCharacter
    /// Text of `bytes` bytes, over the `limit`.
    case tooLong(bytes: Int, limit: Int)
    /// A productId with a line break, a tab or another control character.
    case controlCharacter
    /// A price ``Price`` cannot read.
    case unreadablePrice(Price.ParseFailure)
    /// A sale price above the list price.
    case saleAboveList(sale: Price, list: Price)
    /// A price with a third decimal, where `currency` (nil when none is given) has two.
    case thirdDecimal(currency: String?)
    /// A tax rate that is not a percentage from 0 to 100.
    case notAPercentage
    /// An image address that is neither an `http`/`https` URL nor a path on the site.
    case notAWebAddress
    /// A currency that is not a three-letter code.
    case notACurrencyCode
    /// A stock quantity that is not a whole number.
    case notAWholeNumber
    /// An extra column the catalog lacks; `known` are the extra columns it has.
    case unknownColumn(known: [String])
    /// A productId in a batch's change: each product keeps its own.
    case productIdInBatch

    public var description: String {
        switch self {
        case .missing: "empty, and it is required"
        case .nulCharacter: "contains a NUL character"
        case .tooLong(let bytes, let limit): "\(bytes) bytes long, over the limit of \(limit)"
        case .controlCharacter: "contains a control character"
        case .unreadablePrice(let failure): failure.description
        case .saleAboveList(let sale, let list): "the sale price \(sale) is above the list price \(list)"
        case .thirdDecimal(let currency): "a third decimal, which \(currency ?? "a price without a currency") does not have"
        case .notAPercentage: "not a percentage from 0 to 100"
        case .notAWebAddress: "not an http or https address or a path on the site"
        case .notACurrencyCode: "not a three-letter currency code"
        case .notAWholeNumber: "not a whole number"
        case .unknownColumn(let known): "no such column in the catalog (" + (known.isEmpty ? "it has no extra columns" : "its extra columns: " + known.joined(separator: ", ")) + ")"
        case .productIdInBatch: "a batch cannot set the productId"
        }
    }
}
