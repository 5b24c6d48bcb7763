/// What one platform's export means, row by row: which column is the key, which rows are
/// variants of one product, what variant rows leave blank, how prices are split.
///
/// A layout turns the records of a file (as strings, padded to the header's width) into catalog
/// rows whose columns are ``outputHeader``: every ``ProductField`` by name, then the file's other
/// columns under their own names. A layout may hold back a product family until its last row
/// has been read (to fill variant rows down from the first, or to fold image-only rows into it);
/// ``finish(emit:)`` hands over what it still holds at the end of the file.
protocol FeedLayout {
    /// The catalog columns of the rows it emits: the fields' names, then extras.
    var outputHeader: [String] { get }
    /// Records that were folded into another row (a Shopify image-only row, a WooCommerce
    /// variable product whose variations are the rows), so that `rowsRead` still adds up.
    var foldedRecords: Int { get }
    /// Takes the record at `line`; calls `emit` with each row it completes.
    mutating func take(_ fields: [String], line: Int, emit: (FeedRow) throws -> Void) throws
    /// Emits the rows still held back.
    mutating func finish(emit: (FeedRow) throws -> Void) throws
}

/// One catalog row made by a layout, with the input line it stands for.
struct FeedRow {
    var line: Int
    var values: [ProductField: String] = [:]
    /// The extra columns' values, in the layout's extra order.
    var extras: [String]

    /// The row's fields in ``FeedLayout/outputHeader`` order.
    var fields: [String] {
        ProductField.allCases.map { values[$0] ?? "" } + extras
    }

    subscript(field: ProductField) -> String {
        get { values[field] ?? "" }
        set { values[field] = newValue }
    }

    /// Keeps a variant's options by name (``ProductOptions``), and those that name a color or a
    /// size (in the languages shops export in) as its color and size too.
    mutating func setOptions(_ named: [(name: String, value: String)]) {
        (self[.color], self[.size]) = FeedValues.colorAndSize(named)
        self[.options] = ProductOptions(named).text
    }
}

/// A file's header, looked up by the names a platform uses for a column.
struct FeedColumns {
    let header: [String]
    private let normalized: [String]
    /// Columns a layout reads for its fields; the others become extras.
    private(set) var used = Set<Int>()

    init(header: [String]) {
        self.header = header
        normalized = header.map(HeaderName.normalize)
    }

    /// The first column named one of `names` (compared as ``HeaderName/normalize(_:)`` does), marked as used.
    mutating func take(_ names: String...) -> Int? {
        for name in names {
            let key = HeaderName.normalize(name)
            if let index = normalized.firstIndex(of: key) {
                used.insert(index)
                return index
            }
        }
        return nil
    }

    /// The first column whose normalized name starts with `prefix` (Akeneo's `name-en_US`), marked as used.
    mutating func take(prefix: String) -> Int? {
        let key = HeaderName.normalize(prefix)
        guard let index = normalized.firstIndex(where: { $0.hasPrefix(key) }) else { return nil }
        used.insert(index)
        return index
    }

    /// The first column named one of `names`, left among the extras.
    func index(_ names: String...) -> Int? {
        names.lazy.compactMap { normalized.firstIndex(of: HeaderName.normalize($0)) }.first
    }

    /// Every column named one of `names`, in header order, left among the extras.
    func indices(_ names: [String]) -> [Int] {
        let keys = Set(names.map(HeaderName.normalize))
        return normalized.indices.filter { keys.contains(normalized[$0]) }
    }

    /// True when the header has a column named `name`.
    func has(_ name: String) -> Bool {
        normalized.contains(HeaderName.normalize(name))
    }

    /// The columns no field took, in file order: kept as extras under their own names.
    var extras: [Int] {
        header.indices.filter { !used.contains($0) }
    }

    /// The output header for a layout whose extras are `extras`.
    func outputHeader(extras: [Int]) -> [String] {
        ProductField.allCases.map(\.rawValue) + extras.map { header[$0] }
    }
}

extension Array where Element == String {
    /// The trimmed value of `column`, empty when the column is missing.
    subscript(column column: Int?) -> String {
        guard let column, column < count else { return "" }
        return ProductRules.trimmed(self[column])
    }
}
