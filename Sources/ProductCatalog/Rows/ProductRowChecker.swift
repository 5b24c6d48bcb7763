/// Checks one CSV record against the catalog's rules and encodes it for the sorted runs.
///
/// Fields are read straight from the record's bytes (no `String` per field); prices are parsed
/// from bytes into integer thousandths. Only a price that is not a plain decimal (`12.00 USD`, `4,99`)
/// takes the slower road through ``PriceReader``, which also finds its currency. A record that
/// breaks a rule is not encoded: the checker returns the reason, in words, for the rejects file.
struct ProductRowChecker {
    /// One statement parameter: which field of the record feeds it, and how.
    struct Slot {
        enum Kind {
            /// Text, stored as it is (trimmed).
            case text
            /// A price, stored as integer thousandths.
            case price
            /// A whole number of items in stock; anything else (`Unlimited`, `InStock`) is NULL.
            case quantity
            /// The currency the prices named, for a file without a currency column.
            case derivedCurrency
            /// The currency column, or when it is empty the currency the prices named.
            case currency

            /// True for the slots stored as SQLite INTEGER.
            var isInteger: Bool { self == .price || self == .quantity }
        }

        /// The record's field, or -1 for a derived value.
        var column: Int
        var kind: Kind
    }

    /// In parameter order: productId first.
    let slots: [Slot]
    /// The catalog column each slot fills.
    let columnNames: [String]
    let header: [String]
    /// The slots of the list and the sale price, when the file has both.
    private let salePriceSlots: (list: Int, sale: Int)?
    /// Rows rejected because a field is not valid UTF-8: a sign of a file in another encoding.
    private(set) var invalidUTF8Rows = 0
    /// True once a row of a file without a currency column had prices that named one.
    private(set) var pricesNamedACurrency = false
    /// Reads prices that are not plain decimals; it learns the file's decimal separator.
    private var priceReader = PriceReader()
    /// The currency named by this record's prices.
    private var currency: [UInt8] = []

    init(mapping: HeaderMapping) {
        var slots: [Slot] = []
        var names: [String] = []
        for field in ProductField.allCases {
            guard let column = mapping.fieldColumns[field] else { continue }
            let kind: Slot.Kind = field.isPrice ? .price : field == .quantity ? .quantity : field == .currency ? .currency : .text
            slots.append(Slot(column: column, kind: kind))
            names.append(field.columnName)
        }
        if mapping.fieldColumns[.currency] == nil, slots.contains(where: { $0.kind == .price }) {
            slots.append(Slot(column: -1, kind: .derivedCurrency))
            names.append(ProductField.currency.columnName)
        }
        for extra in mapping.extras {
            slots.append(Slot(column: extra.index, kind: .text))
            names.append(extra.name)
        }
        self.slots = slots
        columnNames = names
        header = mapping.header
        if let list = names.firstIndex(of: ProductField.listPrice.columnName),
           let sale = names.firstIndex(of: ProductField.salesPrice.columnName) {
            salePriceSlots = (list, sale)
        } else {
            salePriceSlots = nil
        }
    }

    /// How each slot of an encoded row is bound, once every row is checked: a derived currency
    /// no price named is left out, so the catalog does not store a NULL for it in every row.
    var parameters: [EncodedRow.Parameter] {
        slots.map { slot in
            if slot.kind.isInteger { return .integer }
            return slot.kind == .derivedCurrency && !pricesNamedACurrency ? .absent : .text
        }
    }

    /// The catalog columns written, with their kinds, in parameter order (see ``parameters``).
    var checkedColumns: [CheckedColumn] {
        zip(columnNames, parameters).filter { $0.1 != .absent }.map { CheckedColumn(name: $0.0, isInteger: $0.1 == .integer) }
    }

    /// Checks `fields`; when they pass, encodes them (with `line`) into `storage`: ``Outcome/encoded``.
    ///
    /// Returns the reason when the record is rejected, and ``Outcome/noRoom`` when the record
    /// is fine but the storage is full: empty it (or take another) and call again.
    @inline(__always)
    mutating func encode<Storage: EncodedRowStorage>(
        _ fields: CSVRecord.Fields, malformation: CSVMalformation?, line: Int, into storage: Storage
    ) -> Outcome {
        if let malformation { return .rejected(malformation.description) }
        guard fields.count == header.count else {
            return .rejected("expected \(header.count) fields as in the header, found \(fields.count)")
        }
        if !TextValidation.isPlainASCII(fields.allBytes), let reason = textProblem(in: fields) {
            return .rejected(reason)
        }
        if let problem = ProductRules.problem(inProductId: Self.storedText(fields[slots[0].column])) {
            return .rejected(problem.reason)
        }
        if !currency.isEmpty { currency.removeAll(keepingCapacity: true) }
        let slots = self.slots
        // The record's integers (-1 or Int64.min: NULL), on the stack.
        return withUnsafeTemporaryAllocation(of: Int64.self, capacity: slots.count) { integers in
            var size = EncodedRow.headerSize
            var hasThirdDecimal = false
            for index in slots.indices {
                let slot = slots[index]
                switch slot.kind {
                case .text:
                    size += 4 + Self.storedText(fields[slot.column]).count
                case .price:
                    let bytes = fields[slot.column]
                    switch Price.parse(bytes) {
                    case nil:
                        integers[index] = -1
                    case .price(let price)?:
                        integers[index] = price.thousandths
                    case .failure?:
                        switch readPrice(bytes, column: slot.column) {
                        case .success(let thousandths): integers[index] = thousandths
                        case .failure(let rejection): return .rejected(rejection.reason)
                        }
                    }
                    size += integers[index] < 0 ? 4 : 12
                    if integers[index] > 0 && integers[index] % 10 != 0 { hasThirdDecimal = true }
                case .quantity:
                    integers[index] = Self.wholeNumber(ProductRules.trimmed(fields[slot.column])) ?? Int64.min
                    size += integers[index] == Int64.min ? 4 : 12
                case .derivedCurrency:
                    size += currency.isEmpty ? 4 : 4 + currency.count
                case .currency:
                    let own = ProductRules.trimmed(fields[slot.column])
                    size += own.isEmpty ? (currency.isEmpty ? 4 : 4 + currency.count) : 4 + own.count
                }
            }
            if let (list, sale) = salePriceSlots, integers[sale] > integers[list], integers[list] >= 0 {
                return .rejected("the sale price (\(Price(thousandths: integers[sale]))) is above the list price (\(Price(thousandths: integers[list])))")
            }
            if hasThirdDecimal {
                for index in slots.indices where slots[index].kind == .price && integers[index] > 0 {
                    if let problem = thirdDecimalProblem(Price(thousandths: integers[index]), fields: fields) {
                        return .rejected("\(header[slots[index].column]) \"\(Price(thousandths: integers[index]))\" \(problem)")
                    }
                }
            }
            guard let start = storage.reserve(size) else { return .noRoom }
            start.storeBytes(of: UInt32(size - 4), as: UInt32.self)
            start.storeBytes(of: Int64(line), toByteOffset: 4, as: Int64.self)
            var cursor = start + EncodedRow.headerSize
            for index in slots.indices {
                let slot = slots[index]
                switch slot.kind {
                case .price, .quantity:
                    let value = integers[index]
                    if value < 0 && (slot.kind == .price || value == Int64.min) {
                        cursor.storeBytes(of: EncodedRow.nullMarker, as: UInt32.self)
                        cursor += 4
                    } else {
                        cursor.storeBytes(of: UInt32(8), as: UInt32.self)
                        (cursor + 4).storeBytes(of: value, as: Int64.self)
                        cursor += 12
                    }
                case .text:
                    cursor = Self.store(Self.storedText(fields[slot.column]), at: cursor)
                case .derivedCurrency, .currency:
                    let own = slot.kind == .currency ? ProductRules.trimmed(fields[slot.column]) : UnsafeBufferPointer(start: nil, count: 0)
                    if !own.isEmpty {
                        cursor = Self.store(own, at: cursor)
                    } else if currency.isEmpty {
                        cursor.storeBytes(of: EncodedRow.nullMarker, as: UInt32.self)
                        cursor += 4
                    } else {
                        if slot.kind == .derivedCurrency { pricesNamedACurrency = true }
                        cursor = currency.withUnsafeBufferPointer { Self.store($0, at: cursor) }
                    }
                }
            }
            storage.commit()
            return .encoded
        }
    }

    /// A price that is not a plain decimal (`12.00 USD`, `4,99`), read by ``PriceReader``: its
    /// thousandths (-1 for none), or why the row is rejected. Notes the currency it names.
    private mutating func readPrice(_ bytes: UnsafeBufferPointer<UInt8>, column: Int) -> Result<Int64, PriceRejection> {
        switch priceReader.read(String(decoding: bytes, as: UTF8.self)) {
        case nil:
            return .success(-1)
        case .success(let reading)?:
            if let code = reading.currency {
                if !currency.isEmpty, currency != Array(code.utf8) {
                    return .failure(PriceRejection("the prices name two currencies, \(String(decoding: currency, as: UTF8.self)) and \(code)"))
                }
                currency = Array(code.utf8)
            }
            return .success(reading.price.thousandths)
        case .failure(let problem)?:
            return .failure(PriceRejection("\(header[column]) \(problem)"))
        }
    }

    /// Why a price with a third decimal cannot stand in this record: the currency its column
    /// names, or else the one its prices named, has no third decimal.
    private func thirdDecimalProblem(_ price: Price, fields: CSVRecord.Fields) -> String? {
        var code = currency.isEmpty ? nil : String(decoding: currency, as: UTF8.self)
        if let slot = slots.first(where: { $0.kind == .currency }) {
            let own = ProductRules.trimmed(fields[slot.column])
            if !own.isEmpty { code = String(decoding: own, as: UTF8.self) }
        }
        return ProductRules.thirdDecimalProblem(price, currency: code)
    }

    /// Why a price rejects its row, in words.
    private struct PriceRejection: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// What became of a record.
    enum Outcome {
        case encoded
        case rejected(String)
        case noRoom
    }

    @inline(__always)
    private static func store(_ bytes: UnsafeBufferPointer<UInt8>, at cursor: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        cursor.storeBytes(of: UInt32(bytes.count), as: UInt32.self)
        if let source = bytes.baseAddress, bytes.count > 0 {
            (cursor + 4).copyMemory(from: source, byteCount: bytes.count)
        }
        return cursor + 4 + bytes.count
    }

    /// A text field as the catalog stores it: trimmed, and a spreadsheet-safe export's escape undone.
    @inline(__always)
    static func storedText(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        SpreadsheetEscape.unescaped(ProductRules.trimmed(bytes))
    }

    /// `42`, `-3` or `+7`; nil for anything else, as a stock of `Unlimited` or `InStock` is unknown.
    private static func wholeNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value: Int64 = 0
        var negative = false
        for (index, byte) in bytes.enumerated() {
            if index == 0, byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
                negative = byte == UInt8(ascii: "-")
                guard bytes.count > 1 else { return nil }
                continue
            }
            guard byte &- 0x30 < 10 else { return nil }
            value = value * 10 + Int64(byte &- 0x30)
        }
        return negative ? -value : value
    }

    private mutating func textProblem(in fields: CSVRecord.Fields) -> String? {
        for column in 0..<fields.count {
            switch TextValidation.problem(in: fields[column]) {
            case nil: continue
            case .nulByte?: return "column \(column + 1) (\(header[column])) contains a NUL byte"
            case .invalidUTF8?:
                invalidUTF8Rows += 1
                return "column \(column + 1) (\(header[column])) is not valid UTF-8 (a Latin-1 or Windows-1252 file imports with its encoding named)"
            }
        }
        return nil
    }
}
