/// Where a product goes in the word index's order, and the key that finds its exact title.
///
/// A product's `wordRow` is its *class*, the number of words in its title (1 to 62; 63 for a
/// product the triggers added and no writer of this library has placed yet), shifted above its
/// *place*, a number given in productId order by a replacing import and in the order products
/// were added after it. So the index lists the products with the fewest title words first, and
/// among those keeps the catalog's order. The title key is a 64-bit hash (FNV-1a) of the title's
/// folded words, the same for `Black Jacket` and `black  JACKET!`.
struct WordPlacement {
    /// The bits of a word row that hold the place.
    static let placeBits: Int64 = 40
    static let placeMask: Int64 = (1 << placeBits) - 1
    /// The class of a product not yet placed: after every other.
    static let unplacedClass: Int64 = 63
    /// The highest class of a placed product; longer titles share it.
    static let maxClass: Int64 = 62

    /// The shape of a title: its class and its key.
    struct Shape {
        var wordClass: Int64
        var key: Int64
    }

    let tokenizer: WordTokenizer

    init(connection: Connection) throws {
        tokenizer = try WordTokenizer(connection: connection)
    }

    init(tokenizer: WordTokenizer) {
        self.tokenizer = tokenizer
    }

    static func row(class wordClass: Int64, place: Int64) -> Int64 {
        wordClass << placeBits | place
    }

    static func wordClass(of row: Int64) -> Int64 {
        row >> placeBits
    }

    static func place(of row: Int64) -> Int64 {
        row & placeMask
    }

    /// The shape of the title whose UTF-8 bytes are `title`.
    func shape(ofTitle title: UnsafeRawBufferPointer) throws -> Shape {
        var shape = TitleShape()
        try tokenizer.forEachToken(in: title) { shape.add($0) }
        return Shape(wordClass: shape.wordClass, key: shape.key)
    }

    func shape(ofTitle title: String) throws -> Shape {
        var title = title
        return try title.withUTF8 { try shape(ofTitle: UnsafeRawBufferPointer($0)) }
    }

    /// The key of a title made of these folded words.
    static func key(ofWords words: [String]) -> Int64 {
        var hash = hashStart
        for (index, word) in words.enumerated() {
            if index > 0 { hash = Self.hash(hash, 0x20) }
            for byte in word.utf8 { hash = Self.hash(hash, byte) }
        }
        return Int64(bitPattern: hash)
    }

    static let hashStart: UInt64 = 0xCBF2_9CE4_8422_2325

    @inline(__always)
    static func hash(_ hash: UInt64, _ byte: UInt8) -> UInt64 {
        (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
    }
}

/// A title's class and key (see ``WordFolder/titleShape(_:place:)``), made from its folded words
/// one by one, for a writer that folds the title's words anyway.
public struct TitleShape {
    private var count: Int64 = 0
    private var hash = WordPlacement.hashStart

    public init() {}

    /// Adds the title's next folded word.
    public mutating func add(_ word: UnsafeRawBufferPointer) {
        if count > 0 { hash = WordPlacement.hash(hash, 0x20) }
        for byte in word { hash = WordPlacement.hash(hash, byte) }
        count += 1
    }

    /// The number of words, 1 to 62.
    var wordClass: Int64 { min(max(count, 1), WordPlacement.maxClass) }

    /// The row of a product with this title at `place` in the word index's order.
    public func wordRow(place: Int64) -> Int64 { WordPlacement.row(class: wordClass, place: place) }

    /// The hash of the title's words.
    public var key: Int64 { Int64(bitPattern: hash) }
}
