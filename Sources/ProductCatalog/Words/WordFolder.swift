/// The words of a text as the catalog's word index keeps them: cut at every character that is not
/// a letter or digit, lower-cased and without accents (`Café Olé T-Shirt` is `cafe`, `ole`, `t`, `shirt`).
///
/// For a store that keeps its own word index, such as PostgreSQL's, so that it finds what a
/// catalog file finds: the folding is the file's index tokenizer (FTS5 `unicode61
/// remove_diacritics 2`), run on an in-memory SQLite connection of the folder's own. A folder
/// belongs to one thread or task at a time.
public final class WordFolder {
    private let tokenizer: WordTokenizer

    /// The product fields whose words a catalog's word index holds: title, brand and type.
    public static let indexedFields: [ProductField] = WordLists.fields

    public init() throws {
        tokenizer = try WordTokenizer(connection: Connection(path: ":memory:"))
    }

    /// The words of `text`, folded, in order, repeats included.
    public func words(in text: String) throws -> [String] {
        try tokenizer.tokens(text)
    }

    /// The words of `text` (UTF-8), each passed to `body` as bytes valid only during the call.
    public func forEachWord(in text: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) throws {
        try tokenizer.forEachToken(in: text, body)
    }

    /// Where `product`'s title, brand and type hold the words of `plan`, as a catalog file's search marks them.
    public func highlights(of product: Product, plan: WordPlan) throws -> Highlights {
        try plan.highlights(of: product, tokenizer: tokenizer)
    }

    /// The place of a product in the word index's order (see ``WordTier``): the number of words
    /// in its title (1 to 62) shifted above `place`, its place among the catalog's products.
    /// With `title`'s key, a hash of its folded words, which finds the products whose title is
    /// exactly a query (see ``WordPlan/exactKey``).
    public func titleShape(_ title: UnsafeRawBufferPointer, place: Int64) throws -> (wordRow: Int64, key: Int64) {
        let shape = try WordPlacement(tokenizer: tokenizer).shape(ofTitle: title)
        return (WordPlacement.row(class: shape.wordClass, place: place), shape.key)
    }

    /// ``titleShape(_:place:)`` of a string.
    public func titleShape(_ title: String, place: Int64) throws -> (wordRow: Int64, key: Int64) {
        var title = title
        return try title.withUTF8 { try titleShape(UnsafeRawBufferPointer($0), place: place) }
    }

    /// The bits of a word row below its title's class: its place.
    public static let placeMask = WordPlacement.placeMask
}
