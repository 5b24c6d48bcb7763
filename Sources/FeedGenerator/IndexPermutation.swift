/// A seeded bijection on `0..<2^bits` that shuffles row indexes into product numbers.
///
/// Each round adds a seeded key, multiplies by an odd constant and folds the high half into the
/// low half with an xor-shift, all modulo `2^bits`. Every one of those steps can be undone, so
/// distinct indexes always give distinct results, while neighbouring indexes land far apart.
struct IndexPermutation {
    /// The width of the domain: indexes and results lie in `0..<(1 << bits)`.
    let bits: Int
    private let mask: UInt64
    private let shift: UInt64
    private let keys: (UInt64, UInt64, UInt64)

    private static let multipliers: (UInt64, UInt64, UInt64) = (
        0x9E37_79B9_7F4A_7C15, 0xBF58_476D_1CE4_E5B9, 0x94D0_49BB_1331_11EB
    )

    init(bits: Int, seed: UInt64) {
        precondition((1...64).contains(bits), "a permutation needs 1 to 64 bits")
        self.bits = bits
        mask = bits == 64 ? .max : (1 << UInt64(bits)) - 1
        shift = UInt64((bits + 1) / 2)
        var random = SplitMix64(seed: SplitMix64.mix(seed ^ 0x7065_726D_7574_6521))
        keys = (random.next(), random.next(), random.next())
    }

    /// The smallest domain width, at least `minimumBits`, that holds `count` distinct indexes.
    static func bits(toHold count: Int, minimumBits: Int) -> Int {
        guard count > 1 else { return minimumBits }
        return max(minimumBits, UInt64.bitWidth - UInt64(count - 1).leadingZeroBitCount)
    }

    /// Where `index` (which must lie in the domain) goes.
    @inline(__always)
    func callAsFunction(_ index: UInt64) -> UInt64 {
        var x = index
        x = round(x, key: keys.0, multiplier: Self.multipliers.0)
        x = round(x, key: keys.1, multiplier: Self.multipliers.1)
        x = round(x, key: keys.2, multiplier: Self.multipliers.2)
        return x
    }

    @inline(__always)
    private func round(_ x: UInt64, key: UInt64, multiplier: UInt64) -> UInt64 {
        var y = ((x &+ key) &* multiplier) & mask
        y ^= y &>> shift
        return y
    }
}
