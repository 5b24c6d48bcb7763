/// How generated rows get their productIds: unique ignoring ASCII case, shuffled, and varied.
///
/// Row `i` takes the product number `p = permutation(i)`, a seeded bijection on `0..<2^bits`
/// (at least 2^27, about 134 million, and wider for more rows). The low four bits of `p` pick one
/// of sixteen ``families`` and the rest, `n = p >> 4`, become the digits:
///
///     prefix + n in decimal (zero-padded, maybe with a hyphen before the last digits) + suffix
///
/// such as `SKU-00417233`, `AB-98311`, `XY1-0042177`, `MX-4411-027`, `A-3310458B` or
/// `ZZ-2093311-EU`. The suffix is a function of the family and `n`, and starts with a non-digit.
///
/// Uniqueness follows because an id can be read back to `p` (see ``decode(_:)``): no prefix
/// followed by a digit starts another prefix, ignoring case, so the prefix names its family; the
/// digit run that follows gives `n`. Equal ids (ignoring case) thus mean equal `p`, hence equal
/// rows, since the permutation is a bijection.
struct ProductIdScheme {
    /// One kind of productId.
    struct Family {
        /// The text before the digits; distinct from every other prefix ignoring case.
        let prefix: String
        /// The digits are zero-padded to at least this many.
        let digits: Int
        /// When positive, a hyphen goes before this many final digits (`MX-4411-027`).
        let tailDigits: Int
        /// Appended after the digits, picked by the number; `""` for none. Each starts with a non-digit.
        let suffixes: [String]

        init(_ prefix: String, digits: Int, tailDigits: Int = 0, suffixes: [String] = [""]) {
            self.prefix = prefix
            self.digits = digits
            self.tailDigits = tailDigits
            self.suffixes = suffixes
        }
    }

    /// The sixteen families, indexed by the low four bits of the product number.
    static let families: [Family] = [
        Family("SKU-", digits: 8),
        Family("SKU-X", digits: 6),
        Family("ABC-", digits: 5, suffixes: ["", "", "-B", "-R"]),
        Family("AB-", digits: 1),
        Family("ABX-", digits: 7),
        Family("A-", digits: 6, suffixes: ["", "", "A", "B"]),
        Family("XY1-", digits: 7),
        Family("XY12-", digits: 4),
        Family("XY-", digits: 7, suffixes: ["", "-S", "-M", "-L", "-XL"]),
        Family("MX-", digits: 7, tailDigits: 3),
        Family("MXP-", digits: 9),
        Family("kb-", digits: 6),
        Family("KBD", digits: 7),
        Family("DE-", digits: 7, suffixes: ["", "", "/2", "/3"]),
        Family("Z9-", digits: 3),
        Family("ZZ-", digits: 7, suffixes: ["", "-EU", "-US", "-UK"]),
    ]

    static let familyBits = 4
    /// The smallest domain, so that ids look alike whatever the number of rows.
    static let minimumBits = 27

    /// Row index → product number.
    let permutation: IndexPermutation

    init(rows: Int, seed: UInt64) {
        precondition(Self.families.count == 1 << Self.familyBits)
        permutation = IndexPermutation(
            bits: IndexPermutation.bits(toHold: rows, minimumBits: Self.minimumBits), seed: seed)
    }

    /// Which suffix of `count` goes with number `n`: a scramble of `n`, so suffixes look random.
    @inline(__always)
    static func suffixIndex(number n: UInt64, count: Int) -> Int {
        Int(truncatingIfNeeded: (n &* 0x9E37_79B9_7F4A_7C15) &>> 40) % count
    }

    // MARK: - Reading ids back

    /// The product number an id was made from, comparing ASCII case-insensitively; `nil` if no
    /// family can have made it.
    static func decode(_ id: String) -> UInt64? {
        let bytes = Array(id.utf8).map(uppercased)
        var found: (family: Int, end: Int)?
        for (index, family) in families.enumerated() {
            let prefix = Array(family.prefix.utf8).map(uppercased)
            guard bytes.count > prefix.count, bytes.starts(with: prefix), isDigit(bytes[prefix.count]) else {
                continue
            }
            guard found == nil else { return nil }  // two families claim it: the scheme is broken
            found = (index, prefix.count)
        }
        guard let (index, start) = found else { return nil }
        let family = families[index]
        var cursor = start
        var digits: [UInt8] = []
        while cursor < bytes.count, isDigit(bytes[cursor]) {
            digits.append(bytes[cursor])
            cursor += 1
        }
        if family.tailDigits > 0 {
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "-") else { return nil }
            cursor += 1
            let tailStart = cursor
            while cursor < bytes.count, isDigit(bytes[cursor]) {
                digits.append(bytes[cursor])
                cursor += 1
            }
            guard cursor - tailStart == family.tailDigits else { return nil }
        }
        // Only the padding may add leading zeros, and the number must fit.
        guard digits.count <= 19,
            digits.count == family.digits || (digits.count > family.digits && digits[0] != UInt8(ascii: "0"))
        else { return nil }
        let number = digits.reduce(UInt64(0)) { $0 * 10 + UInt64($1 - UInt8(ascii: "0")) }
        let suffix = family.suffixes[suffixIndex(number: number, count: family.suffixes.count)]
        guard Array(bytes[cursor...]) == Array(suffix.utf8).map(uppercased) else { return nil }
        return number << UInt64(familyBits) | UInt64(index)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func uppercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte
    }
}
