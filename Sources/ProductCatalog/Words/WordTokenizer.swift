import CSQLite

/// The word index's own tokenizer (FTS5's `unicode61 remove_diacritics 2`), called directly:
/// the words of a text exactly as the index stores them, lower-cased and without accents, runs
/// of Chinese and Japanese split into pairs of characters (``CJKBigrams``).
///
/// The search folds a query's words with it before looking them up among the index's terms,
/// and writers list the terms of the products they change; any other folding (Foundation's
/// case folding turns `ß` into `ss`, the tokenizer does not) would find other words.
final class WordTokenizer {
    private let connection: Connection
    private var tokenizer: fts5_tokenizer
    private let instance: OpaquePointer

    /// The tokenizer of the FTS5 built into the SQLite of `connection`.
    init(connection: Connection) throws {
        self.connection = connection
        var api: UnsafeMutablePointer<fts5_api>?
        let statement = try connection.prepare("SELECT fts5(?1)")
        try withUnsafeMutablePointer(to: &api) { pointer in
            try statement.bindPointer(1, pointer, type: fts5APIPointerType)
            _ = try statement.step()
        }
        guard let api, api.pointee.iVersion >= 2, let find = api.pointee.xFindTokenizer else {
            throw SQLiteError(extendedCode: SQLITE_ERROR, message: "this SQLite has no FTS5", sql: "SELECT fts5(?1)", path: connection.path)
        }
        var context: UnsafeMutableRawPointer?
        var tokenizer = fts5_tokenizer()
        try connection.check(find(api, "unicode61", &context, &tokenizer), sql: nil)
        guard let create = tokenizer.xCreate else {
            throw SQLiteError(extendedCode: SQLITE_ERROR, message: "FTS5 has no unicode61 tokenizer", path: connection.path)
        }
        var instance: OpaquePointer?
        let arguments = ["remove_diacritics", "2"]
        let code = arguments.withCStrings { create(context, $0, Int32(arguments.count), &instance) }
        guard code == SQLITE_OK, let instance else {
            throw SQLiteError(extendedCode: code, message: "cannot make the unicode61 tokenizer", path: connection.path)
        }
        self.tokenizer = tokenizer
        self.instance = instance
    }

    deinit {
        tokenizer.xDelete?(instance)
    }

    /// The tokens of `text`, as a document's words.
    func tokens(_ text: String) throws -> [String] {
        var tokens: [String] = []
        var text = text
        try text.withUTF8 { bytes in
            try forEachToken(in: UnsafeRawBufferPointer(bytes)) {
                tokens.append(String(decoding: $0, as: UTF8.self))
            }
        }
        return tokens
    }

    /// Calls `body` with the UTF-8 bytes of each token of `text` (valid only during the call), in order.
    func forEachToken(in text: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) -> Void) throws {
        guard let tokenize = tokenizer.xTokenize else { return }
        let flags = FTS5_TOKENIZE_DOCUMENT
        let code = withoutActuallyEscaping(body) { body in
            var body = body
            return withUnsafeMutablePointer(to: &body) { context in
                tokenize(instance, context, flags, text.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(text.count)) { context, _, token, count, _, _ in
                    guard let context, let token else { return SQLITE_OK }
                    let body = context.assumingMemoryBound(to: ((UnsafeRawBufferPointer) -> Void).self)
                    CJKBigrams.split(UnsafeRawBufferPointer(start: token, count: Int(count))) { piece, _ in body.pointee(piece) }
                    return SQLITE_OK
                }
            }
        }
        try connection.check(code, sql: nil)
    }

    /// Calls `body` with each token of `text` and the byte range of the text it came from, in order.
    func forEachTokenRange(in text: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer, Range<Int>) -> Void) throws {
        guard let tokenize = tokenizer.xTokenize else { return }
        let code = withoutActuallyEscaping(body) { body in
            var body = body
            return withUnsafeMutablePointer(to: &body) { context in
                tokenize(instance, context, FTS5_TOKENIZE_DOCUMENT, text.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(text.count)) { context, _, token, count, start, end in
                    guard let context, let token else { return SQLITE_OK }
                    let body = context.assumingMemoryBound(to: ((UnsafeRawBufferPointer, Range<Int>) -> Void).self)
                    let whole = Int(start)..<Int(end)
                    // A piece's own bytes when folding kept the token's length, else the whole token's.
                    let exact = whole.count == Int(count)
                    CJKBigrams.split(UnsafeRawBufferPointer(start: token, count: Int(count))) { piece, range in
                        body.pointee(piece, exact ? whole.lowerBound + range.lowerBound..<whole.lowerBound + range.upperBound : whole)
                    }
                    return SQLITE_OK
                }
            }
        }
        try connection.check(code, sql: nil)
    }
}

/// The type name FTS5 gives the pointer to its interface; SQLite keeps the pointer to this text, so it is never freed.
nonisolated(unsafe) private let fts5APIPointerType = UnsafePointer(cStringCopy("fts5_api_ptr"))

/// A C string with the bytes of `text`, which the caller frees.
private func cStringCopy(_ text: String) -> UnsafeMutablePointer<CChar> {
    let bytes = text.utf8CString
    let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
    bytes.withUnsafeBufferPointer { copy.initialize(from: $0.baseAddress!, count: bytes.count) }
    return copy
}

extension Array where Element == String {
    /// Calls `body` with the strings as a C array of C strings, valid only during the call.
    fileprivate func withCStrings<T>(_ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>) -> T) -> T {
        let copies = map(cStringCopy)
        defer { copies.forEach { $0.deallocate() } }
        var pointers: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) }
        return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }
}
