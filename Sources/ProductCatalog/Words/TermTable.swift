/// Terms interned as they come: each distinct byte string gets the next number, found again by an
/// open-addressing hash table over one arena of bytes. What an index build calls for every word of
/// every product, so it allocates nothing per word.
@_spi(WordIndex) public struct TermTable {
    /// Every term's bytes, one after another.
    private(set) var bytes: [UInt8] = []
    /// Where term `n` starts in ``bytes``, and one past the last.
    private(set) var ends: [Int32] = [0]
    /// Term number + 1 at each slot, 0 for an empty slot; a power of two long.
    private var slots: [Int32]
    private var hashes: [UInt32] = []

    public init(capacity: Int = 1 << 12) {
        var size = 16
        while size < capacity * 2 { size *= 2 }
        slots = Array(repeating: 0, count: size)
    }

    /// How many terms there are.
    public var count: Int { ends.count - 1 }

    /// Forgets every term, keeping the memory for the next ones.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        ends.append(0)
        hashes.removeAll(keepingCapacity: true)
        slots.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }

    /// The bytes the terms take, and the table: about what the table holds in memory.
    public var memory: Int { bytes.count + ends.count * 4 + slots.count * 4 + hashes.count * 4 }

    /// The number of the term `term`, interned now when new; `isNew` says which.
    @inline(__always)
    public mutating func intern(_ term: UnsafeRawBufferPointer) -> (number: Int, isNew: Bool) {
        let hash = Self.hash(term)
        let mask = slots.count - 1
        var slot = Int(hash) & mask
        while true {
            let entry = Int(slots[slot])
            if entry == 0 { break }
            let number = entry - 1
            if hashes[number] == hash, equals(number, term) { return (number, false) }
            slot = (slot + 1) & mask
        }
        let number = count
        bytes.append(contentsOf: term)
        ends.append(Int32(bytes.count))
        hashes.append(hash)
        slots[slot] = Int32(number + 1)
        if count * 2 > slots.count { grow() }
        return (number, true)
    }

    /// Calls `body` with term `number`'s bytes.
    @inline(__always)
    public func withTerm<Result>(_ number: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[Int(ends[number])..<Int(ends[number + 1])])) }
    }

    /// The terms' numbers in the terms' byte order.
    public func sortedNumbers() -> [Int] {
        bytes.withUnsafeBufferPointer { bytes in
            (0..<count).sorted { a, b in
                let first = UnsafeBufferPointer(rebasing: bytes[Int(ends[a])..<Int(ends[a + 1])])
                let second = UnsafeBufferPointer(rebasing: bytes[Int(ends[b])..<Int(ends[b + 1])])
                let common = min(first.count, second.count)
                if common > 0, let base = first.baseAddress, let other = second.baseAddress {
                    let order = memcmp(base, other, common)
                    if order != 0 { return order < 0 }
                }
                return first.count < second.count
            }
        }
    }

    @inline(__always)
    private func equals(_ number: Int, _ term: UnsafeRawBufferPointer) -> Bool {
        let start = Int(ends[number]), end = Int(ends[number + 1])
        guard end - start == term.count else { return false }
        return bytes.withUnsafeBufferPointer { bytes in
            term.count == 0 || memcmp(bytes.baseAddress! + start, term.baseAddress!, term.count) == 0
        }
    }

    private mutating func grow() {
        slots = Array(repeating: 0, count: slots.count * 2)
        let mask = slots.count - 1
        for number in 0..<count {
            var slot = Int(hashes[number]) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(number + 1)
        }
    }

    /// FNV-1a, 32 bits: terms are short, and the table compares the bytes anyway.
    @inline(__always)
    static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var hash: UInt32 = 0x811C_9DC5
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        return hash
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
