/// The shape of a catalog database file, and how to recognise one.
///
/// ```sql
/// CREATE TABLE products (
///   productId TEXT NOT NULL COLLATE NOCASE PRIMARY KEY,
///   title TEXT, listPriceCents INTEGER, salesPriceCents INTEGER, color TEXT, size TEXT,
///   productType TEXT, taxRate TEXT, imageURL TEXT,
///   "<each extra header>" TEXT, ...
/// ) WITHOUT ROWID;
/// ```
///
/// `productId` is compared ASCII-case-insensitively (`NOCASE`), so `ab12` and `AB12` are one
/// product, the primary key's order is the search order, and a prefix is one index range. The
/// table is `WITHOUT ROWID`: the primary key *is* the table's B-tree, so a search page reads
/// 20 neighbouring rows and no second index exists to build or to look up.
public enum CatalogSchema {
    /// `PRAGMA application_id` of a catalog file ("PCAT"), so we never overwrite someone else's database.
    public static let applicationID: Int32 = 0x5043_4154
    /// `PRAGMA user_version` of the current layout.
    public static let version: Int32 = 1
    /// The table holding the products.
    public static let table = "products"

    /// The statements that create an empty catalog with these extra columns.
    static func createStatements(extraColumns: [String]) -> String {
        var columns = ["productId TEXT NOT NULL COLLATE NOCASE PRIMARY KEY"]
        for field in ProductField.allCases.dropFirst() {
            columns.append("\(field.columnName) \(field.isPrice ? "INTEGER" : "TEXT")")
        }
        columns += extraColumns.map { "\(quoteIdentifier($0)) TEXT" }
        return """
            PRAGMA application_id = \(applicationID);
            PRAGMA user_version = \(version);
            CREATE TABLE \(table) (
              \(columns.joined(separator: ",\n  "))
            ) WITHOUT ROWID;
            """
    }

    /// What an existing file at a path is.
    public enum FileKind: Sendable, Equatable {
        case missing, empty, catalog, otherDatabase, notADatabase
    }

    /// Looks at the file at `path` without changing it.
    public static func kind(ofFileAt path: String) throws -> FileKind {
        guard let size = try FileSystem.size(ofFileAt: path) else { return .missing }
        if size == 0 { return .empty }
        do {
            let connection = try Connection(path: path, mode: .readOnly)
            connection.setBusyTimeout(milliseconds: 5_000)
            let id = try connection.scalarInt("PRAGMA application_id")
            return id == Int64(applicationID) ? .catalog : .otherDatabase
        } catch let error as SQLiteError where error.isNotADatabase {
            return .notADatabase
        }
    }
}
