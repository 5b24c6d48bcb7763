/// A batch of checked rows, sorted by productId and free of duplicates, as an import hands them
/// to a ``CatalogSink``: each row's values in the order of the sink's ``CheckedColumn``s.
///
/// The values point into the batch's buffer and are valid only during the sink's
/// ``CatalogSink/write(_:)`` call: a sink copies or sends them before it returns.
public struct CheckedRows {
    let batch: RowBatch
    let parameters: UnsafeBufferPointer<EncodedRow.Parameter>

    /// The rows in the batch.
    public var count: Int { batch.count }

    /// Calls `body` with each value of row `index`, column by column.
    @inline(__always)
    public func forEachValue(inRow index: Int, _ body: (CheckedValue) throws -> Void) rethrows {
        var cursor = batch.row(index).base + EncodedRow.headerSize
        for kind in parameters {
            let count = cursor.loadUnaligned(as: UInt32.self)
            cursor += 4
            if kind == .absent {
                if count != EncodedRow.nullMarker { cursor += Int(count) }
                continue
            }
            if count == EncodedRow.nullMarker {
                try body(.null)
            } else if kind == .integer {
                try body(.integer(cursor.loadUnaligned(as: Int64.self)))
                cursor += 8
            } else {
                try body(.text(UnsafeRawBufferPointer(start: cursor, count: Int(count))))
                cursor += Int(count)
            }
        }
    }

    /// Sets `texts[k]` to the text of row `index` in column `columns[k]`: nil for NULL, for a
    /// number and for a nil column (one the rows lack). `texts` has as many slots as `columns`.
    @inline(__always)
    func texts(inRow index: Int, columns: [Int?], into texts: inout [UnsafeRawBufferPointer?]) {
        for slot in texts.indices { texts[slot] = nil }
        var column = 0
        forEachValue(inRow: index) { value in
            defer { column += 1 }
            guard case .text(let bytes) = value else { return }
            for (slot, wanted) in columns.enumerated() where wanted == column { texts[slot] = bytes }
        }
    }
}

/// One value of a checked row.
public enum CheckedValue {
    case null
    /// A price in thousandths of its currency's unit, or a quantity.
    case integer(Int64)
    /// UTF-8 text, valid only while the sink's ``CatalogSink/write(_:)`` runs.
    case text(UnsafeRawBufferPointer)
}

/// A column an import writes: its name in the catalog and whether it holds integers.
public struct CheckedColumn: Sendable, Hashable {
    public var name: String
    /// True for prices (in thousandths) and quantities; other columns hold text.
    public var isInteger: Bool

    public init(name: String, isInteger: Bool) {
        self.name = name
        self.isInteger = isInteger
    }
}
