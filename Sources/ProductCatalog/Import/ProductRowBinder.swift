/// Checks one CSV record against the catalog's rules and binds it into the insert statement.
///
/// Fields are bound straight from the record's bytes (no `String` per field); prices are parsed
/// from bytes into integer cents. A record that breaks a rule is not bound: the binder returns
/// the reason, in words, for the rejects file.
struct ProductRowBinder {
    /// One statement parameter: which field of the record feeds it, and how.
    struct Slot {
        var column: Int
        var columnName: String
        var isPrice: Bool
    }

    /// In parameter order: productId first.
    let slots: [Slot]
    let header: [String]

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
        header = mapping.header
    }

    /// The catalog columns the statement fills, in parameter order.
    var columnNames: [String] { slots.map(\.columnName) }

    /// Binds `fields` to `statement`, or returns why the record is rejected.
    ///
    /// The bound bytes belong to the record: step the statement before the record changes.
    @inline(__always)
    func bind(_ fields: CSVRecord.Fields, malformation: CSVMalformation?, to statement: Statement) -> String? {
        if let malformation { return malformation.description }
        guard fields.count == header.count else {
            return "expected \(header.count) fields as in the header, found \(fields.count)"
        }
        if !TextValidation.isPlainASCII(fields.allBytes), let reason = textProblem(in: fields) {
            return reason
        }
        for (index, slot) in slots.enumerated() {
            let bytes = fields[slot.column]
            let parameter = Int32(index + 1)
            if index == 0, bytes.isEmpty {
                return "productId is empty"
            }
            if slot.isPrice {
                switch Price.parse(bytes) {
                case nil: statement.bindNull(parameter)
                case .price(let price)?: statement.bind(parameter, price.cents)
                case .failure(let failure)?:
                    return "\(header[slot.column]) \(Self.quoted(bytes)): \(failure)"
                }
            } else {
                statement.bindText(parameter, unsafeBytes: bytes)
            }
        }
        return nil
    }

    private func textProblem(in fields: CSVRecord.Fields) -> String? {
        for column in 0..<fields.count {
            switch TextValidation.problem(in: fields[column]) {
            case nil: continue
            case .nulByte?: return "column \(column + 1) (\(header[column])) contains a NUL byte"
            case .invalidUTF8?:
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
