/// The RFC 4180 state machine under ``CSVReader``: bytes in, field bytes and field ends out.
///
/// Like csv-core, it works only on buffers its caller owns: it never allocates, never does I/O and
/// never fails. Each call says what happened (``Outcome``) and how many input bytes it consumed;
/// the caller refills the input, grows the output, or takes the finished record. State survives
/// between calls, so a record may be split across any number of input chunks, down to one byte.
///
/// Runs of ordinary bytes are found with a tight scan and copied in one go; only quotes, line
/// breaks and delimiters go through the state transitions.
struct CSVParser {
    enum Outcome: Equatable {
        /// All input was consumed; call again with more, or ``finish(output:ends:)`` at the end.
        case inputEmpty
        /// The output or the ends buffer is full; grow it and call again with the same input.
        case outputFull
        /// A record is complete: its fields are in the output buffers.
        case record
    }

    private enum State: UInt8 {
        case recordStart, fieldStart, unquoted, quoted, quoteInQuoted
    }

    private static let quote = UInt8(ascii: "\"")
    private static let lf = UInt8(ascii: "\n")
    private static let cr = UInt8(ascii: "\r")

    let delimiter: UInt8
    let maxFieldBytes: Int

    private var state = State.recordStart
    /// True when the last line break seen was a CR, so that a following LF is not a new line.
    private var lastWasCR = false
    /// The line of the next byte to be parsed.
    private(set) var line = 1
    /// Bytes consumed since the start of the input (including any byte-order mark skipped above).
    private(set) var offset: Int

    // The record being built. Valid to read after `.record` until the next call.
    private(set) var byteCount = 0
    private(set) var fieldCount = 0
    private(set) var recordLine = 1
    private(set) var recordOffset = 0
    private(set) var malformation: CSVMalformation?
    private var fieldStart = 0

    init(delimiter: UInt8, maxFieldBytes: Int, startOffset: Int = 0) {
        self.delimiter = delimiter
        self.maxFieldBytes = maxFieldBytes
        self.offset = startOffset
    }

    /// Parses as much of `input` as it can into `output` and `ends`.
    mutating func parse(
        _ input: UnsafeRawBufferPointer,
        output: UnsafeMutableBufferPointer<UInt8>,
        ends: UnsafeMutableBufferPointer<Int>
    ) -> (outcome: Outcome, consumed: Int) {
        let n = input.count
        guard n > 0, let base = input.baseAddress?.assumingMemoryBound(to: UInt8.self) else {
            return (.inputEmpty, 0)
        }
        let delimiter = self.delimiter
        var i = 0
        defer { offset += i }

        while i < n {
            switch state {
            case .recordStart:
                let b = base[i]
                if b == Self.lf {
                    if !lastWasCR { line += 1 }
                    lastWasCR = false
                    i += 1
                } else if b == Self.cr {
                    line += 1
                    lastWasCR = true
                    i += 1
                } else {
                    lastWasCR = false
                    byteCount = 0
                    fieldCount = 0
                    fieldStart = 0
                    malformation = nil
                    recordLine = line
                    recordOffset = offset + i
                    state = .fieldStart
                }

            case .fieldStart:
                if base[i] == Self.quote {
                    state = .quoted
                    i += 1
                } else {
                    state = .unquoted
                }

            case .unquoted:
                var j = i
                while j < n {
                    let b = base[j]
                    if b == delimiter || b == Self.lf || b == Self.cr || b == Self.quote { break }
                    j += 1
                }
                if j > i {
                    guard copy(base + i, count: j - i, to: output, at: i) else { return (.outputFull, i) }
                    i = j
                    if i == n { break }
                }
                let b = base[i]
                if b == Self.quote {
                    guard put(b, to: output, at: i) else { return (.outputFull, i) }
                    noteMalformation(.quoteInUnquotedField, at: i)
                    i += 1
                } else if b == delimiter {
                    guard endField(ends) else { return (.outputFull, i) }
                    state = .fieldStart
                    i += 1
                } else {
                    guard endField(ends) else { return (.outputFull, i) }
                    endRecord(lineBreak: b)
                    i += 1
                    return (.record, i)
                }

            case .quoted:
                var j = i
                while j < n {
                    let b = base[j]
                    if b == Self.quote || b == Self.lf || b == Self.cr { break }
                    j += 1
                }
                if j > i {
                    guard copy(base + i, count: j - i, to: output, at: i) else { return (.outputFull, i) }
                    lastWasCR = false
                    i = j
                    if i == n { break }
                }
                let b = base[i]
                if b == Self.quote {
                    // A CR just before the closing quote is complete: an LF after the quote is a
                    // line break of its own, not the second half of a CRLF.
                    lastWasCR = false
                    state = .quoteInQuoted
                } else {
                    guard put(b, to: output, at: i) else { return (.outputFull, i) }
                    countLineBreak(b)
                }
                i += 1

            case .quoteInQuoted:
                let b = base[i]
                if b == Self.quote {
                    guard put(b, to: output, at: i) else { return (.outputFull, i) }
                    state = .quoted
                    i += 1
                } else if b == delimiter {
                    guard endField(ends) else { return (.outputFull, i) }
                    state = .fieldStart
                    i += 1
                } else if b == Self.lf || b == Self.cr {
                    guard endField(ends) else { return (.outputFull, i) }
                    endRecord(lineBreak: b)
                    i += 1
                    return (.record, i)
                } else {
                    // Keep the text after the closing quote, as most readers do, but report it.
                    noteMalformation(.characterAfterClosingQuote, at: i)
                    state = .unquoted
                }
            }
        }
        return (.inputEmpty, i)
    }

    /// Ends the input: completes a record left open by a missing final line break.
    ///
    /// Returns `.record` when there was one, `.inputEmpty` when the input is exhausted, and
    /// `.outputFull` when `ends` must grow first.
    mutating func finish(ends: UnsafeMutableBufferPointer<Int>) -> Outcome {
        switch state {
        case .recordStart:
            return .inputEmpty
        case .quoted:
            if malformation == nil {
                malformation = CSVMalformation(
                    kind: .unterminatedQuote, column: fieldCount + 1, line: line, byteOffset: offset)
            }
            fallthrough
        case .fieldStart, .unquoted, .quoteInQuoted:
            guard endField(ends) else { return .outputFull }
            state = .recordStart
            return .record
        }
    }

    // MARK: - Output

    /// Appends bytes to the current field, dropping (and reporting) what exceeds `maxFieldBytes`.
    ///
    /// `index` is where `source` starts in the current input, for the position of a dropped byte.
    @inline(__always)
    private mutating func copy(
        _ source: UnsafePointer<UInt8>, count: Int, to output: UnsafeMutableBufferPointer<UInt8>, at index: Int
    ) -> Bool {
        let room = maxFieldBytes - (byteCount - fieldStart)
        let kept = min(count, room)
        if kept < count { noteFieldTooLong(at: index + kept) }
        guard kept > 0 else { return true }
        guard byteCount + kept <= output.count else { return false }
        (output.baseAddress! + byteCount).update(from: source, count: kept)
        byteCount += kept
        return true
    }

    @inline(__always)
    private mutating func put(_ byte: UInt8, to output: UnsafeMutableBufferPointer<UInt8>, at index: Int) -> Bool {
        guard byteCount - fieldStart < maxFieldBytes else {
            noteFieldTooLong(at: index)
            return true
        }
        guard byteCount < output.count else { return false }
        output[byteCount] = byte
        byteCount += 1
        return true
    }

    @inline(__always)
    private mutating func endField(_ ends: UnsafeMutableBufferPointer<Int>) -> Bool {
        guard fieldCount < ends.count else { return false }
        ends[fieldCount] = byteCount
        fieldCount += 1
        fieldStart = byteCount
        return true
    }

    @inline(__always)
    private mutating func endRecord(lineBreak: UInt8) {
        countLineBreak(lineBreak)
        state = .recordStart
    }

    @inline(__always)
    private mutating func countLineBreak(_ b: UInt8) {
        if b == Self.cr {
            line += 1
            lastWasCR = true
        } else {
            if !lastWasCR { line += 1 }
            lastWasCR = false
        }
    }

    // MARK: - Malformations

    private mutating func noteMalformation(_ kind: CSVMalformation.Kind, at index: Int) {
        guard malformation == nil else { return }
        malformation = CSVMalformation(
            kind: kind, column: fieldCount + 1, line: line, byteOffset: offset + index)
    }

    private mutating func noteFieldTooLong(at index: Int) {
        guard malformation == nil else { return }
        malformation = CSVMalformation(
            kind: .fieldTooLong(limit: maxFieldBytes), column: fieldCount + 1, line: line,
            byteOffset: offset + index)
    }
}
