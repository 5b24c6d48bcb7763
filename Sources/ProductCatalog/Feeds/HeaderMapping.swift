/// Which header column feeds which ``ProductField``, and which columns are kept as extras.
public struct HeaderMapping: Sendable, Equatable {
    /// Columns a catalog table can have (SQLite's `SQLITE_MAX_COLUMN`); the known fields take the first ones.
    static let maxColumns = 2000
    /// The header as read, one name per column.
    public let header: [String]
    /// The column index feeding each field the file has.
    public let fieldColumns: [ProductField: Int]
    /// Columns no field claimed, kept as extra TEXT columns, in file order.
    public let extras: [ExtraColumn]

    /// A header column kept under its own name.
    public struct ExtraColumn: Sendable, Equatable {
        /// The column's index in the file.
        public var index: Int
        /// The catalog column name: the header, made unique and non-empty.
        public var name: String
    }

    /// Maps a header whose first columns are the fields by their own names (a feed layout's
    /// output), and whose other columns are extras, whatever they are called.
    init(fieldsThenExtras header: [String]) throws(HeaderMappingError) {
        try self.init(header: header, overrides: [:], aliases: false)
    }

    /// Maps `header` to fields by name and alias; `overrides` name the header for a field by hand.
    ///
    /// When several columns could be one field, the one named as the field (`productId`) is it;
    /// without one, ``HeaderMappingError/ambiguous(field:headers:)`` asks which.
    public init(header: [String], overrides: [ProductField: String] = [:]) throws(HeaderMappingError) {
        try self.init(header: header, overrides: overrides, aliases: true)
    }

    private init(header: [String], overrides: [ProductField: String], aliases: Bool) throws(HeaderMappingError) {
        self.header = header
        let maxExtras = HeaderMapping.maxColumns - ProductField.allCases.count
        guard header.count <= maxExtras else { throw .tooManyColumns(count: header.count, limit: maxExtras) }
        if let index = header.firstIndex(where: { $0.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t") || $0.value == 0x7F } }) {
            throw .controlCharacter(column: index + 1)
        }
        var columns: [ProductField: Int] = [:]
        var claimed = Set<Int>()

        for (field, name) in overrides.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let index = header.firstIndex(of: name)
                ?? header.firstIndex(where: { HeaderName.normalize($0) == HeaderName.normalize(name) })
            guard let index else { throw .overrideNotFound(field: field, header: name, found: header) }
            guard !claimed.contains(index) else { throw .overrideTwice(header: name) }
            columns[field] = index
            claimed.insert(index)
        }

        for field in ProductField.allCases where !aliases {
            if let index = header.firstIndex(of: field.rawValue) {
                columns[field] = index
                claimed.insert(index)
            }
        }
        for field in ProductField.allCases where aliases && columns[field] == nil {
            var matches = header.indices.filter {
                !claimed.contains($0) && field.aliases.contains(HeaderName.normalize(header[$0]))
            }
            // A column named as the field itself wins over its aliases, which stay as extras: an
            // export of a catalog with an extra `id` or `sku` column has `productId` too.
            let own = matches.filter { HeaderName.normalize(header[$0]) == HeaderName.normalize(field.rawValue) }
            if own.count == 1 { matches = own }
            if matches.count > 1 {
                throw .ambiguous(field: field, headers: matches.map { header[$0] })
            }
            if let index = matches.first {
                columns[field] = index
                claimed.insert(index)
            }
        }
        guard columns[.productId] != nil else { throw .missingProductId(found: header) }
        fieldColumns = columns

        var taken = Set(ProductField.allCases.map { $0.columnName.lowercased() })
        var extras: [ExtraColumn] = []
        for index in header.indices where !claimed.contains(index) {
            let trimmed = ProductRules.trimmed(header[index])
            let base = trimmed.isEmpty ? "column\(index + 1)" : trimmed
            var name = base
            var suffix = 2
            while taken.contains(name.lowercased()) {
                name = "\(base)_\(suffix)"
                suffix += 1
            }
            taken.insert(name.lowercased())
            extras.append(ExtraColumn(index: index, name: name))
        }
        self.extras = extras
    }
}

/// Why a header cannot be mapped to the catalog's fields.
public enum HeaderMappingError: Error, Sendable, Equatable, CustomStringConvertible {
    case missingProductId(found: [String])
    case ambiguous(field: ProductField, headers: [String])
    case overrideNotFound(field: ProductField, header: String, found: [String])
    case overrideTwice(header: String)
    case tooManyColumns(count: Int, limit: Int)
    case controlCharacter(column: Int)

    /// What is wrong with the header, without saying how to fix it: each interface adds that.
    public var description: String {
        switch self {
        case .missingProductId(let found):
            return "the header has no productId column. Columns found: \(Self.list(found)). "
                + "Accepted names: \(ProductField.productId.aliases.joined(separator: ", ")) (any case, ignoring spaces, _ and -)"
        case .ambiguous(let field, let headers):
            return "columns \(Self.list(headers)) all match \(field.rawValue)"
        case .overrideNotFound(let field, let header, let found):
            return "no column is named \"\(header)\" (given for \(field.rawValue)). Columns found: \(Self.list(found))"
        case .overrideTwice(let header):
            return "column \"\(header)\" is given for more than one field"
        case .tooManyColumns(let count, let limit):
            return "the header has \(count) columns; a catalog holds at most \(limit)"
        case .controlCharacter(let column):
            return "header column \(column) holds a NUL byte, a line break or another control character; header names must be plain text."
        }
    }

    /// The first few names, quoted, and how many more there are: a message stays one readable line.
    private static func list(_ names: [String]) -> String {
        let shown = names.prefix(20).map { "\"\($0.count > 60 ? $0.prefix(60) + "…" : Substring($0))\"" }
        return shown.joined(separator: ", ") + (names.count > 20 ? " and \(names.count - 20) more" : "")
    }
}
