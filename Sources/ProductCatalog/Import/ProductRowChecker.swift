/// Checks one CSV record against the catalog's rules and encodes it for the sorted runs.
///
/// Fields are read straight from the record's bytes (no `String` per field); prices are parsed
/// from bytes into integer cents. A record that breaks a rule is not encoded: the checker returns
/// the reason, in words, for the rejects file.
struct ProductRowChecker {
    /// One statement parameter: which field of the record feeds it, and how.
    struct Slot {
        var column: Int
        var columnName: String
        var isPrice: Bool
    }

    /// In parameter order: productId first.
    let slots: [Slot]
    /// For each slot, whether it is a price: what ``EncodedRow/bind(to:firstParameter:kinds:)`` needs.
    let priceSlots: [Bool]
    let header: [String]
    /// Scratch space for the prices of the record being checked.
    private var cents: [Int64]
    /// The slots of the list and the sale price, when the file has both.
    private let salePriceSlots: (list: Int, sale: Int)?
    /// Rows rejected because a field is not valid UTF-8: a sign of a file in another encoding.
    private(set) var invalidUTF8Rows = 0

    init(mapping: HeaderMapping) {
        var slots: [Slot] = []
        for field in ProductField.allCases {
            guard let column = mapping.fieldColumns[field] else { continue }
            slots.append(Slot(column: column, columnName: field.columnName, isPrice: field.isPrice))
        }
        for extra in mapping.extras {
            slots.append(Slot(column: extra.index, columnName: extra.name, isPrice: false))
        }
        self.slots = slots
        priceSlots = slots.map(\.isPrice)
        header = mapping.header
        cents = Array(repeating: 0, count: slots.count)
        if let list = slots.firstIndex(where: { $0.columnName == ProductField.listPrice.columnName }),
           let sale = slots.firstIndex(where: { $0.columnName == ProductField.salesPrice.columnName }) {
            salePriceSlots = (list, sale)
        } else {
            salePriceSlots = nil
        }
    }

    /// The catalog columns the statement fills, in parameter order.
    var columnNames: [String] { slots.map(\.columnName) }

    /// Checks `fields`; when they pass, encodes them (with `line`) into `arena` and returns nil.
    ///
    /// Returns the reason when the record is rejected, and ``Outcome/arenaFull`` when the record
    /// is fine but the arena has no room: spill the arena and call again.
    @inline(__always)
    mutating func encode(
        _ fields: CSVRecord.Fields, malformation: CSVMalformation?, line: Int, into arena: RowArena
    ) -> Outcome {
        if let malformation { return .rejected(malformation.description) }
        guard fields.count == header.count else {
            return .rejected("expected \(header.count) fields as in the header, found \(fields.count)")
        }
        if !TextValidation.isPlainASCII(fields.allBytes), let reason = textProblem(in: fields) {
            return .rejected(reason)
        }
        if let problem = ProductRules.problem(inProductId: ProductRules.trimmed(fields[slots[0].column])) {
            return .rejected(problem.reason)
        }

        var size = EncodedRow.headerSize
        for (index, slot) in slots.enumerated() {
            let bytes = ProductRules.trimmed(fields[slot.column])
            if slot.isPrice {
                switch Price.parse(bytes) {
                case nil:
                    cents[index] = -1
                    size += 4
                case .price(let price)?:
                    cents[index] = price.cents
                    size += 12
                case .failure(let failure)?:
                    return .rejected("\(header[slot.column]) \(Self.quoted(bytes)): \(failure)")
                }
            } else {
                size += 4 + bytes.count
            }
        }
        if let (list, sale) = salePriceSlots, cents[sale] > cents[list], cents[list] >= 0 {
            return .rejected("the sale price (\(Price(cents: cents[sale]))) is above the list price (\(Price(cents: cents[list])))")
        }
        guard let start = arena.reserve(size) else { return .arenaFull }
        start.storeBytes(of: UInt32(size - 4), as: UInt32.self)
        start.storeBytes(of: Int64(line), toByteOffset: 4, as: Int64.self)
        var cursor = start + EncodedRow.headerSize
        for (index, slot) in slots.enumerated() {
            if slot.isPrice {
                let value = cents[index]
                if value < 0 {
                    cursor.storeBytes(of: EncodedRow.nullMarker, as: UInt32.self)
                    cursor += 4
                } else {
                    cursor.storeBytes(of: UInt32(8), as: UInt32.self)
                    (cursor + 4).storeBytes(of: value, as: Int64.self)
                    cursor += 12
                }
            } else {
                let bytes = ProductRules.trimmed(fields[slot.column])
                cursor.storeBytes(of: UInt32(bytes.count), as: UInt32.self)
                if let source = bytes.baseAddress, bytes.count > 0 {
                    (cursor + 4).copyMemory(from: source, byteCount: bytes.count)
                }
                cursor += 4 + bytes.count
            }
        }
        arena.commit()
        return .encoded
    }

    /// What became of a record.
    enum Outcome {
        case encoded
        case rejected(String)
        case arenaFull
    }

    private mutating func textProblem(in fields: CSVRecord.Fields) -> String? {
        for column in 0..<fields.count {
            switch TextValidation.problem(in: fields[column]) {
            case nil: continue
            case .nulByte?: return "column \(column + 1) (\(header[column])) contains a NUL byte"
            case .invalidUTF8?:
                invalidUTF8Rows += 1
                return "column \(column + 1) (\(header[column])) is not valid UTF-8 (for Latin-1 or Windows-1252 files, give --encoding)"
            }
        }
        return nil
    }

    private static func quoted(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let text = String(decoding: bytes.prefix(40), as: UTF8.self)
        return "\"\(text)\(bytes.count > 40 ? "…" : "")\""
    }
}
