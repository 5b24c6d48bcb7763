/// The generator's word lists, stored back to back in one byte array, ready to copy into a row.
///
/// Each phrase is stored as it appears inside a quoted CSV field (every `"` doubled) and knows
/// whether it forces its field to be quoted (it holds a `,`, `"`, CR or LF). A phrase without
/// such bytes reads the same quoted or not, so a field is assembled by copying phrases and
/// adding quotes around it only when one of them asks for it.
struct PhraseTable {
    /// Where one phrase sits in ``bytes``.
    struct Phrase {
        var start: Int32
        var count: Int32
        var needsQuotes: Bool
    }

    /// A run of phrases added together, picked from by index.
    struct List {
        let first: Int
        let count: Int
    }

    private(set) var bytes: [UInt8] = []
    private(set) var phrases: [Phrase] = []
    /// The length of the longest stored phrase, quotes doubled.
    private(set) var longest = 0

    /// Stores `strings` and returns the list that picks among them.
    mutating func add(_ strings: [String]) -> List {
        precondition(!strings.isEmpty, "a phrase list needs at least one phrase")
        let first = phrases.count
        for string in strings {
            let start = bytes.count
            var needsQuotes = false
            for byte in string.utf8 {
                switch byte {
                case UInt8(ascii: "\""):
                    bytes.append(byte)
                    needsQuotes = true
                case UInt8(ascii: ","), UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                    needsQuotes = true
                default:
                    break
                }
                bytes.append(byte)
            }
            let count = bytes.count - start
            longest = max(longest, count)
            phrases.append(Phrase(start: Int32(start), count: Int32(count), needsQuotes: needsQuotes))
        }
        return List(first: first, count: strings.count)
    }

    /// The longest phrase in `list`, quotes doubled.
    func longest(in list: List) -> Int {
        phrases[list.first..<(list.first + list.count)].map { Int($0.count) }.max() ?? 0
    }

    /// Calls `body` with a view of the table valid only during the call.
    func withView<R, E: Error>(_ body: (View) throws(E) -> R) throws(E) -> R {
        try bytes.withUnsafeBufferPointer { (bytes) throws(E) -> R in
            try phrases.withUnsafeBufferPointer { (phrases) throws(E) -> R in
                try body(View(bytes: bytes.baseAddress!, phrases: phrases.baseAddress!))
            }
        }
    }

    /// Borrowed pointers into a table, for the hot loop.
    struct View {
        let bytes: UnsafePointer<UInt8>
        let phrases: UnsafePointer<Phrase>

        /// The phrase at `index` in `list`.
        @inline(__always)
        func phrase(_ list: List, _ index: Int) -> Phrase {
            phrases[list.first + index]
        }

        /// Appends a phrase's stored bytes to `buffer`.
        @inline(__always)
        func append(_ phrase: Phrase, to buffer: inout OutputBuffer) {
            buffer.append(bytes + Int(phrase.start), count: Int(phrase.count))
        }
    }
}
