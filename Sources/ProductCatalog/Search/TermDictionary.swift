/// The word index's terms in memory, sorted byte by byte, for finding the terms near a misspelt word.
///
/// The sorted list is a trie in disguise: the terms that start with a prefix are one range of it,
/// found by binary search. ``near(_:within:asPrefix:)`` walks that trie depth first, keeping a row
/// of the edit distance (Damerau's restricted form: insertion, deletion, substitution, or two
/// neighbouring characters swapped, each counting one) between the word and the path so far, and
/// leaves a branch as soon as every entry of the row passes the allowance. A million terms take
/// about 10 MB; a search loads them once, and again only when a write added terms
/// (``WordIndex/termsVersion(_:)``).
final class TermDictionary {
    /// The terms' bytes, one after another.
    private let bytes: [UInt8]
    /// Where each term starts in ``bytes``, and one past the last.
    private let starts: [Int32]
    /// The term list's version when it was read.
    let version: Int64

    /// Reads every term of the catalog's list.
    init(connection: Connection, version: Int64) throws {
        var bytes: [UInt8] = []
        var starts: [Int32] = [0]
        let statement = try connection.prepare("SELECT term FROM \(WordIndex.termsTable) ORDER BY term")
        while try statement.step() {
            statement.withBytes(at: 0) { bytes.append(contentsOf: $0) }
            starts.append(Int32(bytes.count))
        }
        self.bytes = bytes
        self.starts = starts
        self.version = version
    }

    /// How many terms there are.
    var count: Int { starts.count - 1 }

    /// A term or prefix found near a word, and how far from it.
    struct Near: Hashable {
        /// The folded term; with `asPrefix`, the start that every matching term begins with.
        var text: String
        var distance: Int
    }

    /// The terms within `allowance` edits of `word` (a folded word), each with its distance; with
    /// `asPrefix`, the shortest starts of terms within `allowance` edits of `word` instead, each
    /// standing for every term that begins with it.
    func near(_ word: String, within allowance: Int, asPrefix: Bool) -> [Near] {
        let target = Array(word.unicodeScalars)
        var found: [Near] = []
        // Row 0: the distance from each prefix of the word to the empty path.
        let first = Array(0...target.count)
        var path: [Unicode.Scalar] = []
        walk(low: 0, high: count, depth: 0, previous: nil, row: first, path: &path,
             target: target, allowance: allowance, asPrefix: asPrefix, found: &found)
        return found
    }

    private func walk(low: Int, high: Int, depth: Int, previous: [Int]?, row: [Int], path: inout [Unicode.Scalar],
                      target: [Unicode.Scalar], allowance: Int, asPrefix: Bool, found: inout [Near]) {
        var index = low
        while index < high {
            // A term that ends here is this path itself, listed by the caller.
            guard let (scalar, width) = scalar(ofTerm: index, at: depth) else {
                index += 1
                continue
            }
            let end = upperBound(low: index, high: high, depth: depth, width: width)
            path.append(scalar)
            var next = [Int](repeating: 0, count: target.count + 1)
            next[0] = row[0] + 1
            for column in stride(from: 1, through: target.count, by: 1) {
                let cost = target[column - 1] == scalar ? 0 : 1
                next[column] = min(row[column] + 1, next[column - 1] + 1, row[column - 1] + cost)
                // Two neighbouring characters swapped.
                if let previous, column > 1, path.count > 1, target[column - 1] == path[path.count - 2],
                   target[column - 2] == scalar {
                    next[column] = min(next[column], previous[column - 2] + 1)
                }
            }
            let distance = next[target.count]
            let best = next.min()!
            var deeper = best <= allowance
            if asPrefix, distance <= allowance {
                // Every term below starts within `distance`; go on only where a longer start comes closer.
                found.append(Near(text: String(String.UnicodeScalarView(path)), distance: distance))
                deeper = best < distance
            } else if !asPrefix, distance <= allowance, termEnds(index, at: depth + width) {
                found.append(Near(text: String(String.UnicodeScalarView(path)), distance: distance))
            }
            if deeper {
                walk(low: index, high: end, depth: depth + width, previous: row, row: next, path: &path,
                     target: target, allowance: allowance, asPrefix: asPrefix, found: &found)
            }
            path.removeLast()
            index = end
        }
    }

    /// The character of term `index` at byte `depth`, and its width in bytes; nil when the term ends there.
    private func scalar(ofTerm index: Int, at depth: Int) -> (Unicode.Scalar, Int)? {
        let start = Int(starts[index]) + depth
        let end = Int(starts[index + 1])
        guard start < end else { return nil }
        let lead = bytes[start]
        let width = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard start + width <= end else { return (Unicode.Scalar(lead), 1) }
        var value = UInt32(lead) & (width == 1 ? 0x7F : width == 2 ? 0x1F : width == 3 ? 0x0F : 0x07)
        for offset in 1..<width { value = value << 6 | UInt32(bytes[start + offset] & 0x3F) }
        return (Unicode.Scalar(value) ?? Unicode.Scalar(lead), width)
    }

    /// True when term `index` is exactly `length` bytes long.
    private func termEnds(_ index: Int, at length: Int) -> Bool {
        Int(starts[index + 1] - starts[index]) == length
    }

    /// The first term in `low..<high` whose bytes `0..<depth + width` differ from term `low`'s.
    private func upperBound(low: Int, high: Int, depth: Int, width: Int) -> Int {
        let prefixStart = Int(starts[low])
        let length = depth + width
        func samePrefix(_ index: Int) -> Bool {
            let start = Int(starts[index])
            guard Int(starts[index + 1]) - start >= length else { return false }
            for offset in 0..<length where bytes[start + offset] != bytes[prefixStart + offset] { return false }
            return true
        }
        var lowIndex = low + 1
        var highIndex = high
        while lowIndex < highIndex {
            let middle = (lowIndex + highIndex) / 2
            if samePrefix(middle) { lowIndex = middle + 1 } else { highIndex = middle }
        }
        return lowIndex
    }
}
