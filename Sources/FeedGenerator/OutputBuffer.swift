/// A fixed-size byte buffer that rows are appended to with no bounds checks.
///
/// The generator reserves room for a whole row (``ProductRowEncoder/maxRowBytes``) before it
/// encodes one, and flushes the buffer to its sink when that room is missing, so the appends
/// themselves stay as cheap as a store.
struct OutputBuffer {
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int
    private(set) var count = 0

    init(base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        self.base = base
        self.capacity = capacity
    }

    /// How many more bytes fit.
    var room: Int { capacity - count }

    /// The bytes written so far.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: count) }

    /// Forgets the bytes written, after they were flushed.
    mutating func removeAll() {
        count = 0
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafePointer<UInt8>, count n: Int) {
        (base + count).update(from: bytes, count: n)
        count += n
    }

    /// Appends `value` in decimal, zero-padded to at least `minDigits` digits.
    @inline(__always)
    mutating func appendDecimal(_ value: UInt64, minDigits: Int = 1) {
        var digits = 1
        var rest = value
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        let width = max(digits, minDigits)
        rest = value
        var index = count + width - 1
        for _ in 0..<width {
            let (quotient, remainder) = rest.quotientAndRemainder(dividingBy: 10)
            base[index] = UInt8(truncatingIfNeeded: remainder) &+ UInt8(ascii: "0")
            rest = quotient
            index -= 1
        }
        count += width
    }

    /// Inserts `byte` before the last `n` bytes written, as in `1234567` → `1234-567`.
    @inline(__always)
    mutating func insert(_ byte: UInt8, beforeLast n: Int) {
        (base + count - n + 1).update(from: base + count - n, count: n)
        base[count - n] = byte
        count += 1
    }

    /// Appends an amount of integer cents as a price with two decimals, such as `12.50`.
    ///
    /// Prices are never formatted from a `Double`, so the text is the same on every machine.
    @inline(__always)
    mutating func appendPrice(cents: Int) {
        let (units, hundredths) = UInt64(cents).quotientAndRemainder(dividingBy: 100)
        appendDecimal(units)
        append(UInt8(ascii: "."))
        appendDecimal(hundredths, minDigits: 2)
    }
}
