import NIOCore
import ProductCatalog

/// Writes checked rows in the text format of `COPY … FROM STDIN`: values separated by tabs,
/// rows ended by a newline, NULL as `\N`, and a backslash before a backslash, tab, newline or
/// carriage return inside a value. Each row ends with its words, the `tsvector` of its title,
/// brand and type as a ``WordFolder`` folds them (`'linen':1A 'shirt':1A 'soft':2B`), its word
/// row and its title key (see ``PostgresSchema``).
///
/// postgres-nio sends `COPY` data in the text format only. It costs little here: values are
/// copied as they are unless one of those four bytes occurs, and integers are written as digits.
/// A batch is written into an array and copied into the `ByteBuffer` once: `ByteBuffer`'s checked
/// writes, byte by byte, took a fifth of the import's own time.
struct CopyTextEncoder {
    /// The positions, among a row's values, of the title, brand and type.
    private let wordSlots: [Int]
    /// The position of the title, if the rows have one.
    private let titleSlot: Int?
    private let folder: WordFolder
    /// The place of the next row; nil when rows get theirs when stored (an upsert's).
    private var nextPlace: Int64?

    /// An encoder for rows of `columns`, in this order, placed from `firstPlace` on (see ``nextPlace``).
    init(columns: [CheckedColumn], firstPlace: Int64?) throws {
        let wordFields = Set(WordFolder.indexedFields.map { $0.columnName.lowercased() })
        wordSlots = columns.indices.filter { wordFields.contains(columns[$0].name.lowercased()) }
        titleSlot = columns.firstIndex { $0.name.lowercased() == ProductField.title.columnName.lowercased() }
        folder = try WordFolder()
        nextPlace = firstPlace
    }

    /// Appends every row of `rows` to `buffer`.
    mutating func append(_ rows: CheckedRows, to buffer: inout ByteBuffer) throws {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(buffer.writableBytes)
        try append(rows, to: &bytes)
        buffer.writeBytes(bytes)
    }

    /// Appends every row of `rows` to `buffer`.
    mutating func append(_ rows: CheckedRows, to buffer: inout [UInt8]) throws {
        var wordTexts: [(text: UnsafeRawBufferPointer, isTitle: Bool)] = []
        wordTexts.reserveCapacity(wordSlots.count)
        for index in 0..<rows.count {
            var slot = 0
            wordTexts.removeAll(keepingCapacity: true)
            rows.forEachValue(inRow: index) { value in
                if slot > 0 { buffer.append(UInt8(ascii: "\t")) }
                switch value {
                case .null:
                    buffer.append(0x5C)  // \N
                    buffer.append(UInt8(ascii: "N"))
                case .integer(let number):
                    Self.appendDigits(number, to: &buffer)
                case .text(let bytes):
                    Self.appendEscaped(bytes, to: &buffer)
                    if wordSlots.contains(slot) { wordTexts.append((bytes, slot == titleSlot)) }
                }
                slot += 1
            }
            buffer.append(UInt8(ascii: "\t"))
            let shape = try appendWords(of: wordTexts, to: &buffer)
            buffer.append(UInt8(ascii: "\t"))
            Self.appendDigits(shape.wordRow(place: nextPlace ?? 0), to: &buffer)
            nextPlace? += 1
            buffer.append(UInt8(ascii: "\t"))
            Self.appendDigits(shape.key, to: &buffer)
            buffer.append(UInt8(ascii: "\n"))
        }
    }

    /// Writes the folded words of `texts` as `tsvector` lexemes, quoted and separated by spaces,
    /// the title's with weight `A` and the others' with `B`; PostgreSQL sorts them and merges
    /// repeats. Words too long to index are left out. Returns the title's shape, made from the same words.
    private func appendWords(of texts: [(text: UnsafeRawBufferPointer, isTitle: Bool)], to buffer: inout [UInt8]) throws -> TitleShape {
        var total = 0
        var shape = TitleShape()
        for (text, isTitle) in texts {
            let label = isTitle ? Self.titleLabel : Self.otherLabel
            try folder.forEachWord(in: text) { word in
                if isTitle { shape.add(word) }
                guard !word.isEmpty, word.count <= PostgresSchema.longestWord, total + word.count <= PostgresSchema.mostWordBytes else { return }
                if total > 0 { buffer.append(UInt8(ascii: " ")) }
                total += word.count + 1
                buffer.append(UInt8(ascii: "'"))
                Self.appendLexeme(word, to: &buffer)
                buffer.append(UInt8(ascii: "'"))
                buffer.append(contentsOf: label)
            }
        }
        return shape
    }

    private static let titleLabel = Array(":1A".utf8)
    private static let otherLabel = Array(":2B".utf8)

    /// `word` inside a quoted lexeme, in a `COPY` value: a quote doubled for the lexeme, a
    /// backslash doubled for the lexeme and again for `COPY`, and tab, newline and carriage return escaped for `COPY`.
    @inline(__always)
    static func appendLexeme(_ word: UnsafeRawBufferPointer, to buffer: inout [UInt8]) {
        guard word.contains(where: { $0 == 0x27 || $0 == 0x5C || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }) else {
            buffer.append(contentsOf: word)
            return
        }
        for byte in word {
            switch byte {
            case 0x27: buffer.append(contentsOf: [0x27, 0x27])  // ''
            case 0x5C: buffer.append(contentsOf: [0x5C, 0x5C, 0x5C, 0x5C])  // \\\\
            case 0x09: buffer.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0x0A: buffer.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: buffer.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            default: buffer.append(byte)
            }
        }
    }

    @inline(__always)
    static func appendEscaped(_ bytes: UnsafeRawBufferPointer, to buffer: inout [UInt8]) {
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 0x5C || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
            let escaped: UInt8 = switch byte {
            case 0x09: UInt8(ascii: "t")
            case 0x0A: UInt8(ascii: "n")
            case 0x0D: UInt8(ascii: "r")
            default: 0x5C
            }
            buffer.append(0x5C)
            buffer.append(escaped)
            start = index + 1
        }
        buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[start...]))
    }

    @inline(__always)
    static func appendDigits(_ number: Int64, to buffer: inout [UInt8]) {
        if number < 0 { buffer.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 20 digits at most, 24 bytes of room
        var count = 0
        withUnsafeMutableBytes(of: &digits) { room in
            repeat {
                room[23 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: room[(24 - count)...]))
        }
    }
}
