/// Writes a catalog's sort lists (``SortLists``) from its products, given in productId order.
///
/// The lists of products without a value are in productId order already and go straight into
/// blocks; the price and title keys go through ``SortedKeys``, which spills sorted runs past
/// `budget` bytes each, and are merged into blocks at the end. Memory stays bounded whatever the
/// catalog's size; no row is written per product.
struct SortListsWriter {
    private let capacity: Int
    private let insert: Statement
    private let prices: SortedKeys
    private let titles: SortedKeys
    private var priceMissing: SortLists.BlockWriter
    private var titleMissing: SortLists.BlockWriter
    /// The key being made, one buffer for every product's.
    private var key: [UInt8] = []
    /// The last product's place: products come in place order, from 1.
    private var place: Int64 = 0

    /// Writes into the empty `sort_lists` on `connection` (inside its transaction), in blocks of
    /// at most `capacity` bytes, spilling keys to unlinked files named from `spillPath`.
    init(connection: Connection, capacity: Int, spillPath: String, budget: Int) throws {
        self.capacity = capacity
        let insert = try connection.prepare("INSERT INTO \(SortLists.table) (block, data) VALUES (?1, ?2)")
        self.insert = insert
        prices = SortedKeys(pathPrefix: spillPath + ".price", budget: budget)
        titles = SortedKeys(pathPrefix: spillPath + ".title", budget: budget)
        priceMissing = SortLists.BlockWriter(list: .priceMissing, capacity: capacity, emit: Self.inserting(insert))
        titleMissing = SortLists.BlockWriter(list: .titleMissing, capacity: capacity, emit: Self.inserting(insert))
    }

    private static func inserting(_ insert: Statement) -> (Int64, [UInt8]) throws -> Void {
        { block, data in
            try insert.using {
                try insert.bind(1, block)
                try insert.bind(2, blob: data)
                _ = try insert.step()
            }
        }
    }

    /// Adds the next product (after every one before in productId order): its price (sale, else
    /// list) and its title, nil when it has none. Its place is the count of products added.
    mutating func add(productId: UnsafeRawBufferPointer, price: Int64?, title: UnsafeRawBufferPointer?) throws {
        place += 1
        key.removeAll(keepingCapacity: true)
        if let price {
            SortLists.appendPriceKey(price, productId: productId, to: &key)
            SortLists.appendPlace(place, to: &key)
            try prices.add(key)
        } else {
            SortLists.appendMissingKey(productId: productId, to: &key)
            SortLists.appendPlace(place, to: &key)
            try priceMissing.add(key)
        }
        key.removeAll(keepingCapacity: true)
        if let title, title.count > 0 {
            SortLists.appendTitleKey(title, productId: productId, to: &key)
            SortLists.appendPlace(place, to: &key)
            try titles.add(key)
        } else {
            SortLists.appendMissingKey(productId: productId, to: &key)
            SortLists.appendPlace(place, to: &key)
            try titleMissing.add(key)
        }
    }

    /// Writes the sorted lists and the last blocks.
    mutating func finish() throws {
        try priceMissing.finish()
        try titleMissing.finish()
        for (list, keys) in [(SortLists.List.price, prices), (.title, titles)] {
            var writer = SortLists.BlockWriter(list: list, capacity: capacity, emit: Self.inserting(insert))
            try keys.forEachSorted { try writer.add($0) }
            try writer.finish()
        }
    }
}
