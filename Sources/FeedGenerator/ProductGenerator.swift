/// Writes a realistic product CSV file of any size, the same bytes for the same seed.
///
/// ```swift
/// try ProductGenerator(rows: 1_000, seed: 42).write(toPath: "products.csv")
/// ```
///
/// The header is `productId,title,listPrice,salesPrice,color,size`, then one line per product,
/// LF-terminated and valid RFC 4180. ProductIds share prefixes (`AB-`, `ABC-`, `XY1-` …), are
/// unique ignoring ASCII case (each is made from the row index through a bijection), and come in
/// shuffled order, as in a real feed. Titles sometimes hold commas, doubled quotes and non-ASCII
/// letters; prices have two decimals, and a sale price, when present, never exceeds the list price.
///
/// Rows are encoded straight into one reused buffer that is handed to a sink whenever it fills,
/// so memory stays flat however many rows are written.
public struct ProductGenerator: Sendable {
    /// The number of product rows, not counting the header.
    public let rows: Int
    /// The seed; the same seed and row count always give the same bytes.
    public let seed: UInt64
    /// The size of the reused output buffer, and so the most bytes handed to a sink at once.
    public let bufferSize: Int

    /// The header's column names.
    public static let columns = ["productId", "title", "listPrice", "salesPrice", "color", "size"]

    /// A generator of `rows` products (0 or more) from `seed`, writing through a `bufferSize`-byte buffer.
    public init(rows: Int, seed: UInt64 = 1, bufferSize: Int = 1 << 16) {
        precondition(rows >= 0, "a generator needs 0 or more rows")
        precondition(bufferSize > 0, "a generator needs a buffer")
        self.rows = rows
        self.seed = seed
        self.bufferSize = bufferSize
    }

    /// Writes the whole file to `sink` in chunks, each valid only during the call and never empty.
    public func write<E: Error>(to sink: (UnsafeRawBufferPointer) throws(E) -> Void) throws(E) {
        let encoder = ProductRowEncoder(rows: rows, seed: seed)
        // Grow a tiny buffer to hold at least the header and the longest possible row.
        let capacity = max(bufferSize, encoder.maxRowBytes, ProductRowEncoder.header.count)
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { storage.deallocate() }
        var buffer = OutputBuffer(base: storage, capacity: capacity)
        ProductRowEncoder.header.withUnsafeBufferPointer { header in
            buffer.append(header.baseAddress!, count: header.count)
        }

        var random = SplitMix64(seed: SplitMix64.mix(seed ^ 0x726F_7773))
        let rows = self.rows
        try encoder.table.withView { (view) throws(E) in
            for row in 0..<rows {
                if buffer.room < encoder.maxRowBytes {
                    try sink(buffer.bytes)
                    buffer.removeAll()
                }
                encoder.appendRow(row, random: &random, view: view, to: &buffer)
            }
        }
        if buffer.count > 0 {
            try sink(buffer.bytes)
        }
    }
}
