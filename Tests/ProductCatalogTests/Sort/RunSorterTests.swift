import Testing
@testable import ProductCatalog
import TestSupport

@Suite struct RunSorterTests {
    /// Rows `id,line` in arenas of `perArena` rows, spilled through a sorter that merges every
    /// `width` runs of one generation.
    private func sort(ids: [String], perArena: Int, width: Int, policy: DuplicatePolicy, in directory: TemporaryDirectory) throws -> (runs: [any SortedRun], duplicates: Int) {
        var checker = ProductRowChecker(mapping: try HeaderMapping(header: ["sku", "name"]))
        let sorter = RunSorter(arenaCapacity: 1 << 16, policy: policy, pathPrefix: directory.file("sort"), mergeWidth: width)
        var arena = RowArena(capacity: 1 << 16)
        let reader = CSVReader(source: MemoryByteSource(Array(ids.enumerated().map { "\($1),line \($0 + 2)\n" }.joined().utf8)))
        var record = CSVRecord(byteCapacity: 64, fieldCapacity: 2)
        var line = 1
        while try reader.readRecord(into: &record) {
            line += 1
            if arena.entries.count == perArena { arena = try sorter.exchange(arena) }
            guard case .encoded = record.withFields({ checker.encode($0, malformation: nil, line: line, into: arena) }) else {
                Issue.record("line \(line) was not encoded")
                continue
            }
        }
        return try sorter.finish(last: arena)
    }

    /// 30 spilled arenas with a width of 4 leave 30 in base 4 (132) runs: one of 16 arenas, three
    /// of 4, two of one, and the last arena in memory; every row of the merge is the one the
    /// duplicate policy keeps, in order.
    @Test(arguments: [DuplicatePolicy.last, .first])
    func spilledRunsAreMergedAsTheyGoAndKeepWhatOneMergeWould(policy: DuplicatePolicy) throws {
        let directory = try TemporaryDirectory()
        var random = SeededRandomGenerator(seed: 7)
        let ids = (0..<31 * 10).map { _ in ["K", "k"].randomElement(using: &random)! + String(Int.random(in: 0..<120, using: &random)) }
        let (runs, duplicates) = try sort(ids: ids, perArena: 10, width: 4, policy: policy, in: directory)
        #expect(runs.count == 7)

        var kept: [String: Int] = [:]
        for (index, id) in ids.enumerated() where policy == .last || kept[id.lowercased()] == nil {
            kept[id.lowercased()] = index + 2
        }
        let merger = RowMerger(runs: runs, policy: policy)
        var merged: [(id: String, line: Int)] = []
        try merger.forEach { row in merged.append((String(decoding: row.key, as: UTF8.self).lowercased(), row.line)) }
        #expect(duplicates + merger.duplicates == ids.count - kept.count)
        #expect(merged.map(\.id) == kept.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(merged.allSatisfy { kept[$0.id] == $0.line })
    }
}
