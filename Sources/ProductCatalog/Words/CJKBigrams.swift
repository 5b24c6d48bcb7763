/// Words in scripts written without spaces (Chinese, Japanese kana and kanji): unicode61 keeps a
/// whole run of them as one token (`ブーツ黒` is one word), so a word inside the run is never
/// found. Each run is indexed instead as its overlapping pairs of characters, as Lucene's CJK
/// analyzer does (`ブー`, `ーツ`, `ツ黒`), and its last character alone, so that a query of
/// one character finds it as the start of a token wherever it stands. A query's run is split the
/// same way, and its pairs must all match: `ブーツ` finds every title with `ブー` and `ーツ`.
///
/// Text in other scripts passes through unchanged; a token that mixes them (`ブーツabc`) is
/// split where the script changes.
enum CJKBigrams {
    /// Calls `emit` with the pieces of `token` (UTF-8), with the byte range of each within the token.
    @inline(__always)
    static func split(_ token: UnsafeRawBufferPointer, _ emit: (UnsafeRawBufferPointer, Range<Int>) -> Void) {
        // The fast path: every CJK character here is three UTF-8 bytes from 0xE3 up.
        guard token.contains(where: { $0 >= 0xE3 }) else { return emit(token, 0..<token.count) }
        var characters: [(range: Range<Int>, isCJK: Bool)] = []
        var index = 0
        while index < token.count {
            let lead = token[index]
            let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            let end = min(index + length, token.count)
            characters.append((index..<end, length == 3 && isCJK(token[index], token[index + 1], token[index + 2])))
            index = end
        }
        var start = 0
        while start < characters.count {
            var end = start
            while end < characters.count, characters[end].isCJK == characters[start].isCJK { end += 1 }
            let run = characters[start..<end]
            if !characters[start].isCJK || run.count == 1 {
                let range = run.first!.range.lowerBound..<run.last!.range.upperBound
                emit(UnsafeRawBufferPointer(rebasing: token[range]), range)
            } else {
                for pair in start..<end - 1 {
                    let range = characters[pair].range.lowerBound..<characters[pair + 1].range.upperBound
                    emit(UnsafeRawBufferPointer(rebasing: token[range]), range)
                }
                let last = characters[end - 1].range
                emit(UnsafeRawBufferPointer(rebasing: token[last]), last)
            }
            start = end
        }
    }

    /// True for the three UTF-8 bytes of a character of a script without spaces: hiragana and
    /// katakana (U+3040–30FF, the prolonged sound mark among them), CJK ideographs (U+3400–4DBF,
    /// U+4E00–9FFF, U+F900–FAFF) and half-width katakana (U+FF66–FF9F).
    @inline(__always)
    static func isCJK(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> Bool {
        let scalar = UInt32(a & 0x0F) << 12 | UInt32(b & 0x3F) << 6 | UInt32(c & 0x3F)
        return (0x3040...0x30FF).contains(scalar) || (0x3400...0x4DBF).contains(scalar) || (0x4E00...0x9FFF).contains(scalar)
            || (0xF900...0xFAFF).contains(scalar) || (0xFF66...0xFF9F).contains(scalar)
    }
}
