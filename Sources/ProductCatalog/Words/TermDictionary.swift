import Foundation

/// A term or start of terms found near a misspelt word, and how far from it (see ``WordPlan``).
public struct NearTerm: Hashable, Sendable {
    /// The folded term; for the last word of a query, the start that every matching term begins with.
    public var text: String
    /// The edits between it and the word: insertions, deletions, substitutions and swaps of neighbours.
    public var distance: Int
}

/// The word index's terms in memory, sorted byte by byte, for finding the terms near a misspelt word.
///
/// The sorted list is a trie in disguise: the terms that start with a prefix are one range of it,
/// found by binary search. ``near(_:within:asPrefix:)`` walks that trie depth first, keeping a row
/// of the edit distance (Damerau's restricted form: insertion, deletion, substitution, or two
/// neighbouring characters swapped, each counting one) between the word and the path so far, and
/// leaves a branch as soon as every entry of the row passes the allowance. Only the row's band
/// within the allowance of its diagonal is computed, and the trie's first levels, which every walk
/// visits whole, are laid out once as nodes (``laidOutLevels``). A million terms take
/// about 10 MB; a search loads them from the word index's term list once (``IndexSegment``),
/// and again only when the index is built anew.
final class TermDictionary: @unchecked Sendable {
    /// The terms' bytes, one after another.
    private let bytes: [UInt8]
    /// Where each term starts in ``bytes``, and one past the last.
    private let starts: [Int32]
    /// The longest term's length in bytes, the deepest the walk goes.
    private let longest: Int
    /// The version of the term list it was made from.
    let version: Int64
    /// The trie's first levels, laid out (``layOut(_:count:)``), and the root's children among them.
    private let branches: [Branch]
    private let root: Range<Int>
    /// The answers of ``nearKept(_:within:asPrefix:)`` lately, by word and allowance: typing a
    /// query looks its first words up again at every keystroke (ten long words took 30 ms a
    /// request on PostgreSQL without it).
    private var nearFound: [String: [Near]] = [:]
    /// Guards ``nearFound``, the one thing that changes: searches on several threads share a dictionary.
    private let lock = NSLock()

    /// The terms whose UTF-8 bytes follow one another in `bytes`, each starting at its entry of
    /// `starts` (which ends with `bytes.count`), sorted byte by byte.
    init(bytes: [UInt8], starts: [Int32], version: Int64) {
        self.bytes = bytes
        self.starts = starts
        longest = zip(starts, starts.dropFirst()).map { Int($1 - $0) }.max() ?? 0
        self.version = version
        (branches, root) = bytes.withUnsafeBufferPointer { bytes in
            starts.withUnsafeBufferPointer { starts in Self.layOut(TermRanges(bytes: bytes, starts: starts), count: starts.count - 1) }
        }
    }

    /// The bytes of term `index`.
    func withTerm<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[Int(starts[index])..<Int(starts[index + 1])])) }
    }

    /// The first term that does not come before `bytes`, byte by byte (``count`` when none).
    func firstTerm(notBefore bytes: [UInt8]) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if withTerm(middle, { $0.lexicographicallyPrecedes(bytes) }) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// How many terms there are.
    var count: Int { starts.count - 1 }

    typealias Near = NearTerm

    /// ``near(_:within:asPrefix:)``, kept for the next time the same word is asked (the last 1,024 words).
    func nearKept(_ word: String, within allowance: Int, asPrefix: Bool) -> [Near] {
        let key = "\(asPrefix ? "p" : "w")\(allowance)\u{0}" + word
        if let found = lock.withLock({ nearFound[key] }) { return found }
        let found = near(word, within: allowance, asPrefix: asPrefix)
        lock.withLock {
            if nearFound.count >= 1_024 { nearFound.removeAll() }
            nearFound[key] = found
        }
        return found
    }

    /// The terms within `allowance` edits of `word` (a folded word), each with its distance; with
    /// `asPrefix`, the shortest starts of terms within `allowance` edits of `word` instead, each
    /// standing for every term that begins with it.
    func near(_ word: String, within allowance: Int, asPrefix: Bool) -> [Near] {
        let target = word.unicodeScalars.map(\.value)
        let width = target.count + 1
        // One row of distances per character of the path, all in one buffer: the walk allocates nothing.
        var rows = [Int32](repeating: 0, count: (longest + 1) * width)
        var path = [UInt32](repeating: 0, count: longest)
        var found: [Near] = []
        rows.withUnsafeMutableBufferPointer { rows in
            path.withUnsafeMutableBufferPointer { path in
                target.withUnsafeBufferPointer { target in
                    bytes.withUnsafeBufferPointer { bytes in
                        starts.withUnsafeBufferPointer { starts in
                            branches.withUnsafeBufferPointer { branches in
                                // Row 0: the distance from each prefix of the word to the empty path.
                                for column in 0..<width { rows[column] = Int32(column) }
                                var walk = Walk(terms: TermRanges(bytes: bytes, starts: starts), branches: branches, target: target,
                                                rows: rows, path: path, allowance: Int32(allowance), asPrefix: asPrefix)
                                walk.descend(nodes: root, depth: 0, level: 0)
                                found = walk.found
                            }
                        }
                    }
                }
            }
        }
        return found
    }

    /// A node of the trie's first levels, laid out once (``TermDictionary/branches``): its character,
    /// the terms below it, and its children's nodes (none laid out when `childCount` is -1).
    private struct Branch {
        var scalar: UInt32
        /// The character's width in bytes.
        var width: Int32
        /// The terms that start with the node's path: `low..<end`.
        var low: Int32
        var end: Int32
        var children: Int32 = 0
        var childCount: Int32 = -1
    }

    /// How many levels of the trie are laid out: a walk within an allowance of `k` visits every node
    /// of the first `k + 1` levels (a path of `k` characters is never more than `k` edits from the
    /// word's start), and finding their children's ranges by search was a quarter of a keystroke.
    static let laidOutLevels = 3

    /// The trie's first ``laidOutLevels`` levels, breadth first: the root's children first.
    private static func layOut(_ terms: TermRanges, count: Int) -> (branches: [Branch], root: Range<Int>) {
        var branches: [Branch] = []
        var depths: [Int] = []
        /// Lays out the children of the path of `depth` bytes that `low..<high` share.
        func children(low: Int, high: Int, depth: Int) -> Range<Int> {
            let first = branches.count
            terms.forEachChild(low: low, high: high, depth: depth) { scalar, width, index, end in
                branches.append(Branch(scalar: scalar, width: Int32(width), low: Int32(index), end: Int32(end)))
                depths.append(depth + width)
            }
            return first..<branches.count
        }
        let root = children(low: 0, high: count, depth: 0)
        var level = root
        for _ in 1..<laidOutLevels {
            let next = branches.count
            for node in level {
                let laid = children(low: Int(branches[node].low), high: Int(branches[node].end), depth: depths[node])
                branches[node].children = Int32(laid.lowerBound)
                branches[node].childCount = Int32(laid.count)
            }
            level = next..<branches.count
        }
        return (branches, root)
    }

    /// The sorted terms' bytes, read as a trie: a node's character, and where its range of terms ends.
    private struct TermRanges {
        let bytes: UnsafeBufferPointer<UInt8>
        let starts: UnsafeBufferPointer<Int32>

        /// Calls `body` with each child of the path of `depth` bytes that the terms `low..<high`
        /// share: its character, the character's width in bytes, and its terms `index..<end`. A
        /// term that ends at the path is the path itself, and no child.
        @inline(__always)
        func forEachChild(low: Int, high: Int, depth: Int, _ body: (_ scalar: UInt32, _ width: Int, _ index: Int, _ end: Int) -> Void) {
            var index = low
            while index < high {
                guard let (scalar, width) = character(ofTerm: index, at: depth) else {
                    index += 1
                    continue
                }
                let end = upperBound(low: index, high: high, from: depth, length: depth + width)
                body(scalar, width, index, end)
                index = end
            }
        }

        /// The character of term `index` at byte `depth`, and its width in bytes; nil when the term ends there.
        func character(ofTerm index: Int, at depth: Int) -> (UInt32, Int)? {
            let start = Int(starts[index]) + depth
            let end = Int(starts[index + 1])
            guard start < end else { return nil }
            let lead = bytes[start]
            let width = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            guard start + width <= end else { return (UInt32(lead), 1) }
            var value = UInt32(lead) & (width == 1 ? 0x7F : width == 2 ? 0x1F : width == 3 ? 0x0F : 0x07)
            for offset in 1..<width { value = value << 6 | UInt32(bytes[start + offset] & 0x3F) }
            return (value, width)
        }

        /// The first term in `low..<high` whose first `length` bytes differ from term `low`'s; all
        /// of them share their first `depth` bytes.
        func upperBound(low: Int, high: Int, from depth: Int, length: Int) -> Int {
            let prefixStart = Int(starts[low])
            func samePrefix(_ index: Int) -> Bool {
                let start = Int(starts[index])
                guard Int(starts[index + 1]) - start >= length else { return false }
                for offset in depth..<length where bytes[start + offset] != bytes[prefixStart + offset] { return false }
                return true
            }
            // Gallop first: most ranges of the deeper levels hold a few terms.
            var lowIndex = low + 1
            var step = 1
            while lowIndex + step < high, samePrefix(lowIndex + step - 1) {
                lowIndex += step
                step *= 2
            }
            var highIndex = min(high, lowIndex + step)
            while lowIndex < highIndex {
                let middle = (lowIndex + highIndex) / 2
                if samePrefix(middle) { lowIndex = middle + 1 } else { highIndex = middle }
            }
            return lowIndex
        }
    }

    /// The depth-first walk of ``near(_:within:asPrefix:)`` over borrowed buffers.
    private struct Walk {
        let terms: TermRanges
        let branches: UnsafeBufferPointer<Branch>
        let target: UnsafeBufferPointer<UInt32>
        /// Row `level` holds the distances from each prefix of the target to the path's first `level` characters.
        let rows: UnsafeMutableBufferPointer<Int32>
        let path: UnsafeMutableBufferPointer<UInt32>
        let allowance: Int32
        let asPrefix: Bool
        var found: [Near] = []

        /// Walks the laid-out nodes `nodes`, children of the path's first `level` characters (`depth` bytes).
        mutating func descend(nodes: Range<Int>, depth: Int, level: Int) {
            for node in nodes {
                let branch = branches[node]
                let width = Int(branch.width)
                guard visit(branch.scalar, term: Int(branch.low), depth: depth, width: width, level: level) else { continue }
                if branch.childCount >= 0 {
                    let children = Int(branch.children)
                    descend(nodes: children..<children + Int(branch.childCount), depth: depth + width, level: level + 1)
                } else {
                    descend(low: Int(branch.low), high: Int(branch.end), depth: depth + width, level: level + 1)
                }
            }
        }

        /// Walks the terms `low..<high`, which share their first `depth` bytes (`level` characters, in `path`).
        ///
        /// ``TermRanges/forEachChild(low:high:depth:_:)``'s loop, written out: the walk through a
        /// closure that captures it was 5% slower a keystroke (realistic million, alternating).
        mutating func descend(low: Int, high: Int, depth: Int, level: Int) {
            var index = low
            while index < high {
                // A term that ends here is this path itself, listed by the caller.
                guard let (scalar, width) = terms.character(ofTerm: index, at: depth) else {
                    index += 1
                    continue
                }
                let end = terms.upperBound(low: index, high: high, from: depth, length: depth + width)
                if visit(scalar, term: index, depth: depth, width: width, level: level) {
                    descend(low: index, high: end, depth: depth + width, level: level + 1)
                }
                index = end
            }
        }

        /// Extends the path by `scalar` (`width` bytes; term `term`, the first below, is the
        /// shortest): its row of distances, what it finds, and whether to go deeper.
        private mutating func visit(_ scalar: UInt32, term: Int, depth: Int, width characterWidth: Int, level: Int) -> Bool {
            let width = target.count + 1
            let row = level * width
            let next = row + width
            path[level] = scalar
            rows[next] = rows[row] + 1
            var best = rows[next]
            // Only the band within the allowance of the diagonal: a cell further off is more
            // than the allowance, and the cells just outside the band are marked so.
            let first = max(1, level + 1 - Int(allowance)), last = min(width - 1, level + 1 + Int(allowance))
            if first > 1, first <= last { rows[next + first - 1] = allowance + 1 }
            var column = first
            while column <= last {
                let cost: Int32 = target[column - 1] == scalar ? 0 : 1
                var value = min(rows[row + column] + 1, rows[next + column - 1] + 1, rows[row + column - 1] + cost)
                // Two neighbouring characters swapped.
                if level > 0, column > 1, target[column - 1] == path[level - 1], target[column - 2] == scalar {
                    value = min(value, rows[row - width + column - 2] + 1)
                }
                rows[next + column] = value
                best = min(best, value)
                column += 1
            }
            if last + 1 < width, first <= last { rows[next + last + 1] = allowance + 1 }
            let distance = last == width - 1 && first <= last ? rows[next + width - 1] : allowance + 1
            if asPrefix, distance <= allowance {
                // Every term below starts within `distance`; go on only where a longer start comes closer.
                found.append(Near(text: text(level + 1), distance: Int(distance)))
                return best < distance
            }
            if !asPrefix, distance <= allowance, Int(terms.starts[term + 1] - terms.starts[term]) == depth + characterWidth {
                found.append(Near(text: text(level + 1), distance: Int(distance)))
            }
            return best <= allowance
        }

        /// The path's first `count` characters.
        private func text(_ count: Int) -> String {
            var scalars = String.UnicodeScalarView()
            for value in path[0..<count] { scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}") }
            return String(scalars)
        }
    }
}
