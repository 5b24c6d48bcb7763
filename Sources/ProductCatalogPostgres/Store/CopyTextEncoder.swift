import NIOCore
import ProductCatalog

/// Writes checked rows in the text format of `COPY … FROM STDIN`: values separated by tabs,
/// rows ended by a newline, NULL as `\N`, and a backslash before a backslash, tab, newline or
/// carriage return inside a value.
///
/// postgres-nio sends `COPY` data in the text format only. It costs little here: values are
/// copied as they are unless one of those four bytes occurs, and integers are written as digits.
enum CopyTextEncoder {
    /// Appends every row of `rows` to `buffer`.
    static func append(_ rows: CheckedRows, to buffer: inout ByteBuffer) {
        for index in 0..<rows.count {
            var first = true
            rows.forEachValue(inRow: index) { value in
                if !first { buffer.writeInteger(UInt8(ascii: "\t")) }
                first = false
                switch value {
                case .null:
                    buffer.writeInteger(UInt16(0x5C4E))  // "\N", big-endian
                case .integer(let number):
                    appendDigits(number, to: &buffer)
                case .text(let bytes):
                    appendEscaped(bytes, to: &buffer)
                }
            }
            buffer.writeInteger(UInt8(ascii: "\n"))
        }
    }

    @inline(__always)
    static func appendEscaped(_ bytes: UnsafeRawBufferPointer, to buffer: inout ByteBuffer) {
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 0x5C || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            buffer.writeBytes(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
            let escaped: UInt8 = switch byte {
            case 0x09: UInt8(ascii: "t")
            case 0x0A: UInt8(ascii: "n")
            case 0x0D: UInt8(ascii: "r")
            default: 0x5C
            }
            buffer.writeInteger(UInt16(0x5C00) | UInt16(escaped))
            start = index + 1
        }
        buffer.writeBytes(UnsafeRawBufferPointer(rebasing: bytes[start...]))
    }

    @inline(__always)
    static func appendDigits(_ number: Int64, to buffer: inout ByteBuffer) {
        if number < 0 { buffer.writeInteger(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 20 digits at most, 24 bytes of room
        var count = 0
        withUnsafeMutableBytes(of: &digits) { room in
            repeat {
                room[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            buffer.writeBytes(UnsafeRawBufferPointer(rebasing: room[(24 - count)...]))
        }
    }
}
