/// Deletes the products of the catalog that an upsert's file does not list, as the file's rows go
/// by in productId order (`NOCASE`, the order the sort delivers and the table keeps): those between
/// one row's productId and the next, those before the first and, at ``finish()``, those after the
/// last. Each is one range of the primary key, so a delta that lists every product costs a seek
/// per row and deletes nothing, and the triggers keep the word index and facet counts exact.
///
/// The productIds of the file's rejected rows are spared: they bound the ranges as the rows do,
/// so a product whose row was rejected (a bad price, bytes of another encoding) stays as it was.
final class MissingProducts {
    private let connection: Connection
    private let before: Statement
    private let between: Statement
    private let after: Statement
    private let all: Statement
    /// The productIds to spare, in the catalog's order, and the next one to pass.
    private let spared: [[UInt8]]
    private var nextSpared = 0
    /// The productId of the last row or spared product passed.
    private var previous: [UInt8]?
    /// Products deleted so far.
    private(set) var deleted = 0

    /// `spared` in the catalog's order (``DeletionOfMissing/spared``).
    init(connection: Connection, sparing spared: [String] = []) throws {
        self.connection = connection
        self.spared = spared.map { Array($0.utf8) }
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
            while nextSpared < spared.count, Self.precedes(spared[nextSpared], key) {
                try keep(spared[nextSpared])
                nextSpared += 1
            }
            try keep(key)
        }
    }

    /// Deletes the products after the last row (every product but the spared, when the file listed none).
    func finish() throws {
        while nextSpared < spared.count {
            try keep(spared[nextSpared])
            nextSpared += 1
        }
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

    /// Deletes the products between the last key kept and `key`, and keeps `key`.
    private func keep(_ key: [UInt8]) throws {
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

    /// True when `a` comes before `b` in `NOCASE` order.
    private static func precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.lazy.map(ProductIdOrder.fold).lexicographicallyPrecedes(b.lazy.map(ProductIdOrder.fold))
    }
}
