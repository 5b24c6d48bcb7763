/// A tiny, fast, seedable pseudo-random generator (Steele, Lea and Flood's SplitMix64).
///
/// Its output depends only on the seed and plain 64-bit integer arithmetic, so a seed gives the
/// same numbers on every machine and every Swift version. The standard library's generators and
/// its `random(in:using:)` make no such promise, so the generator never uses them.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    @inline(__always)
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// The SplitMix64 finalizer: a bijection on 64-bit values that scatters every input bit.
    @inline(__always)
    static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z &>> 31)
    }
}
