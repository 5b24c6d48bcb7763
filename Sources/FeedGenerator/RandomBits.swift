/// Random bits handed out a few at a time, so one 64-bit draw serves several small choices.
struct RandomBits {
    private var bits: UInt64
    private var remaining: Int

    init(_ bits: UInt64) {
        self.bits = bits
        remaining = 64
    }

    /// A value in `0..<count` from the next 16 bits (`count` at most 65,536); the bias is negligible.
    @inline(__always)
    mutating func below(_ count: Int) -> Int {
        assert(remaining >= 16, "RandomBits used for more than four choices")
        let sixteen = Int(truncatingIfNeeded: bits & 0xFFFF)
        bits &>>= 16
        remaining -= 16
        return (sixteen &* count) &>> 16
    }

    /// True `percent` times in a hundred.
    @inline(__always)
    mutating func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }
}
