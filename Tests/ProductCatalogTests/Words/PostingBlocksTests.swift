import Testing
import TestSupport
@testable @_spi(WordIndex) import ProductCatalog

/// The word index's lists in blocks against a naive model: every list read back whole, and every
/// skip lands on the first posting at or past its row, for random lists and block sizes.
@Suite struct PostingBlocksTests {
    /// Random lists: some empty, some a posting, some long with gaps of every size (a title class apart too).
    static func randomLists(_ random: inout SeededRandomGenerator, count: Int) -> [[Posting]] {
        (0..<count).map { _ in
            let length = [0, 1, 2, Int.random(in: 3...40), Int.random(in: 100...3_000)].randomElement(using: &random)!
            var row: Int64 = 0
            return (0..<length).map { _ in
                row += [1, Int64.random(in: 1...5), Int64.random(in: 1...100_000), 1 << 40].randomElement(using: &random)!
                return Posting(row: row, fields: UInt8.random(in: 1...7, using: &random))
            }
        }
    }

    /// `lists` written into blocks of `capacity` bytes, with where each list's first run starts (nil for an empty one).
    static func written(_ lists: [[Posting]], capacity: Int) throws -> (MemoryPostingStore, [(block: Int, offset: Int)?]) {
        var store = MemoryPostingStore()
        var starts: [(block: Int, offset: Int)?] = []
        var writer = PostingBlocks.Writer(capacity: capacity) { block, data, entry in
            #expect(data.count <= capacity)
            store.keep(block, data, entry)
        }
        for (list, postings) in lists.enumerated() {
            for (index, posting) in postings.enumerated() {
                try writer.add(posting, to: list)
                if index == 0 { starts.append(writer.runStart) }
            }
            if postings.isEmpty { starts.append(nil) }
        }
        try writer.finish()
        return (store, starts)
    }

    @Test(arguments: [32, 64, 200, 4_000])
    func everyListReadsBackWholeAndSkipsLandWhereTheModelSays(capacity: Int) throws {
        var random = SeededRandomGenerator(seed: UInt64(capacity))
        let lists = Self.randomLists(&random, count: 60)
        let (store, starts) = try Self.written(lists, capacity: capacity)
        for (list, postings) in lists.enumerated() {
            guard let start = starts[list] else { continue }
            var cursor = try PostingCursor(list: list, firstBlock: start.block, offset: start.offset, store: store)
            var read: [Posting] = []
            while let posting = cursor.current {
                read.append(posting)
                try cursor.next()
            }
            #expect(read == postings, "list \(list)")
            // Skips: forward only, each to a random row, against the first posting at or past it.
            var skipping = try PostingCursor(list: list, firstBlock: start.block, offset: start.offset, store: store)
            var target: Int64 = 0
            for _ in 0..<30 {
                target += Int64.random(in: 0...(postings.last!.row / 10 + 2), using: &random)
                let expected = postings.first { $0.row >= target }
                #expect(try skipping.advance(to: target) == expected, "list \(list) to \(target)")
                if expected == nil { break }
                if Bool.random(using: &random), let next = postings.first(where: { $0.row > expected!.row }) {
                    #expect(try skipping.next() == next)
                    target = next.row
                }
            }
            // Then on to the end: the rest of a block a skip read in part, and the blocks after.
            if let landed = skipping.current {
                var rest: [Posting] = []
                while let posting = skipping.current {
                    rest.append(posting)
                    try skipping.next()
                }
                #expect(rest == Array(postings.drop { $0.row < landed.row }), "list \(list) read on from \(landed.row)")
            }
        }
    }

    @Test func aBlockIsItsFirstListThenRunsEndedByZero() throws {
        var blocks: [[UInt8]] = []
        var writer = PostingBlocks.Writer(capacity: 64) { _, data, _ in blocks.append(data) }
        try writer.add(Posting(row: 3, fields: Posting.title), to: 2)
        try writer.add(Posting(row: 5, fields: Posting.brand | Posting.title), to: 2)
        try writer.add(Posting(row: 1, fields: Posting.productType), to: 4)
        try writer.finish()
        // list 2; run +0: 3<<3|1, 2<<3|3, end; run +2: 1<<3|4, end.
        #expect(blocks == [[2, 0, 25, 19, 0, 2, 12, 0]])
        #expect(VarInt.size(127) == 1 && VarInt.size(128) == 2 && VarInt.size(UInt64.max) == 10)
        var bytes: [UInt8] = []
        VarInt.append(UInt64.max, to: &bytes)
        var offset = 0
        #expect(bytes.withUnsafeBytes { VarInt.read($0, at: &offset) } == UInt64.max && offset == 10)
    }
}

/// The term list against a naive model: random terms and starts read back from their stream,
/// looked up, and ranged by their starts.
@Suite struct TermListTests {
    static let alphabet: [String] = ["a", "b", "é", "ß", "z", "0", "ж", "日"]

    @Test func aTermListReadsBackAndAnswersAsAScanWould() throws {
        var random = SeededRandomGenerator(seed: 44)
        let terms = Set((0..<800).map { _ in (0..<Int.random(in: 1...7, using: &random)).map { _ in Self.alphabet.randomElement(using: &random)! }.joined() })
            .map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        let starts = Set(terms.flatMap { TermList.starts(of: $0).map(Array.init) }).sorted { $0.lexicographicallyPrecedes($1) }
        let names = terms + starts
        let list = TermList(names: names, products: names.indices.map { $0 * 7 % 1_000 }, firstBlocks: names.indices.map { $0 / 3 + 1 },
                            offsets: names.indices.map { $0 % 4_000 }, termCount: terms.count)
        for capacity in [16, 100, 4_000] {
            let read = try TermList(stream: list.encoded(blockCapacity: capacity).flatMap { $0 })
            #expect(read.count == names.count && read.termCount == terms.count)
            for index in names.indices {
                #expect(read.withName(index) { Array($0) } == names[index])
                #expect(read.products(index) == index * 7 % 1_000 && read.firstBlock(index) == index / 3 + 1 && read.firstOffset(index) == index % 4_000)
            }
        }
        for (index, term) in terms.enumerated() { #expect(list.list(ofTerm: term) == index) }
        for (index, start) in starts.enumerated() { #expect(list.list(ofStart: start) == terms.count + index) }
        #expect(list.list(ofTerm: Array("nope".utf8)) == nil && list.list(ofStart: Array("q".utf8)) == nil)
        for probe in starts + [Array("zzz".utf8), [], Array("a".utf8) + [0xFF]] {
            let expected = terms.indices.filter { terms[$0].starts(with: probe) }
            #expect(Array(list.terms(startingWith: probe)) == expected, "\(String(decoding: probe, as: UTF8.self))")
        }
        // Starts are whole characters: é is two bytes, 日 three.
        #expect(TermList.starts(of: Array("é日ab".utf8)).map { String(decoding: $0, as: UTF8.self) } == ["é", "é日", "é日a"])
    }

    @Test func blocksInSQLiteReadAsInMemory() throws {
        var random = SeededRandomGenerator(seed: 45)
        let lists = PostingBlocksTests.randomLists(&random, count: 40)
        let directory = try TemporaryDirectory()
        let connection = try Connection(path: directory.file("words.sqlite"))
        let appender = try SQLitePostingStore.Appender(connection: connection)
        var memory = MemoryPostingStore()
        var starts: [(block: Int, offset: Int)] = []
        var writer = PostingBlocks.Writer(capacity: 300) { block, data, entry in
            try appender.append(block, data, entry)
            memory.keep(block, data, entry)
        }
        for (list, postings) in lists.enumerated() {
            for (index, posting) in postings.enumerated() {
                try writer.add(posting, to: list)
                if index == 0 { starts.append(writer.runStart) }
            }
            if postings.isEmpty { starts.append((0, 0)) }
        }
        try writer.finish()
        let store = try SQLitePostingStore(connection: connection)
        for (list, postings) in lists.enumerated() where !postings.isEmpty {
            var cursor = try PostingCursor(list: list, firstBlock: starts[list].block, offset: starts[list].offset, store: store)
            var read: [Posting] = []
            while let posting = cursor.current {
                read.append(posting)
                try cursor.next()
            }
            #expect(read == postings, "list \(list)")
            for row in [postings[postings.count / 2].row, postings.last!.row + 1] {
                #expect(try store.block(of: list, atOrBefore: row) == memory.block(of: list, atOrBefore: row))
            }
        }
    }
}

/// The postings builder against a naive inverted index of the same products: every term's and
/// every start's list, read back from the blocks, is the model's.
@Suite struct PostingsBuilderTests {
    @Test func everyListIsTheNaiveIndexs() throws {
        var random = SeededRandomGenerator(seed: 46)
        // Starts of four characters of many terms (`schw`, and `écru` folded) have lists of their own, of few (`blau`) not.
        let words = ["Linen", "linen", "Lin", "shirt", "Shirts", "Café", "cafe", "ÉCRU", "Navy", "na", "blue", "x", "Ærø", "日本", "t-shirt", "schw"]
            + PostingSegmentTests.manyTerms(of: "schw", TermList.manyTerms + 30) + PostingSegmentTests.manyTerms(of: "Écru", TermList.manyTerms + 40)
            + PostingSegmentTests.manyTerms(of: "blau", TermList.manyTerms - 1)
        let folder = try WordFolder()
        var builder = try PostingsBuilder()
        var model: [String: [Int64: UInt8]] = [:]
        var startModel: [String: [Int64: UInt8]] = [:]
        var row: Int64 = 0
        for _ in 0..<3_000 {
            // Rows in place order within a class; classes interleave, as an import's do.
            row += Int64.random(in: 1...3, using: &random)
            let wordRow = Int64.random(in: 1...4, using: &random) << 40 | row
            let fields: [String?] = (0..<3).map { _ in
                Bool.random(using: &random) ? nil : (0..<Int.random(in: 1...4, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
            }
            for (index, field) in fields.enumerated() {
                for term in try field.map(folder.words) ?? [] {
                    model[term, default: [:]][wordRow, default: 0] |= Posting.field(index)
                    for start in TermList.starts(of: Array(term.utf8), upTo: TermList.longStartLength) {
                        startModel[String(decoding: start, as: UTF8.self), default: [:]][wordRow, default: 0] |= Posting.field(index)
                    }
                }
            }
            var utf8 = fields.map { $0.map { Array($0.utf8) } }
            try Self.withViews(&utf8) { try builder.add(row: wordRow, fields: $0) }
        }
        // A start of four characters is listed when more than `manyTerms` terms have it.
        for start in startModel.keys where start.count == TermList.longStartLength {
            if model.keys.filter({ $0.hasPrefix(start) }).count <= TermList.manyTerms { startModel[start] = nil }
        }
        #expect(startModel["schw"] != nil && startModel["ecru"] != nil && startModel["blau"] == nil && model.keys.contains("blau1"))
        var store = MemoryPostingStore()
        var writer = PostingBlocks.Writer(capacity: 120) { store.keep($0, $1, $2) }
        let terms = try builder.write(to: &writer)
        try writer.finish()
        #expect(terms.termCount == model.count && terms.count == model.count + startModel.count)
        func read(_ list: Int) throws -> [Posting] {
            var cursor = try terms.cursor(list, store: store)
            var postings: [Posting] = []
            while let posting = cursor.current { postings.append(posting); try cursor.next() }
            return postings
        }
        func expected(_ rows: [Int64: UInt8]) -> [Posting] { rows.sorted { $0.key < $1.key }.map { Posting(row: $0.key, fields: $0.value) } }
        for (term, rows) in model {
            let list = try #require(terms.list(ofTerm: Array(term.utf8)), "\(term)")
            #expect(try read(list) == expected(rows), "\(term)")
            #expect(terms.products(list) == rows.count)
        }
        for (start, rows) in startModel {
            let list = try #require(terms.list(ofStart: Array(start.utf8)), "\(start)")
            #expect(try read(list) == expected(rows), "\(start)")
        }
    }

    /// Calls `body` with raw views of `fields`.
    static func withViews(_ fields: inout [[UInt8]?], _ body: ([UnsafeRawBufferPointer?]) throws -> Void) rethrows {
        var views: [UnsafeRawBufferPointer?] = []
        func step(_ index: Int) throws {
            guard index < fields.count else { return try body(views) }
            guard fields[index] != nil else { views.append(nil); try step(index + 1); return }
            try fields[index]!.withUnsafeBytes { views.append($0); try step(index + 1) }
        }
        try step(0)
    }
}

/// Segments spilled and merged against the same products built in one piece, and the place map
/// against a sorted list of productIds.
@Suite struct PostingSegmentTests {
    /// Every list of `terms` over `store`, by name.
    static func lists(_ terms: TermList, _ store: MemoryPostingStore) throws -> [String: [Posting]] {
        var lists: [String: [Posting]] = [:]
        for list in 0..<terms.count {
            var cursor = try terms.cursor(list, store: store)
            var postings: [Posting] = []
            while let posting = cursor.current { postings.append(posting); try cursor.next() }
            lists[(list < terms.termCount ? "t:" : "s:") + terms.name(list)] = postings
        }
        return lists
    }

    /// `count` terms that start with `start`.
    static func manyTerms(of start: String, _ count: Int) -> [String] {
        (0..<count).map { "\(start)\($0)" }
    }

    /// Segments with their starts of four characters, or (`derivingLongStarts`) without them, the
    /// lists of those of many terms then made by the merge from the terms' (``LongStartLists``,
    /// spilling past 7 postings), merge into what one build with every start makes.
    @Test(arguments: [(1, false), (2, false), (5, false), (13, false), (1, true), (3, true), (13, true)])
    func segmentsMergeIntoWhatOneBuildMakes(segmentCount: Int, derivingLongStarts: Bool) throws {
        var random = SeededRandomGenerator(seed: UInt64(segmentCount))
        let words = ["linen", "lint", "li", "shirt", "shoe", "sh", "café", "ß", "日本", "z", "zebra", "zed", "schw", "schwa"]
            + Self.manyTerms(of: "schw", TermList.manyTerms + 30) + Self.manyTerms(of: "zebr", TermList.manyTerms - 2) + Self.manyTerms(of: "lin", 40)
        let products: [(row: Int64, fields: [String?])] = (1...3_000).map { place in
            (Int64.random(in: 1...5, using: &random) << 40 | Int64(place), (0..<3).map { _ in
                Bool.random(using: &random) ? nil : (0..<Int.random(in: 1...3, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
            })
        }
        func add(_ product: (row: Int64, fields: [String?]), to builder: inout PostingsBuilder) throws {
            var utf8 = product.fields.map { $0.map { Array($0.utf8) } }
            try PostingsBuilderTests.withViews(&utf8) { try builder.add(row: product.row, fields: $0) }
        }
        var whole = try PostingsBuilder()
        for product in products { try add(product, to: &whole) }
        var wholeStore = MemoryPostingStore()
        var wholeWriter = PostingBlocks.Writer(capacity: 200) { wholeStore.keep($0, $1, $2) }
        let wholeTerms = try whole.write(to: &wholeWriter)
        try wholeWriter.finish()

        let directory = try TemporaryDirectory()
        var segments: [PostingSegment] = []
        let size = (products.count + segmentCount - 1) / segmentCount
        // One builder for every segment, emptied after each, as an import's is.
        var builder = try PostingsBuilder(withLongStarts: !derivingLongStarts)
        for (number, start) in stride(from: 0, to: products.count, by: size).enumerated() {
            for product in products[start..<min(start + size, products.count)] { try add(product, to: &builder) }
            segments.append(try PostingSegment(writing: &builder, path: directory.file("segment\(number)")))
            builder.removeAll()
        }
        var store = MemoryPostingStore()
        var writer = PostingBlocks.Writer(capacity: 200) { store.keep($0, $1, $2) }
        let terms = try PostingSegment.merge(segments, into: &writer, longStartsPath: derivingLongStarts ? directory.file("long") : nil,
                                             longStartsBudget: 7)
        try writer.finish()
        #expect(terms.list(ofStart: Array("schw".utf8)) != nil && terms.list(ofStart: Array("zebr".utf8)) == nil)
        #expect(terms.list(ofStart: Array("lint".utf8)) == nil && terms.list(ofStart: Array("lin".utf8)) != nil)
        #expect(terms.termCount == wholeTerms.termCount && terms.count == wholeTerms.count)
        #expect(try Self.lists(terms, store) == Self.lists(wholeTerms, wholeStore))
        for list in 0..<terms.count { #expect(terms.products(list) == wholeTerms.products(list)) }
    }

    @Test func thePlaceMapFindsProductsByPlaceAndPlacesByProduct() throws {
        var random = SeededRandomGenerator(seed: 47)
        let ids = Set((0..<2_000).map { _ in "P-" + String(Int.random(in: 0..<1_000_000, using: &random)) + (Bool.random(using: &random) ? "x" : "") })
            .sorted { $0.utf8.map(ProductIdOrder.fold).lexicographicallyPrecedes($1.utf8.map(ProductIdOrder.fold)) }
        let directory = try TemporaryDirectory()
        let connection = try Connection(path: directory.file("places.sqlite"))
        try connection.execute(PlaceMap.createStatement)
        let insert = try connection.prepare("INSERT INTO \(PlaceMap.table) (place, firstId, data) VALUES (?1, ?2, ?3)")
        var writer = PlaceMap.Writer(capacity: 120) { place, firstId, data in
            try insert.using {
                try insert.bind(1, place)
                try insert.bind(2, utf8: firstId)
                try insert.bind(3, blob: data)
                _ = try insert.step()
            }
        }
        for (index, id) in ids.enumerated() {
            var id = id
            #expect(try id.withUTF8 { try writer.add(UnsafeRawBufferPointer($0)) } == Int64(index + 1))
        }
        try writer.finish()
        let reader = try PlaceMap.Reader(connection: connection)
        // Sampled first (no row kept yet: decoded up to the place), then by the kept rows, then sampled again.
        let sampled = try PlaceMap.Reader(connection: connection)
        for (index, id) in ids.enumerated().shuffled(using: &random).prefix(500) {
            #expect(try sampled.productId(atSampled: Int64(index + 1)) == id)
            #expect(try reader.productId(at: Int64(index + 1)) == id)
            #expect(try reader.productId(atSampled: Int64(index + 1)) == id)
            #expect(try reader.place(of: id.lowercased()) == Int64(index + 1))
        }
        #expect(try reader.productId(at: Int64(ids.count + 1)) == nil && reader.place(of: "NOPE") == nil && reader.place(of: "A") == nil)
        #expect(try sampled.productId(atSampled: Int64(ids.count + 1)) == nil && sampled.productId(atSampled: 0) == nil)
    }
}
