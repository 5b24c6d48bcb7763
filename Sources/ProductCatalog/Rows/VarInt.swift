/// Unsigned integers in as few bytes as they need (LEB128): seven bits a byte, low bits first, the
/// high bit set on every byte but the last. A word index's lists are mostly small gaps between
/// rows, one byte each.
enum VarInt {
    /// Appends `value` to `bytes`.
    @inline(__always)
    static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// How many bytes `value` takes.
    @inline(__always)
    static func size(_ value: UInt64) -> Int {
        var value = value
        var count = 1
        while value >= 0x80 {
            value >>= 7
            count += 1
        }
        return count
    }

    /// Reads the value at `offset` of `bytes` and moves `offset` past it; nil when the bytes end
    /// before it does, or it is longer than a 64-bit value can be.
    @inline(__always)
    static func read(_ bytes: UnsafeRawBufferPointer, at offset: inout Int) -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
            if shift > 63 { return nil }
        }
        return nil
    }
}
