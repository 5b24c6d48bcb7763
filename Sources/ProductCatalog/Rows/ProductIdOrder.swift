/// The order of productIds in a catalog: SQLite's `NOCASE`, which compares bytes with ASCII
/// letters folded to lower case. Sorting, duplicate detection and prefix search all use it.
enum ProductIdOrder {
    /// ASCII upper-case letters to lower case, as `NOCASE` compares them.
    @inline(__always)
    static func fold(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
    }

    /// `productId` with its ASCII letters in lower case: equal for two productIds `NOCASE` finds equal.
    static func folded(_ productId: String) -> String {
        String(decoding: productId.utf8.map(fold), as: UTF8.self)
    }
}
