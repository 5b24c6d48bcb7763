/// The local inventory files a stock import reads, recognised from their header.
public enum StockFormat: String, Sendable, CaseIterable {
    /// Google Merchant Center's local inventory feed: `store_code`, `id`, `quantity` (and
    /// `price`, `sale_price`, `availability`, which a stock import leaves alone).
    case googleLocalInventory = "google-local-inventory"
    /// Shopify's inventory export: a row per variant and location (`Handle`, `Option1 Value`…,
    /// `SKU`, `Location`, `Available`, `On hand`…). The variant is found by the key a Shopify
    /// product import gives it (``ShopifyLayout/variantKey(handle:optionValues:)``).
    case shopifyInventory = "shopify-inventory"
    /// `productId,store,quantity`, under these names or common others (`sku`, `location`, `qty`…).
    case generic

    /// The name messages and `--json` use.
    public var displayName: String {
        switch self {
        case .googleLocalInventory: "Google local inventory"
        case .shopifyInventory: "Shopify inventory export"
        case .generic: "productId,store,quantity"
        }
    }
}

/// Where a stock file's product, store and quantity are, and how a record becomes a stock row.
struct StockLayout {
    let format: StockFormat
    private let productId, store, quantity: Int
    /// Shopify: the option values that, after the handle, make a variant's productId.
    private let optionValues: [Int]

    /// The columns of `header`; throws ``StockLayoutError`` naming what is missing.
    init(header: [String]) throws(StockLayoutError) {
        let columns = FeedColumns(header: header)
        if let handle = columns.index("Handle"), let location = columns.index("Location"),
           let available = columns.index("Available (not editable)", "Available") {
            format = .shopifyInventory
            (productId, store, quantity) = (handle, location, available)
            optionValues = (1...3).compactMap { columns.index("Option\($0) Value") }
            return
        }
        if let code = columns.index("store_code", "store code"), let id = columns.index("id", "itemid", "item id") {
            guard let quantity = columns.index("quantity") else { throw .missing(["quantity"], format: .googleLocalInventory) }
            format = .googleLocalInventory
            (productId, store, self.quantity) = (id, code, quantity)
            optionValues = []
            return
        }
        format = .generic
        let product = try Self.column(for: "productId", in: columns, names: "productId", "product id", "id", "sku")
        let store = try Self.column(for: "store", in: columns, names: "store", "store_code", "location", "store id")
        let quantity = try Self.column(for: "quantity", in: columns, names: "quantity", "qty", "stock", "available", "on hand")
        guard let product, let store, let quantity else {
            throw .missing([product == nil ? "productId" : nil, store == nil ? "store" : nil, quantity == nil ? "quantity" : nil].compactMap { $0 },
                           format: .generic)
        }
        (self.productId, self.store, self.quantity) = (product, store, quantity)
        optionValues = []
    }

    /// The column for `field` among `names` (the first its own): the one named as the field when
    /// the header has it, else the one column named by another of them; throws when two are.
    /// The rule of a product import's header (``HeaderMapping``).
    private static func column(for field: String, in columns: FeedColumns, names: String...) throws(StockLayoutError) -> Int? {
        let matches = columns.indices(names)
        if let own = matches.first(where: { HeaderName.normalize(columns.header[$0]) == HeaderName.normalize(field) }) { return own }
        guard matches.count <= 1 else { throw .ambiguous(field: field, headers: matches.map { columns.header[$0] }) }
        return matches.first
    }

    /// The stock row a record makes, or why it makes none.
    func row(_ fields: [String]) -> Result<StockRow, StockRowRejection> {
        var id = fields[column: productId]
        if format == .shopifyInventory {
            id = ShopifyLayout.variantKey(handle: id, optionValues: optionValues.map { fields[column: $0] })
        }
        guard !id.isEmpty else { return .failure(.noProductId) }
        if let problem = ProductRules.problem(inProductId: id) { return .failure(.badProductId(problem)) }
        let store = fields[column: store]
        guard !store.isEmpty else { return .failure(.noStore) }
        guard !store.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return .failure(.storeControlCharacter) }
        let text = fields[column: quantity]
        guard let quantity = Self.quantity(text) else { return .failure(.badQuantity(text)) }
        return .success(StockRow(productId: id, store: store, quantity: quantity))
    }

    /// A whole number of items: `12`, `12.0` (spreadsheets), `-3` (Shopify's oversold) counts as 0.
    static func quantity(_ text: String) -> Int64? {
        if let whole = Int64(text) { return max(0, whole) }
        if let number = Double(text), number.isFinite, number == number.rounded(), abs(number) < 1e15 { return max(0, Int64(number)) }
        return nil
    }
}

/// One product's quantity at one store, as a stock file gives it.
struct StockRow: Equatable {
    var productId: String
    var store: String
    var quantity: Int64
}

/// Why a stock file's record was not kept; the rejects file says it in these words.
enum StockRowRejection: Error, Equatable {
    case noProductId
    case noStore
    case badQuantity(String)
    case unknownProduct(String)
    case malformed(String)
    case badProductId(ProductRules.ProductIdProblem)
    case storeControlCharacter
    /// Column `column` (from 1) is not valid UTF-8 or holds a NUL byte.
    case notText(column: Int, TextValidation.Problem)

    var reason: String {
        switch self {
        case .noProductId: "the row names no product"
        case .badProductId(let problem): problem.reason
        case .storeControlCharacter: "the store's name contains a control character (a line break, tab or escape)"
        case .notText(let column, .nulByte): "column \(column) contains a NUL byte"
        case .notText(let column, .invalidUTF8): "column \(column) is not valid UTF-8 (the file may be Latin-1 or Windows-1252: import it with that encoding)"
        case .noStore: "the row names no store"
        case .badQuantity(let text): text.isEmpty ? "the quantity is empty" : "the quantity \"\(text)\" is not a whole number"
        case .unknownProduct(let id): "the catalog has no product \"\(id)\""
        case .malformed(let why): why
        }
    }
}

/// A stock file's header that lacks a column a stock import needs.
public enum StockLayoutError: Error, Equatable, Sendable {
    case missing([String], format: StockFormat)
    /// Two or more columns could each be `field` (a file with both `id` and `sku`), and none is named so.
    case ambiguous(field: String, headers: [String])
}

extension StockLayoutError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .missing(let names, let format):
            let where_ = switch format {
            case .googleLocalInventory: "a Google local inventory feed has store_code, id and quantity"
            case .shopifyInventory: "a Shopify inventory export has Handle, Location and Available"
            case .generic: "a stock file has a column for each of productId (or id, sku), store (or store_code, location) and quantity (or qty, available)"
            }
            return "the header has no column for \(names.joined(separator: ", ")): \(where_)"
        case .ambiguous(let field, let headers):
            return "columns \(headers.map { "\"\($0)\"" }.joined(separator: ", ")) all match \(field), and none is named \(field)"
        }
    }
}
