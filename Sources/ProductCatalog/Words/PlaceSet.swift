/// Places of the word index (``WordPlacement/placeMask`` of a row) as a bitmap: a search asks
/// whether each posting it steps over belongs to a product a later segment took (``DeadPlaces``), and a
/// hash set cost a hash at every step (8% of a keystroke on the realistic million with 1% of it
/// changed, `perf`); a bit costs a shift. One bit a place: 1.25 MB for ten million.
struct PlaceSet {
    private var words: [UInt64] = []
    private(set) var count = 0

    init() {}

    var isEmpty: Bool { count == 0 }

    mutating func insert(_ place: Int64) {
        precondition(place >= 0, "a place is not negative")
        let word = Int(place >> 6)
        if word >= words.count { words.append(contentsOf: repeatElement(0, count: word + 1 - words.count)) }
        let bit: UInt64 = 1 << UInt64(place & 63)
        if words[word] & bit == 0 {
            words[word] |= bit
            count += 1
        }
    }

    @inline(__always)
    func contains(_ place: Int64) -> Bool {
        let word = Int(place >> 6)
        return place >= 0 && word < words.count && words[word] & (1 << UInt64(place & 63)) != 0
    }
}
