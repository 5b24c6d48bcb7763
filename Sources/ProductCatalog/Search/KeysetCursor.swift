import Foundation

/// Where the next page of a search starts: just after the last product of the page before.
///
/// A search lists productId matches first, in productId order, then word matches tier by tier
/// (see ``ProductSearch/page(query:filters:after:limit:)``); the cursor holds the last productId
/// or, among word matches, the last one's bucket and place in the word index. Its text form is
/// opaque (base64url) so that people pass it back unchanged.
public struct KeysetCursor: Sendable, Hashable, CustomStringConvertible {
    /// The last productId of the previous page; empty when that page ended among word matches.
    public var lastProductId: String
    /// The place in the word index of the previous page's last word match, when it ended among them.
    public var lastWordRow: Int64?
    /// The bucket of the previous page's last word match (see ``wordBucket``), with ``lastWordRow``.
    public var lastWordTier: Int?
    /// The build of the catalog file's word index the word row is a position in (``WordLists``'s
    /// `version`: a replacing import makes a new one, merges of its segments do not): a cursor of
    /// another build names a position that means nothing there (``CursorOfAnotherBuild``). Nil
    /// for PostgreSQL's, and for cursors made before it was written into them.
    public var wordBuild: Int64?
    /// Where the previous page of a sorted search ended (see ``SearchSort``).
    public var sortPosition: SortPosition?

    public init(after productId: String) {
        lastProductId = productId
        lastWordRow = nil
    }

    /// A cursor after the word match at `wordRow` in the bucket `code` of the ranking rules
    /// (see ``wordBucket``; bucket 0, row 0: before the first word match).
    public init(afterWordBucket code: Int, row wordRow: Int64, build: Int64? = nil) {
        lastProductId = ""
        lastWordRow = wordRow
        lastWordTier = code
        wordBuild = build
    }

    /// Where among word matches the next page of a catalog file's search starts: a bucket of the
    /// ranking rules and a word row.
    var bucketPosition: (rank: MatchRank, row: Int64)? {
        guard let lastWordRow, let rank = MatchRank(code: lastWordTier ?? 0) else { return nil }
        return (rank, lastWordRow)
    }

    /// The previous page's last word match, when it ended among them: its bucket of the ranking
    /// rules (typos × 4 + where the words are: 0 an exact title, 1 every word in the title, 2
    /// every word starting a title word, 3 in any field; see ``SearchSort/relevance``) and its
    /// word row. Both engines read and write it alike.
    public var wordBucket: (code: Int, row: Int64)? {
        guard let lastWordRow else { return nil }
        return (lastWordTier ?? 0, lastWordRow)
    }

    /// A cursor after `position` in a sorted search.
    public init(after position: SortPosition) {
        lastProductId = ""
        sortPosition = position
    }

    /// Reads a cursor produced by ``description``; nil when `text` is not one.
    public init?(_ text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard !text.isEmpty, let data = Data(base64Encoded: base64), let key = String(data: data, encoding: .utf8)
        else { return nil }
        // A productId holds no control character, so a leading NUL marks a place among word matches.
        if key.hasPrefix(Self.sortMarker) {
            // sort, kind, value, productId: a productId holds no U+0001, so it follows the last one.
            let body = key.dropFirst(Self.sortMarker.count)
            let parts = body.split(separator: "\u{1}", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, let sort = SearchSort(rawValue: String(parts[0])),
                  let lastSeparator = parts[2].lastIndex(of: "\u{1}") else { return nil }
            let valueText = String(parts[2][..<lastSeparator])
            let productId = String(parts[2][parts[2].index(after: lastSeparator)...])
            let value: SortPosition.SortValue?
            switch parts[1] {
            case "n": guard let number = Int64(valueText) else { return nil }; value = .number(number)
            case "t": value = .text(valueText)
            case "-": value = nil
            default: return nil
            }
            self.init(after: SortPosition(sort: sort, value: value, productId: productId))
        } else if key.hasPrefix(Self.wordMarker) {
            let parts = key.dropFirst(Self.wordMarker.count).split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2 || parts.count == 3, let tier = Int(parts[0]), (0..<16).contains(tier),
                  let row = Int64(parts[1]), row >= 0 else { return nil }
            var build: Int64?
            if parts.count == 3 {
                guard let number = Int64(parts[2]) else { return nil }
                build = number
            }
            self.init(afterWordBucket: tier, row: row, build: build)
        } else {
            self.init(after: key)
        }
    }

    /// The opaque text to hand back for the next page.
    public var description: String {
        let key = lastWordRow.map { Self.wordMarker + String(lastWordTier ?? 0) + "." + String($0) + (wordBuild.map { "." + String($0) } ?? "") }
            ?? sortPosition.map { position in
                let value = switch position.value {
                case .number(let number)?: "n\u{1}\(number)"
                case .text(let text)?: "t\u{1}" + text
                case nil: "-\u{1}"
                }
                return Self.sortMarker + position.sort.rawValue + "\u{1}" + value + "\u{1}" + position.productId
            }
            ?? lastProductId
        return Data(key.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static let wordMarker = "\u{0}w"
    private static let sortMarker = "\u{0}s"
}

/// A cursor made on another build of a catalog file's word index than the one the search reads:
/// a replacing import has given every product its place anew since, so the position it names
/// means nothing now. Searching again from the first page reads the new catalog.
public struct CursorOfAnotherBuild: Error, Sendable, Equatable {
    /// The build the cursor was made on, and the catalog's now.
    public var cursorBuild: Int64
    public var catalogBuild: Int64
}
