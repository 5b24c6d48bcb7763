/// A checked row in the compact binary form that sorted runs hold between parsing and inserting.
///
/// Layout, native byte order: `[length: UInt32]` for the rest, `[line: Int64]`, then per
/// statement parameter `[count: UInt32][bytes]`, where a price is its thousandths as 8 bytes and
/// `UInt32.max` marks NULL. Parameter 1 is always the productId.
struct EncodedRow {
    /// The first byte of the row (its length word).
    let base: UnsafeRawPointer

    static let nullMarker = UInt32.max
    static let headerSize = MemoryLayout<UInt32>.size + MemoryLayout<Int64>.size

    @inline(__always)
    init(_ base: UnsafeRawPointer) {
        self.base = base
    }

    /// Bytes after the length word.
    @inline(__always)
    var length: Int { Int(base.loadUnaligned(as: UInt32.self)) }

    /// Bytes including the length word.
    @inline(__always)
    var totalSize: Int { length + MemoryLayout<UInt32>.size }

    /// The input line the row came from.
    @inline(__always)
    var line: Int { Int(base.loadUnaligned(fromByteOffset: 4, as: Int64.self)) }

    /// The productId's bytes.
    @inline(__always)
    var key: UnsafeRawBufferPointer {
        let count = Int(base.loadUnaligned(fromByteOffset: Self.headerSize, as: UInt32.self))
        return UnsafeRawBufferPointer(start: base + Self.headerSize + 4, count: count)
    }

    /// The key's first 16 bytes, ASCII-folded, as two big-endian integers (zero-padded).
    ///
    /// Comparing these orders most keys without looking at their bytes again: NUL never
    /// occurs in a key, so the padding sorts a shorter key first, as `NOCASE` does.
    @inline(__always)
    var keyPrefix: KeyPrefix {
        let key = self.key
        var words: (UInt64, UInt64) = (0, 0)
        for index in 0..<16 {
            let byte = UInt64(index < key.count ? ProductIdOrder.fold(key[index]) : 0)
            if index < 8 { words.0 = words.0 << 8 | byte } else { words.1 = words.1 << 8 | byte }
        }
        return KeyPrefix(high: words.0, low: words.1)
    }

    /// How a slot of the row is bound to the insert statement.
    enum Parameter: Equatable {
        case text
        /// An integer: a price in thousandths, or a quantity.
        case integer
        /// Always NULL and not in the statement: skipped.
        case absent
    }

    /// Orders rows by productId as `NOCASE` does, then by line: the order the catalog stores.
    @inline(__always)
    static func precedes(_ a: EncodedRow, _ aPrefix: KeyPrefix, _ b: EncodedRow, _ bPrefix: KeyPrefix) -> Bool {
        if aPrefix != bPrefix { return aPrefix < bPrefix }
        let order = compareKeys(a.key, b.key)
        return order != 0 ? order < 0 : a.line < b.line
    }

    /// `NOCASE` comparison of two keys: negative, zero or positive.
    @inline(__always)
    static func compareKeys(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let count = min(a.count, b.count)
        var index = 0
        while index < count {
            let x = ProductIdOrder.fold(a[index])
            let y = ProductIdOrder.fold(b[index])
            if x != y { return Int(x) - Int(y) }
            index += 1
        }
        return a.count - b.count
    }
}

/// The first 16 folded bytes of a key, for comparing rows without reading their keys.
struct KeyPrefix: Equatable, Comparable {
    var high: UInt64
    var low: UInt64

    @inline(__always)
    static func < (a: KeyPrefix, b: KeyPrefix) -> Bool {
        a.high != b.high ? a.high < b.high : a.low < b.low
    }
}
