/// The most products an upsert that deletes what its file omits (``ImportOptions/deleteMissing``)
/// may delete before it stops with the catalog unchanged: a truncated or mis-read feed must not
/// empty the catalog it was meant to update.
public enum DeleteLimit: Sendable, Equatable, CustomStringConvertible {
    /// At most this many products.
    case products(Int)
    /// At most this share of the catalog, in percent of the products it held before.
    case percent(Int)

    /// The default: a tenth of the catalog.
    public static let `default` = DeleteLimit.percent(10)

    /// No limit at all: every product the file omits may go.
    public static let none = DeleteLimit.percent(100)

    /// `"250"` (products) or `"25%"` (of the catalog); nil for anything else.
    public init?(_ text: String) {
        let text = ProductRules.trimmed(text)
        if text.hasSuffix("%") {
            guard let share = Int(text.dropLast()), (0...100).contains(share) else { return nil }
            self = .percent(share)
        } else {
            guard let count = Int(text), count >= 0 else { return nil }
            self = .products(count)
        }
    }

    /// The most products this limit lets go from a catalog of `catalogProducts`.
    public func allowed(ofCatalog catalogProducts: Int) -> Int {
        switch self {
        case .products(let count): count
        case .percent(let share): share >= 100 ? catalogProducts : catalogProducts * share / 100
        }
    }

    /// `250 products` or `10% of the catalog`.
    public var description: String {
        switch self {
        case .products(let count): count == 1 ? "1 product" : "\(count) products"
        case .percent(let share): "\(share)% of the catalog"
        }
    }

    /// As an interface writes it back: `250` or `10%`.
    public var argument: String {
        switch self {
        case .products(let count): String(count)
        case .percent(let share): "\(share)%"
        }
    }
}

/// An upsert's order to delete the products its file does not list, sparing those its rejected
/// rows name: a row rejected for a bad price still names a product the file meant to keep.
public struct DeletionOfMissing: Sendable, Equatable {
    /// The productIds of the file's rejected rows, as read (surrounding spaces removed), in the
    /// catalog's order (ASCII case folded, then bytes) and without repeats.
    public let spared: [String]

    public init(spared: some Sequence<String>) {
        var seen = Set<[UInt8]>()
        var keys: [(key: [UInt8], id: String)] = []
        for id in spared {
            let key = id.utf8.map(ProductIdOrder.fold)
            if !id.isEmpty, seen.insert(key).inserted { keys.append((key, id)) }
        }
        self.spared = keys.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map(\.id)
    }
}
