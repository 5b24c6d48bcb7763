#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte strings in byte order, a prefix first: the order of terms, starts and sort keys.
enum ByteOrder {
    /// True when `a` comes before `b`: `memcmp` on what they share, then the shorter first
    /// (what `lexicographicallyPrecedes` says, without its generic walk element by element).
    @inline(__always)
    static func precedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.withUnsafeBytes { x in b.withUnsafeBytes { y in precedes(x, y) } }
    }

    @inline(__always)
    static func precedes(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
        let shared = min(a.count, b.count)
        let order = shared == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, shared)
        return order != 0 ? order < 0 : a.count < b.count
    }
}
