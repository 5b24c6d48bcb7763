/// Which segments of the word index to merge next (``SegmentMerge``): neighbours of about one size,
/// so that each posting is merged a few times in its life (tiered, as Lucene's log merge policy
/// and tantivy's; neighbours only, so that a merged segment takes its inputs' place in the order).
///
/// - **Tiers.** A segment's tier is the number of times ``factor`` its postings are past
///   ``floor`` (every segment under it is tier 0). Once ``factor`` neighbours share a tier, they
///   are merged into one of the next: a write of 1,000 products (about 30,000 postings) is merged
///   with nine others at tier 0, those with nine others at tier 1, and so on, so the index keeps
///   about ``factor`` segments a tier, and a search reads that many lists a word more.
/// - **Too many.** Past ``most`` segments (writes of mixed sizes leave tiers interleaved), the
///   ``factor`` neighbours with the fewest postings are merged.
/// - **The base.** Once the segments of changes take ``baseShare`` of the base's products (hold
///   them again, delete them, or add as many), the base and every segment after it are merged into
///   a new base: the dead postings a search steps over then go.
struct MergePolicy: Sendable {
    /// Segments a merge joins.
    var factor = 10
    /// Postings under which every segment is of tier 0.
    var floor = 50_000
    /// Segments past which the smallest neighbours are merged whatever their tiers.
    var most = 24
    /// The share of the base's products the other segments take before the base is merged with them.
    var baseShare = 0.25

    /// Everything into one new base, whenever there is more than one segment (``CatalogEditor/mergeAllSegments(progress:)``).
    static let everything = MergePolicy(factor: 2, floor: 0, most: 0, baseShare: 0)

    func tier(_ entry: SegmentManifest.Entry) -> Int {
        var tier = 0
        var bound = floor
        while entry.postings > bound, tier < 12 {
            bound *= factor
            tier += 1
        }
        return tier
    }

    /// The segments to merge next (neighbours, oldest first), given the live ones (oldest first)
    /// and those a merge in progress takes already; nil when none is due.
    func nextMerge(_ entries: [SegmentManifest.Entry], busy: Set<Int64>) -> [SegmentManifest.Entry]? {
        guard let base = entries.first else { return nil }
        let changes = entries.dropFirst()
        // The base, once the changes take its share: with every segment after it up to the first a merge takes.
        let taken = changes.reduce(0) { $0 + $1.mentions }
        if !busy.contains(base.segment), changes.count > 0, Double(taken) >= baseShare * Double(max(base.products, 1)) {
            let run = Array(entries.prefix { !busy.contains($0.segment) })
            if run.count > 1 { return run }
        }
        // Runs of free neighbours after the base.
        var runs: [[SegmentManifest.Entry]] = [[]]
        for entry in changes {
            if busy.contains(entry.segment) { runs.append([]) } else { runs[runs.count - 1].append(entry) }
        }
        // The lowest tier with `factor` neighbours of it.
        var best: [SegmentManifest.Entry]?
        for run in runs {
            var start = 0
            while start < run.count {
                let level = tier(run[start])
                var end = start
                while end < run.count, tier(run[end]) == level { end += 1 }
                if end - start >= factor, best.map({ level < tier($0[0]) }) ?? true {
                    best = Array(run[start..<start + factor])
                }
                start = end
            }
        }
        if let best { return best }
        // Too many: the neighbours with the fewest postings.
        guard changes.count > most else { return nil }
        var smallest: (postings: Int, window: [SegmentManifest.Entry])?
        for run in runs where run.count >= factor {
            for start in 0...(run.count - factor) {
                let window = Array(run[start..<start + factor])
                let postings = window.reduce(0) { $0 + $1.postings }
                if smallest.map({ postings < $0.postings }) ?? true { smallest = (postings, window) }
            }
        }
        return smallest?.window
    }
}
