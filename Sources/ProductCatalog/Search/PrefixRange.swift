/// The index range holding every productId that starts with a prefix, ignoring ASCII case.
///
/// Under SQLite's `NOCASE` collation a key starts with `ab` exactly when `ab <= key < ac`:
/// the prefix with ASCII letters folded to lower case, and the same with its last byte raised by
/// one. `NOCASE` compares folded bytes, and no folded byte lies in `A`…`Z`: so when raising the
/// last byte lands there (a prefix ending in `@`), the bound is `[`, the next byte a folded key
/// can hold. Bound as `A`, it would compare as `a` and let in keys that go on with `[`…`` ` ``.
struct PrefixRange: Equatable {
    /// The inclusive lower bound: the folded prefix.
    var lower: [UInt8]
    /// The exclusive upper bound, nil when there is none (an empty prefix).
    var upper: [UInt8]?

    init(prefix: String) {
        lower = prefix.utf8.map(ProductIdOrder.fold)
        var upper = lower
        while let last = upper.last, last == 0xFF { upper.removeLast() }
        if upper.isEmpty {
            self.upper = nil
        } else {
            upper[upper.count - 1] += 1
            if (0x41...0x5A).contains(upper[upper.count - 1]) { upper[upper.count - 1] = 0x5B }
            self.upper = upper
        }
    }

    /// True when `key` sorts before the start of the range, so a cursor on it is not past the range.
    func isBefore(_ key: String) -> Bool {
        key.utf8.lazy.map(ProductIdOrder.fold).lexicographicallyPrecedes(lower)
    }
}
