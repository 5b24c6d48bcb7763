/// Guesses a file's delimiter from its header line.
enum DelimiterDetector {
    /// The delimiters tried, most likely first; ties go to the earlier one.
    static let candidates: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t"), UInt8(ascii: "|")]

    /// The candidate that occurs most often outside quotes in the first line of `head`; comma when none does.
    static func detect(in head: UnsafeRawBufferPointer) -> UInt8 {
        var counts = [Int](repeating: 0, count: candidates.count)
        var inQuotes = false
        for byte in head {
            if byte == UInt8(ascii: "\"") {
                inQuotes.toggle()
            } else if !inQuotes {
                if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { break }
                if let index = candidates.firstIndex(of: byte) { counts[index] += 1 }
            }
        }
        var best = 0
        for index in counts.indices where counts[index] > counts[best] { best = index }
        return candidates[best]
    }
}
