/// Deletes the products of the catalog that an upsert's file does not list, as the file's rows go
/// by in productId order (`NOCASE`, the order the sort delivers and the table keeps): those between
/// one row's productId and the next, those before the first and, at ``finish()``, those after the
/// last. Each is one range of the primary key, so a delta that lists every product costs a seek
/// per row and deletes nothing, and the triggers keep the word index and facet counts exact.
final class MissingProducts {
    private let connection: Connection
    private let before: Statement
    private let between: Statement
    private let after: Statement
    private let all: Statement
    /// The productId of the last row seen.
    private var previous: [UInt8]?
    /// Products deleted so far.
    private(set) var deleted = 0

    init(connection: Connection) throws {
        self.connection = connection
        let table = CatalogSchema.table
        before = try connection.prepare("DELETE FROM \(table) WHERE productId < ?1")
        between = try connection.prepare("DELETE FROM \(table) WHERE productId > ?1 AND productId < ?2")
        after = try connection.prepare("DELETE FROM \(table) WHERE productId > ?1")
        all = try connection.prepare("DELETE FROM \(table)")
    }

    /// Deletes the products that fall between the rows of `batch` and before its first row.
    func pass(_ batch: RowBatch) throws {
        for index in 0..<batch.count {
            let key = Array(batch.row(index).key)
            if let previous {
                try between.using {
                    try between.bind(1, utf8: previous)
                    try between.bind(2, utf8: key)
                    try between.step()
                }
            } else {
                try before.using {
                    try before.bind(1, utf8: key)
                    try before.step()
                }
            }
            deleted += connection.changes
            previous = key
        }
    }

    /// Deletes the products after the last row (every product, when the file listed none).
    func finish() throws {
        if let previous {
            try after.using {
                try after.bind(1, utf8: previous)
                try after.step()
            }
        } else {
            try all.using { try all.step() }
        }
        deleted += connection.changes
    }
}
