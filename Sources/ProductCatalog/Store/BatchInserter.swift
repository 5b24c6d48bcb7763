/// The prepared statements that write batches of encoded rows: 32 rows per statement step.
///
/// One step of a 32-row `INSERT … VALUES (…), (…), …` does the work of 32 single-row steps
/// with a thirty-second of the per-statement cost (step, reset, VDBE setup). The remainder of
/// a batch goes through the one-row statement.
struct BatchInserter {
    /// Rows per multi-row statement.
    static let rowsPerStatement = 32

    private let single: Statement
    private let multiple: Statement

    /// Prepares inserts into `columns` (productId first), each followed by `conflictClause`.
    init(connection: Connection, columns: [String], conflictClause: String = "") throws {
        func sql(rows: Int) -> String {
            let names = columns.map(quoteIdentifier).joined(separator: ", ")
            let tuples = (0..<rows).map { row in
                "(" + (1...columns.count).map { "?\(row * columns.count + $0)" }.joined(separator: ", ") + ")"
            }
            return "INSERT INTO \(CatalogSchema.table) (\(names)) VALUES \(tuples.joined(separator: ", ")) \(conflictClause)"
        }
        single = try connection.prepare(sql(rows: 1))
        multiple = try connection.prepare(sql(rows: Self.rowsPerStatement))
    }

    /// Inserts every row of `batch`; `parameters` says how each slot of a row is bound.
    func insert(_ batch: RowBatch, parameters: UnsafeBufferPointer<EncodedRow.Parameter>) throws {
        let columns = Int32(parameters.count { $0 != .absent })
        var index = 0
        while batch.count - index >= Self.rowsPerStatement {
            try multiple.execute { statement in
                for offset in 0..<Self.rowsPerStatement {
                    try batch.row(index + offset).bind(to: statement, firstParameter: Int32(offset) * columns + 1, parameters: parameters)
                }
            }
            index += Self.rowsPerStatement
        }
        while index < batch.count {
            try single.execute { statement in
                try batch.row(index).bind(to: statement, firstParameter: 1, parameters: parameters)
            }
            index += 1
        }
    }
}

extension CatalogBuild {
    /// Runs `body`, naming the catalog in any SQLite error.
    func database<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw CatalogError.database(path: livePath, error)
        }
    }
}
