/// Checks that field bytes are text SQLite can store and people can read: valid UTF-8, no NUL.
enum TextValidation {
    /// What is wrong with some bytes.
    enum Problem: Equatable {
        case nulByte, invalidUTF8
    }

    /// True when every byte is ASCII and none is NUL: the common case, checked eight bytes at a time.
    @inline(__always)
    static func isPlainASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let count = bytes.count
        var i = 0
        let raw = UnsafeRawPointer(base)
        while i + 8 <= count {
            let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            // High bit set in a byte, or a zero byte (the classic "has zero byte" trick).
            let zeroBytes = (word &- 0x0101_0101_0101_0101) & ~word
            if (word | zeroBytes) & 0x8080_8080_8080_8080 != 0 { return false }
            i += 8
        }
        while i < count {
            let byte = base[i]
            if byte == 0 || byte >= 0x80 { return false }
            i += 1
        }
        return true
    }

    /// The first problem in `bytes`, or nil when they are valid UTF-8 without NUL.
    static func problem(in bytes: UnsafeBufferPointer<UInt8>) -> Problem? {
        var i = 0
        let n = bytes.count
        while i < n {
            let b0 = bytes[i]
            if b0 == 0 { return .nulByte }
            if b0 < 0x80 {
                i += 1
                continue
            }
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch b0 {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F
            default: return .invalidUTF8
            }
            guard i + length <= n else { return .invalidUTF8 }
            let b1 = bytes[i + 1]
            guard b1 >= lower && b1 <= upper else { return .invalidUTF8 }
            for k in 2..<length {
                guard bytes[i + k] & 0xC0 == 0x80 else { return .invalidUTF8 }
            }
            i += length
        }
        return nil
    }
}
