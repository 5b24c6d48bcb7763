import Testing
@testable import ProductCatalog
import TestSupport

@Suite struct SpillFileTests {
    private enum Item: Equatable {
        case byte(UInt8)
        case varInt(UInt64)
        case bytes([UInt8])
    }

    /// Random bytes, varints and runs of bytes (some longer than the buffer) written through a
    /// buffer of `capacity` bytes read back as written, whatever the buffer's size.
    @Test(arguments: [16, 64, 1 << 16])
    func readsBackWhatWasWritten(capacity: Int) throws {
        var random = SeededRandomGenerator(seed: UInt64(capacity))
        let directory = try TemporaryDirectory()
        let file = try SpillFile(path: directory.file("spill"), cutShort: "cut short", capacity: capacity)
        var model: [Item] = []
        for _ in 0..<3_000 {
            switch Int.random(in: 0..<3, using: &random) {
            case 0: model.append(.byte(UInt8.random(in: 0...255, using: &random)))
            case 1: model.append(.varInt(UInt64.random(in: 0...UInt64.max, using: &random) >> UInt64.random(in: 0...63, using: &random)))
            default: model.append(.bytes((0..<Int.random(in: 0...100, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }))
            }
        }
        for item in model {
            switch item {
            case .byte(let byte): try file.append(byte: byte)
            case .varInt(let value): try file.append(varInt: value)
            case .bytes(let bytes): try file.append(bytes)
            }
        }
        try file.finishWriting()
        for (index, item) in model.enumerated() {
            #expect(try !file.isAtEnd(), "item \(index)")
            switch item {
            case .byte: #expect(try Item.byte(file.readByte()) == item, "item \(index)")
            case .varInt: #expect(try Item.varInt(file.readVarInt()) == item, "item \(index)")
            case .bytes(let bytes):
                // A peek shows what the read then takes.
                #expect(try Array(file.peek(count: bytes.count)) == bytes, "item \(index)")
                #expect(try Item.bytes(Array(file.read(count: bytes.count))) == item, "item \(index)")
            }
        }
        #expect(try file.isAtEnd())
    }

    @Test func aReadPastTheEndSaysTheFileIsCutShort() throws {
        let directory = try TemporaryDirectory()
        let file = try SpillFile(path: directory.file("spill"), cutShort: "a run ends early", capacity: 16)
        try file.append([1, 2, 3])
        try file.append(byte: 0x80)
        try file.finishWriting()
        #expect(Array(try file.read(count: 3)) == [1, 2, 3])
        #expect(throws: ByteSourceError.self) { try file.readVarInt() }
        #expect(throws: ByteSourceError.self) { try file.read(count: 2) }
        // Fewer than asked at the end: the one byte left.
        #expect(Array(try file.peek(count: 4)) == [0x80])
    }
}
